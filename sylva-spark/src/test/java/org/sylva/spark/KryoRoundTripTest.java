package org.sylva.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.List;

import org.apache.spark.SparkConf;
import org.apache.spark.serializer.JavaSerializer;
import org.apache.spark.serializer.KryoSerializer;
import org.apache.spark.serializer.SerializerInstance;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.sylva.hdbscan.core.NearestSlice;
import org.sylva.hdbscan.mst.BoruvkaRoundState;
import org.sylva.hdbscan.mst.SliceEdges;

import scala.Tuple2;
import scala.reflect.ClassTag$;

/**
 * Everything a fit sends through Spark's configured serializer (broadcasts, task results, shuffled keys)
 * comes back equal through Java serialization and through Kryo, which many clusters set as
 * {@code spark.serializer} and which cannot build Java records.
 */
class KryoRoundTripTest {
    private static final List<SerializerInstance> SERIALIZERS = List.of(
            new JavaSerializer(new SparkConf()).newInstance(), new KryoSerializer(new SparkConf()).newInstance(),
            // as many clusters set it: every class refused unless registered, here by SylvaKryoRegistrator
            new KryoSerializer(new SparkConf().set("spark.kryo.registrationRequired", "true")
                    .set("spark.kryo.registrator", SylvaKryoRegistrator.class.getName())).newInstance());

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(SerializerInstance s, T value) {
        ByteBuffer b = s.serialize(value, ClassTag$.MODULE$.AnyRef());
        return (T) s.deserialize(b, ClassTag$.MODULE$.AnyRef());
    }

    @Test
    void broadcastsAndTaskResults() {
        for (SerializerInstance s : SERIALIZERS) {
            String name = s.getClass().getSimpleName();
            FitData data = roundTrip(s, new FitData("fit-1", new double[] {1, 2, 3, 4}, 2, 2));
            assertEquals("fit-1", data.fitId(), name);
            assertArrayEquals(new double[] {1, 2, 3, 4}, data.rows(), name);
            assertEquals(2, data.n());
            assertEquals(2, data.d());
            BoruvkaRoundState st = new BoruvkaRoundState(new int[] {0, 0, 1}, new double[] {0.5, 1.5, 2.5},
                    new long[] {7L, 9L, 11L}, new boolean[] {true, false, true});
            RoundMessage m = roundTrip(s, RoundMessage.of(3, st));
            assertEquals(3, m.round(), name);
            assertArrayEquals(st.components(), m.state().components(), name);
            assertArrayEquals(st.componentWeights(), m.state().componentWeights(), name);
            assertArrayEquals(st.componentEndpoints(), m.state().componentEndpoints(), name);
            assertArrayEquals(st.active(), m.state().active(), name);
            NearestSlice ns = new NearestSlice(2, new int[] {4}, new int[] {4, 5}, new double[] {0.0, 0.25});
            NearestSlice back = roundTrip(s, TaskResults.Lists.of(ns)).slice();
            assertEquals(2, back.k(), name);
            assertArrayEquals(ns.neighbours(), back.neighbours(), name);
            assertArrayEquals(ns.distances(), back.distances(), name);
            SliceEdges e = new SliceEdges(new int[] {1}, new double[] {0.75}, new int[] {6});
            SliceEdges eb = roundTrip(s, TaskResults.Edges.of(e)).edges();
            assertArrayEquals(e.weights(), eb.weights(), name);
            assertArrayEquals(e.others(), eb.others(), name);
        }
    }

    @Test
    void shuffledGroupKeysAndRows() {
        Object[] keys = {GroupKey.of(new byte[] {1, 2, 3}), GroupKey.of(RowFactory.create(new byte[] {3}, -0.0)),
            GroupKey.of(LocalSpark.seq(List.of(new byte[] {4}))), GroupKey.of(0.0), GroupKey.of("ch1"), null,
            GroupKey.of(java.util.Map.of("a", -0.0, "b", 2.0)),
            GroupKey.of(org.apache.spark.ml.linalg.Vectors.sparse(3, new int[] {1}, new double[] {-0.0})),
            GroupKey.of(org.apache.spark.ml.linalg.Vectors.dense(1, 2))};
        for (SerializerInstance s : SERIALIZERS) {
            for (Object k : keys) {
                Tuple2<Object, Tuple2<Long, Row>> t = new Tuple2<>(k, new Tuple2<>(GroupedFits.place(2, 5), RowFactory.create(1, "a")));
                Tuple2<Object, Tuple2<Long, Row>> back = roundTrip(s, t);
                assertEquals(k, back._1(), s.getClass().getSimpleName());
                assertEquals(k == null ? 0 : k.hashCode(), back._1() == null ? 0 : back._1().hashCode());
                assertEquals(t._2()._1(), back._2()._1());
                assertEquals(t._2()._2(), back._2()._2());
            }
        }
    }

    /**
     * A whole fit under Kryo in a JVM of its own, whose model is saved there and loaded here (another JVM, another
     * serializer) with the same result as the local fit. Kryo there refuses every class not registered
     * ({@code spark.kryo.registrationRequired}, as many clusters set it), with {@link SylvaKryoRegistrator}: the
     * stricter of Kryo's two settings, and the one that needs the registrator.
     */
    @Test
    void aWholeFitRunsUnderKryo(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        // a JVM of its own: one Spark context per JVM, and this one's is the tests' (Java serialization)
        String saved = dir.resolve("kryo-model").toString();
        java.util.List<String> cmd = new java.util.ArrayList<>();
        cmd.add(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.add("-Dsylva.kryo.registrationRequired=true");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(KryoFitMain.class.getName());
        cmd.add(saved);
        java.nio.file.Path log = java.nio.file.Files.createTempFile("sylva-kryo", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended = p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES);
        if (!ended) p.destroyForcibly();
        String out = java.nio.file.Files.readString(log);
        java.nio.file.Files.deleteIfExists(log);
        assertEquals(true, ended, "the Kryo fit ended within 5 minutes: " + out);
        assertEquals(0, p.exitValue(), out);
        org.junit.jupiter.api.Assertions.assertTrue(out.contains("kryo fit ok"), out);

        SylvaHdbscanModel loaded = SylvaHdbscanModel.read().session(LocalSpark.get()).load(saved);
        org.sylva.hdbscan.HdbscanResult local = org.sylva.hdbscan.Hdbscan.builder().minClusterSize(10).build()
                .fit(KryoFitMain.data(), KryoFitMain.N, KryoFitMain.D, org.sylva.progress.ProgressListener.NONE,
                        org.sylva.progress.CancellationToken.NEVER);
        org.sylva.testsupport.SameResult.assertSameResult(local, loaded.result());
        assertEquals("cluster", loaded.getOrDefault(loaded.labelCol()));
    }

    @Test
    void theRegistratorNamesEveryClassOnceAndLoadsThemAll() {
        List<Class<?>> classes = SylvaKryoRegistrator.classes();
        assertEquals(classes.size(), new java.util.HashSet<>(classes).size(), "no class twice: " + classes);
        com.esotericsoftware.kryo.Kryo kryo = new com.esotericsoftware.kryo.Kryo();
        kryo.setRegistrationRequired(true);
        new SylvaKryoRegistrator().registerClasses(kryo);
        for (Class<?> c : classes) org.junit.jupiter.api.Assertions.assertNotNull(kryo.getRegistration(c), c.getName());
    }
}
