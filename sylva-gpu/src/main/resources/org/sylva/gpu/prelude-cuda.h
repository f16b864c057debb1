/* CUDA C++ prelude of hdbscan.cl.inc (compiled by NVRTC): the words that differ between the APIs. */
#define KERNEL extern "C" __global__
#define GLOBAL
#define LOCAL_MEM __shared__
#define DEVICE_FN __device__ __forceinline__
#define SYNC() __syncthreads()
#define LOCAL_ID ((int) threadIdx.x)
#define LOCAL_SIZE ((int) blockDim.x)
#define GROUP_ID ((int) blockIdx.x)
#define UNROLL _Pragma("unroll")
#define INF_D (__longlong_as_double(0x7ff0000000000000LL))
#define MIN_I(a, b) min((a), (b))
typedef long long idx_t;
/* the _rn intrinsics are never contracted into a fused multiply-add, whatever --fmad says */
#define SUB(a, b) __dsub_rn((a), (b))
#define MUL(a, b) __dmul_rn((a), (b))
#define ADD(a, b) __dadd_rn((a), (b))
#define DIV(a, b) __ddiv_rn((a), (b))
#define SQRT(x) __dsqrt_rn(x)
/* the ball-tree kernels (balltree.cl.inc): 32-bit atomics on global memory, bit casts, 64-bit keys */
/* a pointer into local (shared) memory */
#define LOCAL_PTR
#define ATOMIC_MIN(p, v) atomicMin((p), (v))
#define ATOMIC_MAX(p, v) atomicMax((p), (v))
#define ATOMIC_ADD(p, v) atomicAdd((p), (v))
#define FLOAT_BITS(x) __float_as_int(x)
#define BITS_FLOAT(x) __int_as_float(x)
typedef unsigned long long u64_t;
typedef unsigned char u8_t;
