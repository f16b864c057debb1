/*
 * A stand-in for libcuda.so.1 for tests on machines without an NVIDIA GPU: the driver-API calls the
 * CUDA backend binds, implemented on the host. Device memory is host memory; cuLaunchKernel runs the
 * CUDA-preluded kernel source itself (gpu/make-ptx.sh --compose K > composed.inc, compiled into this
 * library with gpu/cuda-stubs.h, so one K per build; the ball-tree kernels likewise from
 * make-ptx.sh --compose-tree > composed-tree.inc), one block after another, each block's threads as real threads meeting at
 * __syncthreads (a pthread barrier), __shared__ arrays as function statics. It checks the Java side's
 * bindings end to end (signatures, the _v2 symbols, launch-argument marshalling, copies); it says
 * nothing about how NVIDIA's compiler or hardware treat the kernels. It also stands in for NVRTC
 * (nvrtc* below): a "compile" checks the options and the source the backend hands over and returns a
 * PTX text this driver's cuModuleLoadData accepts.
 * Built by CudaFakeDriverTest: g++ -std=c++17 -shared -fPIC -pthread -I DIR_OF_COMPOSED -I gpu ...
 */
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <string>
#include <vector>

#include "cuda-stubs.h"

static pthread_barrier_t block_barrier;
#undef __syncthreads
#define __syncthreads() pthread_barrier_wait(&block_barrier)

namespace kernels {
#include "composed.inc"
}
namespace tree {
#include "composed-tree.inc"
}

/* a launch argument, converted to whatever the kernel's parameter is (the params array points at each value) */
struct Arg {
    void* v;
    template <class T> operator T() const { return *(T*) v; }
};
/* the ball-tree kernels, in the order of GpuBackend.TREE_KERNELS; handles 0x20 + index */
static const char* const TREE_KERNELS[] = {"bt_init", "bt_reset", "bt_minmax", "bt_pick", "bt_hist", "bt_digit",
                                           "bt_part", "bt_advance", "bt_leaves", "bt_small_list", "bt_small"};
static const int TREE_COUNT = 11;

typedef int CUresult;
enum { OK = 0, INVALID_VALUE = 1, NOT_FOUND = 500 };
static int launches = 0;

