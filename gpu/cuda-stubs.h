/* Host stand-ins for the CUDA words prelude-cuda.h uses, so a plain C++ compiler can check the
   CUDA-preluded kernel source's syntax and types where no nvcc exists (gpu/cuda-syntax-check.sh).
   They say nothing about how the code runs on a GPU. */
#define __global__
#define __shared__ static
#define __device__
#define __forceinline__ inline
struct sylva_dim3 { unsigned x, y, z; };
static thread_local sylva_dim3 threadIdx, blockDim, blockIdx;   /* per thread: the fake driver runs a block as threads */
static inline void __syncthreads() {}
static inline double __longlong_as_double(long long v) { double d; __builtin_memcpy(&d, &v, sizeof d); return d; }
static inline int min(int a, int b) { return a < b ? a : b; }
static inline double __dsub_rn(double a, double b) { return a - b; }
static inline double __dmul_rn(double a, double b) { return a * b; }
static inline double __dadd_rn(double a, double b) { return a + b; }
static inline double __ddiv_rn(double a, double b) { return a / b; }
static inline double __dsqrt_rn(double x) { return __builtin_sqrt(x); }
/* the ball-tree kernels' atomics (real ones: the fake driver runs a block's threads concurrently) and bit casts */
static inline int atomicAdd(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
static inline int atomicMin(int* p, int v) {
    int old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v < old && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline int atomicMax(int* p, int v) {
    int old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (v > old && !__atomic_compare_exchange_n(p, &old, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
    return old;
}
static inline int __float_as_int(float x) { int v; __builtin_memcpy(&v, &x, sizeof v); return v; }
static inline float __int_as_float(int x) { float v; __builtin_memcpy(&v, &x, sizeof v); return v; }
