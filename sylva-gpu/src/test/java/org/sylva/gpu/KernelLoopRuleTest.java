package org.sylva.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Both kernel sources and both preludes obey the loop rule; the check catches sources that do not. */
class KernelLoopRuleTest {
    @Test
    void theKernelSourceObeysTheRule() {
        assertEquals(List.of(), KernelLoopRule.violations(KernelSource.kernels()));
        for (KernelSource.Api api : KernelSource.Api.values()) {
            assertEquals(List.of(), KernelLoopRule.violations(KernelSource.compose(api, 21)), api.name());
        }
    }

    @Test
    void theBallTreeSourceObeysTheRule() {
        String src = KernelSource.treeKernels();
        assertTrue(src.contains("for ("), "the ball-tree source has loops to check");
        assertEquals(List.of(), KernelLoopRule.violations(src));
        for (KernelSource.Api api : KernelSource.Api.values()) {
            assertEquals(List.of(), KernelLoopRule.violations(KernelSource.composeTree(api)), api.name());
        }
        for (String kernel : GpuBackend.TREE_KERNELS) assertTrue(src.contains("KERNEL void " + kernel + "("), kernel);
    }

    @Test
    void aFlagLoopIsCaught() {
        assertTrue(!KernelLoopRule.violations("int f = 1; while (f) { f = g(); }").isEmpty());
        assertTrue(!KernelLoopRule.violations("do { f = g(); } while (f);").isEmpty());
        assertTrue(!KernelLoopRule.violations("for (int i = 0; f; i++) { f = g(i); }").isEmpty());
        assertTrue(!KernelLoopRule.violations("for (;;) { if (g()) break; }").isEmpty());
        assertTrue(!KernelLoopRule.violations("for (int i = 0; i < n; ) { i = g(i); }").isEmpty());
        assertTrue(!KernelLoopRule.violations("for (int i = 0; i < n; j++) { }").isEmpty());
    }

    @Test
    void boundedLoopsPass() {
        assertEquals(List.of(), KernelLoopRule.violations(
                "for (int t = K - 1; t > 0; t--) {} for (int e = lid; e < rows * d; e += wg) {} /* while */"));
    }

    @Test
    void theListInsertionIsAFixedUnrolledSequence() {
        String src = KernelSource.kernels();
        int at = src.indexOf("void list_insert");
        String body = src.substring(at, src.indexOf("\n}\n", at));
        assertTrue(body.contains("UNROLL") && body.contains("for (int t = K - 1; t > 0; t--)"), body);
        assertTrue(!body.contains("break") && !body.contains("return"), "no early exit in the insertion: " + body);
    }
}
