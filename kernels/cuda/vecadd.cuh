// vecadd.cuh -- the array-add example: z = x + y, one element per thread.
//
// smsim kernel id: vecadd (params "default").
//
// Launch (n elements, any n >= 1):
//   block  = VECADD_BLOCK (128) threads, 1-D
//   grid   = ceil(n / 128) blocks, 1-D
//   static smem = 0, dynamic smem = 0
// Supported sizes: any n (the tail is guarded by `if (i < n)`).
#pragma once

#include <cuda_runtime.h>

#define VECADD_BLOCK 128

__global__ void vecadd(const float *x, const float *y, float *z, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = x[i] + y[i];
}