extern "C" {
CUresult cuInit(unsigned) { return OK; }
CUresult cuDriverGetVersion(int* v) { *v = 12040; return OK; }
CUresult cuDeviceGetCount(int* n) { *n = 1; return OK; }
CUresult cuDeviceGet(int* d, int ordinal) { if (ordinal != 0) return INVALID_VALUE; *d = 0; return OK; }
CUresult cuDeviceGetName(char* name, int len, int) { std::strncpy(name, "Fake CUDA device (host threads)", len); return OK; }
CUresult cuDeviceGetAttribute(int* v, int attr, int) {
    switch (attr) {
        case 75: *v = 9; return OK;        /* compute capability major */
        case 76: *v = 0; return OK;        /* minor */
        case 8: *v = 49152; return OK;     /* shared memory per block */
        case 1: *v = 1024; return OK;      /* threads per block */
        case 16: *v = 2; return OK;        /* multiprocessors */
        default: return INVALID_VALUE;
    }
}
CUresult cuDeviceTotalMem_v2(size_t* b, int) { *b = (size_t) 1 << 30; return OK; }
CUresult cuDevicePrimaryCtxRetain(void** ctx, int) { *ctx = (void*) 0x1; return OK; }
CUresult cuDevicePrimaryCtxRelease_v2(int) { return OK; }
CUresult cuCtxSetCurrent(void* ctx) { return ctx == (void*) 0x1 ? OK : INVALID_VALUE; }
CUresult cuModuleLoadData(void** m, const void* image) {
    if (std::strstr((const char*) image, ".entry core_lists") == nullptr
        && std::strstr((const char*) image, ".entry bt_init") == nullptr) return 218;   /* INVALID_PTX */
    *m = (void*) 0x2;
    return OK;
}
CUresult cuModuleGetFunction(void** f, void*, const char* name) {
    if (std::strcmp(name, "core_lists") == 0) *f = (void*) 0x10;
    else if (std::strcmp(name, "cheapest_edges") == 0) *f = (void*) 0x11;
    else {
        for (int i = 0; i < TREE_COUNT; i++) {
            if (std::strcmp(name, TREE_KERNELS[i]) == 0) { *f = (void*) (uintptr_t) (0x20 + i); return OK; }
        }
        return NOT_FOUND;
    }
    return OK;
}
/* SYLVA_FAKE_CUDA_ALLOC_LIMIT: allocations above that many bytes fail as a full device's do */
CUresult cuMemAlloc_v2(uint64_t* p, size_t bytes) {
    const char* limit = std::getenv("SYLVA_FAKE_CUDA_ALLOC_LIMIT");
    if (limit != nullptr && bytes > (size_t) std::strtoull(limit, nullptr, 10)) return 2;   /* CUDA_ERROR_OUT_OF_MEMORY */
    *p = (uint64_t) std::calloc(1, bytes);
    return *p ? OK : 2;
}
CUresult cuMemFree_v2(uint64_t p) { std::free((void*) p); return OK; }
CUresult cuMemcpyHtoD_v2(uint64_t dst, const void* src, size_t n) { std::memcpy((void*) dst, src, n); return OK; }
CUresult cuMemcpyDtoH_v2(void* dst, uint64_t src, size_t n) { std::memcpy(dst, (const void*) src, n); return OK; }
CUresult cuMemGetInfo_v2(size_t* free, size_t* total) { *free = (size_t) 1 << 29; *total = (size_t) 1 << 30; return OK; }
/* blocks per multiprocessor: 2 of core_lists, 3 of cheapest_edges, 1 of the others; only 64-thread blocks
   and no dynamic shared memory, as the backend launches them */
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* n, void* f, int block, size_t dynamicShared) {
    if (block != 64 || dynamicShared != 0) return INVALID_VALUE;
    uintptr_t h = (uintptr_t) f;
    if (h == 0x10) *n = 2;
    else if (h == 0x11) *n = 3;
    else if (h >= 0x20 && h < 0x20 + TREE_COUNT) *n = 1;
    else return INVALID_VALUE;
    return OK;
}
CUresult cuStreamCreate(void** s, unsigned) { *s = (void*) 0x3; return OK; }
CUresult cuStreamSynchronize(void*) { return OK; }
CUresult cuGetErrorName(CUresult rc, const char** s) { *s = rc == 2 ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUDA_ERROR_FAKE"; return OK; }
CUresult cuGetErrorString(CUresult rc, const char** s) { *s = rc == 2 ? "out of memory" : "an error of the fake driver"; return OK; }
/* how many launches ran (the test reads it to see the kernels were really launched here) */
int sylvaFakeLaunches() { return launches; }

/* ---- NVRTC ---- */
struct FakeProgram { std::string src, log, ptx; };
static int compiles = 0;
int sylvaFakeCompiles() { return compiles; }
int nvrtcVersion(int* major, int* minor) { *major = 12; *minor = 4; return 0; }
const char* nvrtcGetErrorString(int r) { return r == 0 ? "NVRTC_SUCCESS" : "NVRTC_ERROR_COMPILATION"; }
int nvrtcCreateProgram(void** prog, const char* src, const char* name, int headers, const char* const*,
                       const char* const*) {
    if (src == nullptr || name == nullptr || headers != 0) return 3;   /* INVALID_INPUT */
    *prog = new FakeProgram{src, "", ""};
    return 0;
}
int nvrtcCompileProgram(void* prog, int n, const char* const* options) {
    FakeProgram* p = (FakeProgram*) prog;
    bool fmad = false, arch = false;
    for (int i = 0; i < n; i++) {
        std::string o = options[i];
        fmad |= o == "--fmad=false";
        arch |= o == "--gpu-architecture=compute_90";   /* the fake device is compute capability 9.0 */
    }
    bool treeSource = p->src.find("KERNEL void bt_init(") != std::string::npos;
    bool source = (treeSource || p->src.find("#define K 21\n") != std::string::npos)
                  && p->src.find("#define KERNEL extern \"C\" __global__") != std::string::npos;
    if (!fmad || !arch || !source) {
        p->log = std::string("fake nvrtc: expected --fmad=false, --gpu-architecture=compute_90 and the CUDA-preluded "
                             "source for K = 21") + (fmad ? "" : " (no --fmad=false)") + (arch ? "" : " (no arch)");
        return 6;   /* COMPILATION */
    }
    p->ptx = treeSource ? "// fake nvrtc\n.visible .entry bt_init()\n"
                        : "// fake nvrtc\n.visible .entry core_lists()\n.visible .entry cheapest_edges()\n";
    compiles++;
    return 0;
}
int nvrtcGetProgramLogSize(void* prog, size_t* n) { *n = ((FakeProgram*) prog)->log.size() + 1; return 0; }
int nvrtcGetProgramLog(void* prog, char* out) {
    const std::string& l = ((FakeProgram*) prog)->log;
    std::memcpy(out, l.c_str(), l.size() + 1);
    return 0;
}
int nvrtcGetPTXSize(void* prog, size_t* n) { *n = ((FakeProgram*) prog)->ptx.size() + 1; return 0; }
int nvrtcGetPTX(void* prog, char* out) {
    const std::string& x = ((FakeProgram*) prog)->ptx;
    std::memcpy(out, x.c_str(), x.size() + 1);
    return 0;
}
int nvrtcDestroyProgram(void** prog) { delete (FakeProgram*) *prog; *prog = nullptr; return 0; }

/* ---- launches ---- */
struct Thread { void* f; void** p; unsigned block, thread, blocks, threads; };

static void* run_thread(void* arg) {
    Thread* t = (Thread*) arg;
    threadIdx = {t->thread, 0, 0};
    blockIdx = {t->block, 0, 0};
    blockDim = {t->threads, 1, 1};
    void** p = t->p;
    const uintptr_t id = (uintptr_t) t->f;
    if (id >= 0x20) {
        Arg a[16];
        for (int i = 0; i < 16; i++) a[i] = Arg{p[i]};
        switch (id - 0x20) {
            case 0: tree::bt_init(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
            case 1: tree::bt_reset(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); break;
            case 2: tree::bt_minmax(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); break;
            case 3: tree::bt_pick(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); break;
            case 4: tree::bt_hist(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); break;
            case 5: tree::bt_digit(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); break;
            case 6: tree::bt_part(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); break;
            case 7: tree::bt_advance(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
            case 8: tree::bt_leaves(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
            case 9: tree::bt_small_list(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
            default: tree::bt_small(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); break;
        }
    } else if (t->f == (void*) 0x10) {
        kernels::core_lists(*(const double**) p[0], *(const int**) p[1], *(const double**) p[2],
                            *(const double**) p[3], *(const double**) p[4], *(int*) p[5], *(int*) p[6],
                            *(int*) p[7], *(int*) p[8], *(int*) p[9], *(int*) p[10], *(double**) p[11],
                            *(int**) p[12]);
    } else {
        kernels::cheapest_edges(*(const double**) p[0], *(const int**) p[1], *(const double**) p[2],
                                *(const double**) p[3], *(const double**) p[4], *(int*) p[5],
                                *(const double**) p[6], *(const int**) p[7], *(const int**) p[8],
                                *(const int**) p[9], *(int*) p[10], *(int*) p[11], *(int*) p[12], *(int*) p[13],
                                *(int*) p[14], *(double*) p[15], *(int*) p[16], *(int*) p[17],
                                *(double**) p[18], *(int**) p[19]);
    }
    return nullptr;
}

CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void* stream, void** params, void** extra) {
    const uintptr_t id = (uintptr_t) f;
    if ((id != 0x10 && id != 0x11 && (id < 0x20 || id >= (uintptr_t) (0x20 + TREE_COUNT))) || gy != 1 || gz != 1 || by != 1 || bz != 1 || shared != 0
        || stream != (void*) 0x3 || extra != nullptr || bx == 0 || bx > 1024) return INVALID_VALUE;
    std::vector<pthread_t> ts(bx);
    std::vector<Thread> args(bx);
    for (unsigned b = 0; b < gx; b++) {   /* blocks one after another: the statics are one block's shared memory */
        pthread_barrier_init(&block_barrier, nullptr, bx);
        for (unsigned i = 0; i < bx; i++) {
            args[i] = Thread{f, params, b, i, gx, bx};
            pthread_create(&ts[i], nullptr, run_thread, &args[i]);
        }
        for (unsigned i = 0; i < bx; i++) pthread_join(ts[i], nullptr);
        pthread_barrier_destroy(&block_barrier);
    }
    launches++;
    return OK;
}
}
