// instances.cu -- every kernel instantiation that smsim models, in one
// translation unit, for regs.sh (ptxas -v register report, cubins for the
// SASS instruction mix).  The harness instantiates the same templates with
// the same parameter macros.
//
//   nvcc -O3 -std=c++17 -Xptxas -v -arch=sm_86 -cubin -o instances_sm_86.cubin instances.cu
//
// vecadd, pmpp_tiled_dyn and sgemm1 are not templates and are emitted from
// their headers.
#include "vecadd.cuh"
#include "pmpp.cuh"
#include "sgemm.cuh"

#define SGEMM_ARGS int, int, int, float, const float *, const float *, float, float *

template __global__ void pmpp_tiled<8>(const float *, const float *, float *, int);
template __global__ void pmpp_tiled<16>(const float *, const float *, float *, int);
template __global__ void pmpp_tiled<32>(const float *, const float *, float *, int);

template __global__ void sgemm2<SGEMM2_PARAMS>(SGEMM_ARGS);
template __global__ void sgemm3<SGEMM3_PARAMS>(SGEMM_ARGS);
template __global__ void sgemm4<SGEMM4_PARAMS>(SGEMM_ARGS);
template __global__ void sgemm5<SGEMM5_PARAMS>(SGEMM_ARGS);
template __global__ void sgemm6<SGEMM6_PARAMS>(SGEMM_ARGS);
template __global__ void sgemm7<SGEMM7_PARAMS>(SGEMM_ARGS);
template __global__ void sgemm8<SGEMM8_PARAMS>(SGEMM_ARGS);
template __global__ void sgemm9<SGEMM9_A6000>(SGEMM_ARGS);
template __global__ void sgemm9<SGEMM9_A100>(SGEMM_ARGS);
template __global__ void sgemm10<SGEMM10_A6000>(SGEMM_ARGS);
template __global__ void sgemm10<SGEMM10_A100>(SGEMM_ARGS);
template __global__ void sgemm11<SGEMM11_A6000>(SGEMM_ARGS);
template __global__ void sgemm11<SGEMM11_A100>(SGEMM_ARGS);
