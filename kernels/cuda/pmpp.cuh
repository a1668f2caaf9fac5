// pmpp.cuh -- tiled matrix multiplication in the style of PMPP ch. 5
// (Fig. 5.9: static shared memory; Fig. 5.14: one dynamic shared array
// split into the Mds and Nds halves).
//
// Both compute P = M x N for square, row-major Width x Width matrices
// (no alpha/beta: P is overwritten).  One thread computes one element of P.
// Like Fig. 5.9 there are no boundary checks: Width must be a multiple of
// the tile width.
//
// smsim kernel ids: pmpp-tiled (params TILE_WIDTH=8|16|32), pmpp-tiled-dyn.
#pragma once

#include <cuda_runtime.h>

// pmpp_tiled<TILE_WIDTH>
// Launch:
//   block = (TILE_WIDTH, TILE_WIDTH)             (64, 256 or 1024 threads)
//   grid  = (Width / TILE_WIDTH, Width / TILE_WIDTH)
//   static smem = 2 * TILE_WIDTH^2 * 4 B         (512 B, 2 KiB, 8 KiB)
// Supported: Width % TILE_WIDTH == 0.
template <int TILE_WIDTH>
__global__ void pmpp_tiled(const float *M, const float *N, float *P, int Width)
{
    __shared__ float Mds[TILE_WIDTH][TILE_WIDTH];
    __shared__ float Nds[TILE_WIDTH][TILE_WIDTH];

    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty;
    const int col = blockIdx.x * TILE_WIDTH + tx;

    float pvalue = 0.0f;
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        // each thread brings one element of each input tile into shared memory
        Mds[ty][tx] = M[row * Width + ph * TILE_WIDTH + tx];
        Nds[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + col];
        __syncthreads();
        for (int k = 0; k < TILE_WIDTH; ++k)
            pvalue += Mds[ty][k] * Nds[k][tx];
        __syncthreads();
    }
    P[row * Width + col] = pvalue;
}

// pmpp_tiled_dyn: the same algorithm with the tile arrays carved out of one
// dynamically sized shared array.  The tile width is the block edge
// (blockDim.x == blockDim.y); Mds_bytes and Nds_bytes are the sizes of the
// two halves, as in the book's launch
//   pmpp_tiled_dyn<<<grid, block, size>>>(M, N, P, Width, size/2, size/2).
// Launch:
//   block = (T, T), T = tile width (8, 16 or 32)
//   grid  = (Width / T, Width / T)
//   static smem = 0, dynamic smem = 2 * T^2 * 4 B  (Mds_bytes = Nds_bytes = T^2 * 4)
// Supported: Width % T == 0.
__global__ void pmpp_tiled_dyn(const float *M, const float *N, float *P, int Width,
                               unsigned Mds_bytes, unsigned Nds_bytes)
{
#ifndef SMSIM_HOST_EMULATION
    extern __shared__ float Mds_Nds[];
#else
    float *Mds_Nds = smsim_emu_dynamic_smem();   // emu/: CPU check of the kernels
#endif
    float *Mds = Mds_Nds;                                   // T x T, linearized
    float *Nds = Mds_Nds + Mds_bytes / sizeof(float);       // T x T, linearized
    (void)Nds_bytes;

    const int T = blockDim.x;
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * T + ty;
    const int col = blockIdx.x * T + tx;

    float pvalue = 0.0f;
    for (int ph = 0; ph < Width / T; ++ph) {
        Mds[ty * T + tx] = M[row * Width + ph * T + tx];
        Nds[ty * T + tx] = N[(ph * T + ty) * Width + col];
        __syncthreads();
        for (int k = 0; k < T; ++k)
            pvalue += Mds[ty * T + k] * Nds[k * T + tx];
        __syncthreads();
    }
    P[row * Width + col] = pvalue;
}
