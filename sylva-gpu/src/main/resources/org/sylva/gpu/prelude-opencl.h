/* OpenCL C prelude of hdbscan.cl.inc: the words that differ between the APIs. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* exactness: a * b + c must round twice, as the CPU's float64 loops do; never fused */
#pragma OPENCL FP_CONTRACT OFF
#define KERNEL __kernel
#define GLOBAL __global
#define LOCAL_MEM __local
#define DEVICE_FN inline
#define SYNC() barrier(CLK_LOCAL_MEM_FENCE)
#define LOCAL_ID ((int) get_local_id(0))
#define LOCAL_SIZE ((int) get_local_size(0))
#define GROUP_ID ((int) get_group_id(0))
#define UNROLL _Pragma("unroll")
#define INF_D (as_double((long) 0x7ff0000000000000L))
#define MIN_I(a, b) min((a), (b))
typedef long idx_t;
/* OpenCL requires float64 sqrt and division correctly rounded, as Java's Math.sqrt and / are */
#define SUB(a, b) ((a) - (b))
#define MUL(a, b) ((a) * (b))
#define ADD(a, b) ((a) + (b))
#define DIV(a, b) ((a) / (b))
#define SQRT(x) sqrt(x)
/* the ball-tree kernels (balltree.cl.inc): 32-bit atomics on global memory, bit casts, 64-bit keys */
/* a pointer into local (shared) memory */
#define LOCAL_PTR __local
#define ATOMIC_MIN(p, v) atomic_min((p), (v))
#define ATOMIC_MAX(p, v) atomic_max((p), (v))
#define ATOMIC_ADD(p, v) atomic_add((p), (v))
#define FLOAT_BITS(x) as_int(x)
#define BITS_FLOAT(x) as_float(x)
typedef ulong u64_t;
typedef uchar u8_t;
