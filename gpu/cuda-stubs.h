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
