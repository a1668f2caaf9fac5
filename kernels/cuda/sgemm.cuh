// sgemm.cuh -- the SGEMM kernel progression of Simon Boehm's article
// "How to Optimize a CUDA Matmul Kernel for cuBLAS-like Performance"
// (kernels 1-11), written for smsim from the article's algorithm
// descriptions and the parameters recorded in shared/data/README.md sec. 1.
//
// Every kernel computes  C = alpha * A * B + beta * C  with row-major
// A (M x K), B (K x N), C (M x N), and has the signature
//   (int M, int N, int K, float alpha, const float *A, const float *B,
//    float beta, float *C).
// Templated kernels take their tile sizes as template parameters so that
// both the A6000 parameter set (what the article's runner launches) and the
// A100 set of kernels 9-11 instantiate from the same source; the parameter
// sets are the SGEMM*_A6000 / SGEMM*_A100 macros below.
//
// As in the article, kernels 1 and 2 guard their single output element
// with `if (row < M && col < N)`; kernels 3-11 have NO bounds checks and
// only support sizes that are multiples of their tiles (listed per kernel).
// Kernels 6-11 additionally use float4 accesses, which need N and K to be
// multiples of 4 and 16-byte aligned buffers (cudaMalloc gives 256 B).
//
// Index types follow the article's code (siboehm/SGEMM_CUDA), because they
// change what nvcc makes of the kernels: M, N, K are int, but the thread,
// block and tile indices and the loop counters are unsigned (the article's
// `uint`), so index arithmetic is unsigned 32-bit.  As there, kernel 1's
// k-loop counter is int, kernel 2 is int throughout and kernel 3's loop
// counters are int.  With int indices ptxas gave kernel 5 160 registers on
// sm_86 instead of 128 (one block per A6000 SM instead of two); see
// README.md "Registers".  No index is ever negative: every offset is a sum
// of products of non-negative indices, and M, N, K >= 1.
//
// smsim kernel ids: sgemm-1 .. sgemm-11 (`smsim run --kernel sgemm-N`).
#pragma once

#include <cuda_runtime.h>

#define SGEMM_CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

// ---------------------------------------------------------------------------
// Parameter sets (template argument lists).
// ---------------------------------------------------------------------------
#define SGEMM2_PARAMS        32                          // BLOCKSIZE
#define SGEMM3_PARAMS        32                          // BLOCKSIZE
#define SGEMM4_PARAMS        64, 64, 8, 8                // BM, BN, BK, TM
#define SGEMM5_PARAMS        128, 128, 8, 8, 8           // BM, BN, BK, TM, TN
#define SGEMM6_PARAMS        128, 128, 8, 8, 8
#define SGEMM7_PARAMS        128, 128, 8, 8, 8
#define SGEMM8_PARAMS        128, 128, 8, 8, 8, 5        // ..., EXTRA_COLS
#define SGEMM9_A6000         128, 128, 16, 8, 8          // BM, BN, BK, TM, TN
#define SGEMM9_A100          64, 64, 16, 4, 4
//                           BM, BN, BK, WM, WN, WNITER, TM, TN, NUM_THREADS
#define SGEMM10_A6000        128, 128, 16, 64, 64, 4, 8, 4, 128
#define SGEMM10_A100         64, 128, 16, 32, 64, 1, 4, 4, 128
#define SGEMM11_A6000        128, 256, 16, 128, 32, 1, 8, 8, 256
#define SGEMM11_A100         64, 128, 16, 32, 32, 2, 4, 4, 256

#define SGEMM9_NUM_THREADS   256
#define SGEMM_WARPSIZE       32

// ===========================================================================
// Kernel 1: naive.
// One thread per C element.  x = blockIdx.x*32 + threadIdx.x indexes the
// ROW of C, so the 32 threads of a warp walk 32 different rows: A is read
// with stride K (uncoalesced), B is a broadcast, C is written with stride N.
// Launch: block (32, 32) = 1024 threads; grid (ceil(M/32), ceil(N/32));
//         static smem 0.
// Supported: any M, N, K >= 1 (bounds-checked).
// ===========================================================================
__global__ void sgemm1(int M, int N, int K, float alpha, const float *A,
                       const float *B, float beta, float *C)
{
    const unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned col = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}

// ===========================================================================
// Kernel 2: global memory coalescing.
// 1-D block of BLOCKSIZE^2 threads; consecutive threads take consecutive
// columns of one C row, so a warp reads one row of B contiguously (and the
// A element is a broadcast).
// Launch: block BLOCKSIZE*BLOCKSIZE = 1024 threads (1-D);
//         grid (ceil(M/32), ceil(N/32)); static smem 0.
// Supported: any M, N, K >= 1 (bounds-checked).
// ===========================================================================
template <int BLOCKSIZE>
__global__ void sgemm2(int M, int N, int K, float alpha, const float *A,
                       const float *B, float beta, float *C)
{
    const int row = blockIdx.x * BLOCKSIZE + threadIdx.x / BLOCKSIZE;
    const int col = blockIdx.y * BLOCKSIZE + threadIdx.x % BLOCKSIZE;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = alpha * acc + beta * C[row * N + col];
    }
}

// ===========================================================================
// Kernel 3: shared-memory cache blocking.
// BLOCKSIZE x BLOCKSIZE tiles of A and B are staged in shared memory; each
// thread loads one element of each tile, then accumulates a BLOCKSIZE-long
// dot product from shared memory.  blockIdx.x selects the block row of C,
// blockIdx.y the block column.  The harness sets the carveout to
// cudaSharedmemCarveoutMaxShared, as the article does.
// Launch: block BLOCKSIZE^2 = 1024 threads (1-D); grid (M/32, N/32);
//         static smem 2 * 32*32 * 4 = 8192 B.
// Supported: M, N, K multiples of 32.
// ===========================================================================
template <int BLOCKSIZE>
__global__ void sgemm3(int M, int N, int K, float alpha, const float *A,
                       const float *B, float beta, float *C)
{
    __shared__ float As[BLOCKSIZE * BLOCKSIZE];
    __shared__ float Bs[BLOCKSIZE * BLOCKSIZE];

    const unsigned tRow = threadIdx.x / BLOCKSIZE;
    const unsigned tCol = threadIdx.x % BLOCKSIZE;

    A += blockIdx.x * BLOCKSIZE * K;
    B += blockIdx.y * BLOCKSIZE;
    C += blockIdx.x * BLOCKSIZE * N + blockIdx.y * BLOCKSIZE;

    float acc = 0.0f;
    for (int bk = 0; bk < K; bk += BLOCKSIZE) {
        As[tRow * BLOCKSIZE + tCol] = A[tRow * K + tCol];
        Bs[tRow * BLOCKSIZE + tCol] = B[tRow * N + tCol];
        __syncthreads();
        A += BLOCKSIZE;
        B += BLOCKSIZE * N;

#pragma unroll
        for (int k = 0; k < BLOCKSIZE; ++k)
            acc += As[tRow * BLOCKSIZE + k] * Bs[k * BLOCKSIZE + tCol];
        __syncthreads();
    }
    C[tRow * N + tCol] = alpha * acc + beta * C[tRow * N + tCol];
}

// ===========================================================================
// Kernel 4: 1-D blocktiling.
// A block computes a BM x BN tile of C; each thread computes TM results in
// one column.  Per BK-step every thread loads one element of the A tile and
// one of the B tile (BM*BK == BN*BK == thread count), then for each k reads
// one B value and TM A values from shared memory.
// Launch: block BM*BN/TM = 512 threads (1-D); grid (N/BN, M/BM) = (N/64, M/64);
//         static smem (BM*BK + BK*BN) * 4 = 4096 B.
// Supported: M, N multiples of 64; K multiple of 8.
// ===========================================================================
template <int BM, int BN, int BK, int TM>
__global__ void sgemm4(int M, int N, int K, float alpha, const float *A,
                       const float *B, float beta, float *C)
{
    constexpr int NT = BM * BN / TM;
    static_assert(BM * BK == NT && BN * BK == NT,
                  "kernel 4 loads exactly one A and one B element per thread");

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned tCol = threadIdx.x % BN;     // column of C inside the tile
    const unsigned tRow = threadIdx.x / BN;     // group of TM rows

    const unsigned aRow = threadIdx.x / BK, aCol = threadIdx.x % BK;
    const unsigned bRow = threadIdx.x / BN, bCol = threadIdx.x % BN;

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float acc[TM] = {0.0f};
    for (unsigned bk = 0; bk < K; bk += BK) {
        As[aRow * BK + aCol] = A[aRow * K + aCol];
        Bs[bRow * BN + bCol] = B[bRow * N + bCol];
        __syncthreads();
        A += BK;
        B += BK * N;

#pragma unroll
        for (unsigned k = 0; k < BK; ++k) {
            const float b = Bs[k * BN + tCol];
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
                acc[i] += As[(tRow * TM + i) * BK + k] * b;
        }
        __syncthreads();
    }
#pragma unroll
    for (unsigned i = 0; i < TM; ++i) {
        float *c = &C[(tRow * TM + i) * N + tCol];
        *c = alpha * acc[i] + beta * *c;
    }
}

// ===========================================================================
// Kernel 5: 2-D blocktiling.
// Each thread computes a TM x TN sub-tile of the block's BM x BN tile as an
// outer product of TM values of A and TN values of B per k (register
// blocking).  GMEM->SMEM loads are scalar, strided over the tile.
// Launch: block BM*BN/(TM*TN) = 256 threads; grid (N/128, M/128);
//         static smem (BM*BK + BK*BN) * 4 = 8192 B.
// Supported: M, N multiples of 128; K multiple of 8.
// ===========================================================================
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
sgemm5(int M, int N, int K, float alpha, const float *A, const float *B,
       float beta, float *C)
{
    constexpr int NT = BM * BN / (TM * TN);
    constexpr int STRIDE_A = NT / BK;           // rows of A tile per pass
    constexpr int STRIDE_B = NT / BN;           // rows of B tile per pass
    static_assert(NT % BK == 0 && NT % BN == 0, "tile/thread mismatch");

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned tCol = threadIdx.x % (BN / TN);
    const unsigned tRow = threadIdx.x / (BN / TN);

    const unsigned aRow = threadIdx.x / BK, aCol = threadIdx.x % BK;
    const unsigned bRow = threadIdx.x / BN, bCol = threadIdx.x % BN;

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float acc[TM * TN] = {0.0f};
    float regM[TM];
    float regN[TN];

    for (unsigned bk = 0; bk < K; bk += BK) {
#pragma unroll
        for (unsigned r = 0; r < BM; r += STRIDE_A)
            As[(aRow + r) * BK + aCol] = A[(aRow + r) * K + aCol];
#pragma unroll
        for (unsigned r = 0; r < BK; r += STRIDE_B)
            Bs[(bRow + r) * BN + bCol] = B[(bRow + r) * N + bCol];
        __syncthreads();
        A += BK;
        B += BK * N;

#pragma unroll
        for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
                regM[i] = As[(tRow * TM + i) * BK + k];
#pragma unroll
            for (unsigned j = 0; j < TN; ++j)
                regN[j] = Bs[k * BN + tCol * TN + j];
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
#pragma unroll
                for (unsigned j = 0; j < TN; ++j)
                    acc[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (unsigned i = 0; i < TM; ++i)
#pragma unroll
        for (unsigned j = 0; j < TN; ++j) {
            float *c = &C[(tRow * TM + i) * N + tCol * TN + j];
            *c = alpha * acc[i * TN + j] + beta * *c;
        }
}

// ---------------------------------------------------------------------------
// Shared pieces of kernels 6-11.
// ---------------------------------------------------------------------------

// float4 load of A[row][col4*4 .. +3], stored transposed into As (k-major,
// As[k * BM + m]) so that the compute loop reads TM consecutive m values.
template <int BM>
__device__ __forceinline__ void store_a_transposed(float *As, float4 t, unsigned row, unsigned col4)
{
    As[(col4 * 4 + 0) * BM + row] = t.x;
    As[(col4 * 4 + 1) * BM + row] = t.y;
    As[(col4 * 4 + 2) * BM + row] = t.z;
    As[(col4 * 4 + 3) * BM + row] = t.w;
}

__device__ __forceinline__ float4 ldg4(const float *p)
{
    return reinterpret_cast<const float4 *>(p)[0];
}

// Epilogue of kernels 6-9: the thread's TM x TN results (acc) are combined
// with C through float4 loads and stores.  `c` points at the thread's first
// element; rows are N apart.
template <int TM, int TN, int LD>
__device__ __forceinline__ void epilogue_vec4(float *c, int N, float alpha, float beta,
                                              const float *acc)
{
#pragma unroll
    for (unsigned i = 0; i < TM; ++i)
#pragma unroll
        for (unsigned j = 0; j < TN; j += 4) {
            float4 *p = reinterpret_cast<float4 *>(&c[i * N + j]);
            float4 v = *p;
            v.x = alpha * acc[i * LD + j + 0] + beta * v.x;
            v.y = alpha * acc[i * LD + j + 1] + beta * v.y;
            v.z = alpha * acc[i * LD + j + 2] + beta * v.z;
            v.w = alpha * acc[i * LD + j + 3] + beta * v.w;
            *p = v;
        }
}

// ===========================================================================
// Kernel 6: vectorized memory access.
// As kernel 5, but GMEM->SMEM loads are float4 (LDG.E.128); the A tile is
// stored transposed (As[k*BM + m]) so that both tiles are read with 128-bit
// shared loads in the compute loop; the C epilogue uses float4.
// Launch: block 256 threads; grid (N/128, M/128); static smem 8192 B.
// Supported: M, N multiples of 128; K multiple of 8.
// ===========================================================================
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
sgemm6(int M, int N, int K, float alpha, const float *A, const float *B,
       float beta, float *C)
{
    constexpr int NT = BM * BN / (TM * TN);
    constexpr int STRIDE_A = NT / (BK / 4);
    constexpr int STRIDE_B = NT / (BN / 4);

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned tCol = threadIdx.x % (BN / TN);
    const unsigned tRow = threadIdx.x / (BN / TN);

    const unsigned aRow = threadIdx.x / (BK / 4), aCol4 = threadIdx.x % (BK / 4);
    const unsigned bRow = threadIdx.x / (BN / 4), bCol4 = threadIdx.x % (BN / 4);

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float acc[TM * TN] = {0.0f};
    float regM[TM];
    float regN[TN];

    for (unsigned bk = 0; bk < K; bk += BK) {
#pragma unroll
        for (unsigned r = 0; r < BM; r += STRIDE_A)
            store_a_transposed<BM>(As, ldg4(&A[(aRow + r) * K + aCol4 * 4]), aRow + r, aCol4);
#pragma unroll
        for (unsigned r = 0; r < BK; r += STRIDE_B)
            reinterpret_cast<float4 *>(&Bs[(bRow + r) * BN + bCol4 * 4])[0] =
                ldg4(&B[(bRow + r) * N + bCol4 * 4]);
        __syncthreads();
        A += BK;
        B += BK * N;

#pragma unroll
        for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
                regM[i] = As[k * BM + tRow * TM + i];
#pragma unroll
            for (unsigned j = 0; j < TN; ++j)
                regN[j] = Bs[k * BN + tCol * TN + j];
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
#pragma unroll
                for (unsigned j = 0; j < TN; ++j)
                    acc[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }
    epilogue_vec4<TM, TN, TN>(&C[(tRow * TM) * N + tCol * TN], N, alpha, beta, acc);
}

// ===========================================================================
// Kernel 7: avoid shared-memory bank conflicts by linearizing Bs.
// As kernel 6, but element (k, n) of the B tile is stored at
//   Bs[(k*TN + n%TN) * (BN/TN) + n/TN]
// (for BN=128, TN=8: (k*8 + i)*16 + threadCol, i = n%8), so that for a
// fixed (k, i) the 16 thread columns read 16 consecutive words.  B is
// therefore written with 4 scalar STS and read with TN scalar LDS per k.
// Launch: block 256 threads; grid (N/128, M/128); static smem 8192 B.
// Supported: M, N multiples of 128; K multiple of 8.
// ===========================================================================
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
sgemm7(int M, int N, int K, float alpha, const float *A, const float *B,
       float beta, float *C)
{
    constexpr int NT = BM * BN / (TM * TN);
    constexpr int STRIDE_A = NT / (BK / 4);
    constexpr int STRIDE_B = NT / (BN / 4);
    constexpr int TCOLS = BN / TN;              // thread columns (16)
    static_assert(TN % 4 == 0, "a float4 of B must stay inside one thread column");

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned tCol = threadIdx.x % TCOLS;
    const unsigned tRow = threadIdx.x / TCOLS;

    const unsigned aRow = threadIdx.x / (BK / 4), aCol4 = threadIdx.x % (BK / 4);
    const unsigned bRow = threadIdx.x / (BN / 4), bCol4 = threadIdx.x % (BN / 4);
    // the float4 (bRow, bCol4*4 .. +3) belongs to thread column bCol4/(TN/4)
    // at positions i = (bCol4 % (TN/4))*4 + 0..3
    const unsigned bTc = bCol4 / (TN / 4);
    const unsigned bI = (bCol4 % (TN / 4)) * 4;

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float acc[TM * TN] = {0.0f};
    float regM[TM];
    float regN[TN];

    for (unsigned bk = 0; bk < K; bk += BK) {
#pragma unroll
        for (unsigned r = 0; r < BM; r += STRIDE_A)
            store_a_transposed<BM>(As, ldg4(&A[(aRow + r) * K + aCol4 * 4]), aRow + r, aCol4);
#pragma unroll
        for (unsigned r = 0; r < BK; r += STRIDE_B) {
            const float4 t = ldg4(&B[(bRow + r) * N + bCol4 * 4]);
            Bs[((bRow + r) * TN + bI + 0) * TCOLS + bTc] = t.x;
            Bs[((bRow + r) * TN + bI + 1) * TCOLS + bTc] = t.y;
            Bs[((bRow + r) * TN + bI + 2) * TCOLS + bTc] = t.z;
            Bs[((bRow + r) * TN + bI + 3) * TCOLS + bTc] = t.w;
        }
        __syncthreads();
        A += BK;
        B += BK * N;

#pragma unroll
        for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
                regM[i] = As[k * BM + tRow * TM + i];
#pragma unroll
            for (unsigned j = 0; j < TN; ++j)
                regN[j] = Bs[(k * TN + j) * TCOLS + tCol];
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
#pragma unroll
                for (unsigned j = 0; j < TN; ++j)
                    acc[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }
    epilogue_vec4<TM, TN, TN>(&C[(tRow * TM) * N + tCol * TN], N, alpha, beta, acc);
}

// ===========================================================================
// Kernel 8: avoid shared-memory bank conflicts by padding Bs.
// As kernel 6, but every row of the B tile is padded by EXTRA_COLS (5)
// floats: Bs[BK * (BN + 5)], written and read with 32-bit accesses in the
// source (the compiler may merge the reads where alignment allows).
// Launch: block 256 threads; grid (N/128, M/128);
//         static smem (BM*BK + BK*(BN+5)) * 4 = 8352 B.
// Supported: M, N multiples of 128; K multiple of 8.
// ===========================================================================
template <int BM, int BN, int BK, int TM, int TN, int EXTRA_COLS>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
sgemm8(int M, int N, int K, float alpha, const float *A, const float *B,
       float beta, float *C)
{
    constexpr int NT = BM * BN / (TM * TN);
    constexpr int STRIDE_A = NT / (BK / 4);
    constexpr int STRIDE_B = NT / (BN / 4);
    constexpr int LDB = BN + EXTRA_COLS;

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * LDB];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned tCol = threadIdx.x % (BN / TN);
    const unsigned tRow = threadIdx.x / (BN / TN);

    const unsigned aRow = threadIdx.x / (BK / 4), aCol4 = threadIdx.x % (BK / 4);
    const unsigned bRow = threadIdx.x / (BN / 4), bCol4 = threadIdx.x % (BN / 4);

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float acc[TM * TN] = {0.0f};
    float regM[TM];
    float regN[TN];

    for (unsigned bk = 0; bk < K; bk += BK) {
#pragma unroll
        for (unsigned r = 0; r < BM; r += STRIDE_A)
            store_a_transposed<BM>(As, ldg4(&A[(aRow + r) * K + aCol4 * 4]), aRow + r, aCol4);
#pragma unroll
        for (unsigned r = 0; r < BK; r += STRIDE_B) {
            const float4 t = ldg4(&B[(bRow + r) * N + bCol4 * 4]);
            float *dst = &Bs[(bRow + r) * LDB + bCol4 * 4];
            dst[0] = t.x;
            dst[1] = t.y;
            dst[2] = t.z;
            dst[3] = t.w;
        }
        __syncthreads();
        A += BK;
        B += BK * N;

#pragma unroll
        for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
                regM[i] = As[k * BM + tRow * TM + i];
#pragma unroll
            for (unsigned j = 0; j < TN; ++j)
                regN[j] = Bs[k * LDB + tCol * TN + j];
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
#pragma unroll
                for (unsigned j = 0; j < TN; ++j)
                    acc[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }
    epilogue_vec4<TM, TN, TN>(&C[(tRow * TM) * N + tCol * TN], N, alpha, beta, acc);
}

// GMEM -> SMEM copy of one BM x BK tile of A (transposed into As) and one
// BK x BN tile of B (into Bs) with float4 loads, by the threads whose load
// coordinates are (aRow, aCol4) / (bRow, bCol4); kernels 9-11.
template <int BM, int BN, int BK, int STRIDE_A, int STRIDE_B>
__device__ __forceinline__ void load_tiles_vec4(int N, int K, const float *A, const float *B,
                                                float *As, float *Bs, unsigned aRow, unsigned aCol4,
                                                unsigned bRow, unsigned bCol4)
{
#pragma unroll
    for (unsigned r = 0; r < BM; r += STRIDE_A)
        store_a_transposed<BM>(As, ldg4(&A[(aRow + r) * K + aCol4 * 4]), aRow + r, aCol4);
#pragma unroll
    for (unsigned r = 0; r < BK; r += STRIDE_B)
        reinterpret_cast<float4 *>(&Bs[(bRow + r) * BN + bCol4 * 4])[0] =
            ldg4(&B[(bRow + r) * N + bCol4 * 4]);
}

// ===========================================================================
// Kernel 9: autotuned blocktiling (kernel 6 with tuned tile sizes).
// 256 threads arranged 16 x 16; a thread owns WMITER x WNITER sub-tiles of
// TM x TN results, WM = 16*TM and WN = 16*TN apart (WMITER = BM/WM,
// WNITER = BN/WN; both 1 for the two parameter sets used here).  Each
// thread loads BM*BK/(4*256) float4 of A and BK*BN/(4*256) float4 of B
// per tile.
// A6000 set (SGEMM9_A6000: BM=BN=128, BK=16, TM=TN=8):
//   block 256; grid (N/128, M/128); static smem (128*16 + 16*128)*4 = 16384 B;
//   supported: M, N multiples of 128, K multiple of 16.
// A100 set (SGEMM9_A100: BM=BN=64, BK=16, TM=TN=4):
//   block 256; grid (N/64, M/64); static smem (64*16 + 16*64)*4 = 8192 B;
//   supported: M, N multiples of 64, K multiple of 16.
// ===========================================================================
template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(SGEMM9_NUM_THREADS, 1)
sgemm9(int M, int N, int K, float alpha, const float *A, const float *B,
       float beta, float *C)
{
    constexpr int NT = SGEMM9_NUM_THREADS;
    constexpr int WM = TM * 16;
    constexpr int WN = TN * 16;
    constexpr int WMITER = SGEMM_CEIL_DIV(BM, WM);
    constexpr int WNITER = SGEMM_CEIL_DIV(BN, WN);
    constexpr int STRIDE_A = NT * 4 / BK;
    constexpr int STRIDE_B = NT / (BN / 4);
    static_assert(BM * BN == NT * TM * TN * WMITER * WNITER, "256 threads must cover the tile");

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned tCol = threadIdx.x % (WN / TN);
    const unsigned tRow = threadIdx.x / (WN / TN);

    const unsigned aRow = threadIdx.x / (BK / 4), aCol4 = threadIdx.x % (BK / 4);
    const unsigned bRow = threadIdx.x / (BN / 4), bCol4 = threadIdx.x % (BN / 4);

    A += cRow * BM * K;
    B += cCol * BN;
    C += cRow * BM * N + cCol * BN;

    float acc[WMITER * TM * WNITER * TN] = {0.0f};
    float regM[WMITER * TM];
    float regN[WNITER * TN];

    for (unsigned bk = 0; bk < K; bk += BK) {
        load_tiles_vec4<BM, BN, BK, STRIDE_A, STRIDE_B>(N, K, A, B, As, Bs, aRow, aCol4,
                                                        bRow, bCol4);
        __syncthreads();
        A += BK;
        B += BK * N;

#pragma unroll
        for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
            for (unsigned wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (unsigned i = 0; i < TM; ++i)
                    regM[wm * TM + i] = As[k * BM + wm * WM + tRow * TM + i];
#pragma unroll
            for (unsigned wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (unsigned j = 0; j < TN; ++j)
                    regN[wn * TN + j] = Bs[k * BN + wn * WN + tCol * TN + j];
#pragma unroll
            for (unsigned wm = 0; wm < WMITER; ++wm)
#pragma unroll
                for (unsigned wn = 0; wn < WNITER; ++wn)
#pragma unroll
                    for (unsigned i = 0; i < TM; ++i)
#pragma unroll
                        for (unsigned j = 0; j < TN; ++j)
                            acc[(wm * TM + i) * (WNITER * TN) + wn * TN + j] +=
                                regM[wm * TM + i] * regN[wn * TN + j];
        }
        __syncthreads();
    }

#pragma unroll
    for (unsigned wm = 0; wm < WMITER; ++wm)
#pragma unroll
        for (unsigned wn = 0; wn < WNITER; ++wn)
            epilogue_vec4<TM, TN, WNITER * TN>(
                &C[(wm * WM + tRow * TM) * N + wn * WN + tCol * TN], N, alpha, beta,
                &acc[(wm * TM) * (WNITER * TN) + wn * TN]);
}

// ---------------------------------------------------------------------------
// Warptiling pieces (kernels 10 and 11).
// A warp owns a WM x WN tile of C, split into WMITER x WNITER sub-tiles of
// WSUBM x WSUBN; inside a sub-tile a lane owns TM x TN results at
// (tRowW*TM, tColW*TN).
// ---------------------------------------------------------------------------
template <int BM, int BN, int BK, int WM, int WN, int WMITER, int WNITER, int TM, int TN>
__device__ __forceinline__ void warptile_compute(float *regM, float *regN, float *acc,
                                                 const float *As, const float *Bs,
                                                 unsigned warpRow, unsigned warpCol, unsigned tRowW,
                                                 unsigned tColW)
{
    constexpr int WSUBM = WM / WMITER;
    constexpr int WSUBN = WN / WNITER;
#pragma unroll
    for (unsigned k = 0; k < BK; ++k) {
#pragma unroll
        for (unsigned wm = 0; wm < WMITER; ++wm)
#pragma unroll
            for (unsigned i = 0; i < TM; ++i)
                regM[wm * TM + i] = As[k * BM + warpRow * WM + wm * WSUBM + tRowW * TM + i];
#pragma unroll
        for (unsigned wn = 0; wn < WNITER; ++wn)
#pragma unroll
            for (unsigned j = 0; j < TN; ++j)
                regN[wn * TN + j] = Bs[k * BN + warpCol * WN + wn * WSUBN + tColW * TN + j];
#pragma unroll
        for (unsigned wm = 0; wm < WMITER; ++wm)
#pragma unroll
            for (unsigned wn = 0; wn < WNITER; ++wn)
#pragma unroll
                for (unsigned i = 0; i < TM; ++i)
#pragma unroll
                    for (unsigned j = 0; j < TN; ++j)
                        acc[(wm * TM + i) * (WNITER * TN) + wn * TN + j] +=
                            regM[wm * TM + i] * regN[wn * TN + j];
    }
}

// `Cw` points at the warp's WM x WN tile of C.
template <int WM, int WN, int WMITER, int WNITER, int TM, int TN>
__device__ __forceinline__ void warptile_epilogue(float *Cw, int N, float alpha, float beta,
                                                  const float *acc, unsigned tRowW, unsigned tColW)
{
    constexpr int WSUBM = WM / WMITER;
    constexpr int WSUBN = WN / WNITER;
#pragma unroll
    for (unsigned wm = 0; wm < WMITER; ++wm)
#pragma unroll
        for (unsigned wn = 0; wn < WNITER; ++wn)
            epilogue_vec4<TM, TN, WNITER * TN>(
                &Cw[(wm * WSUBM + tRowW * TM) * N + wn * WSUBN + tColW * TN], N, alpha, beta,
                &acc[(wm * TM) * (WNITER * TN) + wn * TN]);
}

// ===========================================================================
// Kernel 10: warptiling.
// NUM_THREADS/32 warps tile the block as (BM/WM) x (BN/WN); loads as in
// kernel 9 (float4, A transposed), compute per warp tile.
//   WMITER = WM*WN / (32*TM*TN*WNITER), WSUBM = WM/WMITER, WSUBN = WN/WNITER.
// A6000 set (SGEMM10_A6000: BM=BN=128, BK=16, WM=WN=64, WNITER=4, TM=8, TN=4,
//   128 threads -> 2x2 warps, WMITER=1, WSUBM=64, WSUBN=16):
//   block 128; grid (N/128, M/128); static smem (128*16 + 16*128)*4 = 16384 B;
//   supported: M, N multiples of 128, K multiple of 16.
// A100 set (SGEMM10_A100: BM=64, BN=128, BK=16, WM=32, WN=64, WNITER=1,
//   TM=TN=4, 128 threads -> 2x2 warps, WMITER=4, WSUBM=8, WSUBN=64):
//   block 128; grid (N/128, M/64); static smem (64*16 + 16*128)*4 = 12288 B;
//   supported: M multiple of 64, N multiple of 128, K multiple of 16.
// ===========================================================================
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NUM_THREADS>
__global__ void __launch_bounds__(NUM_THREADS)
sgemm10(int M, int N, int K, float alpha, const float *A, const float *B,
        float beta, float *C)
{
    constexpr int NWARPS = NUM_THREADS / SGEMM_WARPSIZE;
    constexpr int WMITER = (WM * WN) / (SGEMM_WARPSIZE * TM * TN * WNITER);
    constexpr int WSUBN = WN / WNITER;
    constexpr int STRIDE_A = NUM_THREADS * 4 / BK;
    constexpr int STRIDE_B = NUM_THREADS / (BN / 4);
    static_assert((BM / WM) * (BN / WN) == NWARPS, "warps must tile the block");
    static_assert(WMITER * WNITER * TM * TN * SGEMM_WARPSIZE == WM * WN, "lanes must tile the warp");

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned warp = threadIdx.x / SGEMM_WARPSIZE;
    const unsigned warpCol = warp % (BN / WN);
    const unsigned warpRow = warp / (BN / WN);
    // lane = threadIdx.x % 32; tColW = lane % (WSUBN/TN), tRowW = lane / (WSUBN/TN).
    // tRowW is written as (threadIdx.x / (WSUBN/TN)) % (32 / (WSUBN/TN)), the
    // same value, because with that form ptxas can prove the 16-byte
    // alignment of the As reads and merges them into LDS.128 also for the
    // A100 parameter set (with lane / (WSUBN/TN) it emits scalar LDS there).
    const unsigned tColW = threadIdx.x % (WSUBN / TN);
    const unsigned tRowW = (threadIdx.x / (WSUBN / TN)) % (SGEMM_WARPSIZE / (WSUBN / TN));

    const unsigned aRow = threadIdx.x / (BK / 4), aCol4 = threadIdx.x % (BK / 4);
    const unsigned bRow = threadIdx.x / (BN / 4), bCol4 = threadIdx.x % (BN / 4);

    A += cRow * BM * K;
    B += cCol * BN;
    C += (cRow * BM + warpRow * WM) * N + cCol * BN + warpCol * WN;

    float acc[WMITER * TM * WNITER * TN] = {0.0f};
    float regM[WMITER * TM];
    float regN[WNITER * TN];

    for (unsigned bk = 0; bk < K; bk += BK) {
        load_tiles_vec4<BM, BN, BK, STRIDE_A, STRIDE_B>(N, K, A, B, As, Bs, aRow, aCol4,
                                                        bRow, bCol4);
        __syncthreads();
        warptile_compute<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>(
            regM, regN, acc, As, Bs, warpRow, warpCol, tRowW, tColW);
        A += BK;
        B += BK * N;
        __syncthreads();
    }
    warptile_epilogue<WM, WN, WMITER, WNITER, TM, TN>(C, N, alpha, beta, acc, tRowW, tColW);
}

// ===========================================================================
// Kernel 11: double buffering.
// Warptiling as kernel 10 over two shared-memory stages.  Threads
// [0, NUM_THREADS/2) load the even BK-slices of K into stage 0 and threads
// [NUM_THREADS/2, NUM_THREADS) the odd slices into stage 1, each half
// moving a whole BM x BK + BK x BN tile pair; the k-loop steps by 2*BK:
//   prologue: half 0 loads slice 0 -> stage 0, half 1 slice 1 -> stage 1; sync
//   loop:     all compute stage 0; sync;
//             half 0 loads slice +2 -> stage 0; all compute stage 1; sync;
//             half 1 loads slice +3 -> stage 1
// so a stage is refilled by one half while the block computes on the other.
// Three barriers in the code: one after the prologue, two per 2*BK step.
// A6000 set (SGEMM11_A6000: BM=128, BN=256, BK=16, WM=128, WN=32, WNITER=1,
//   TM=TN=8, 256 threads = 8 warps along N, WMITER=2, WSUBM=64, WSUBN=32):
//   block 256; grid (N/256, M/128);
//   static smem 2 * (128*16 + 16*256) * 4 = 49152 B;
//   supported: M multiple of 128, N multiple of 256, K multiple of 16.
// A100 set (SGEMM11_A100: BM=64, BN=128, BK=16, WM=32, WN=32, WNITER=2,
//   TM=TN=4, 256 threads = 2x4 warps, WMITER=1, WSUBM=32, WSUBN=16):
//   block 256; grid (N/128, M/64); static smem 2 * (64*16 + 16*128) * 4 = 24576 B;
//   supported: M multiple of 64, N multiple of 128, K multiple of 16.
// ===========================================================================
template <int BM, int BN, int BK, int WM, int WN, int WNITER, int TM, int TN, int NUM_THREADS>
__global__ void __launch_bounds__(NUM_THREADS)
sgemm11(int M, int N, int K, float alpha, const float *A, const float *B,
        float beta, float *C)
{
    constexpr int NWARPS = NUM_THREADS / SGEMM_WARPSIZE;
    constexpr int WMITER = (WM * WN) / (SGEMM_WARPSIZE * TM * TN * WNITER);
    constexpr int WSUBN = WN / WNITER;
    constexpr int HALF = NUM_THREADS / 2;
    constexpr int STRIDE_A = HALF * 4 / BK;
    constexpr int STRIDE_B = HALF / (BN / 4);
    constexpr int A_STAGE = BM * BK;
    constexpr int B_STAGE = BK * BN;
    static_assert((BM / WM) * (BN / WN) == NWARPS, "warps must tile the block");
    static_assert(WMITER * WNITER * TM * TN * SGEMM_WARPSIZE == WM * WN, "lanes must tile the warp");

    __shared__ float As[2 * A_STAGE];
    __shared__ float Bs[2 * B_STAGE];

    const unsigned cRow = blockIdx.y;
    const unsigned cCol = blockIdx.x;
    const unsigned warp = threadIdx.x / SGEMM_WARPSIZE;
    const unsigned warpCol = warp % (BN / WN);
    const unsigned warpRow = warp / (BN / WN);
    // lane = threadIdx.x % 32; tColW = lane % (WSUBN/TN), tRowW = lane / (WSUBN/TN).
    // tRowW is written as (threadIdx.x / (WSUBN/TN)) % (32 / (WSUBN/TN)), the
    // same value, because with that form ptxas can prove the 16-byte
    // alignment of the As reads and merges them into LDS.128 also for the
    // A100 parameter set (with lane / (WSUBN/TN) it emits scalar LDS there).
    const unsigned tColW = threadIdx.x % (WSUBN / TN);
    const unsigned tRowW = (threadIdx.x / (WSUBN / TN)) % (SGEMM_WARPSIZE / (WSUBN / TN));

    // loader half: 0 = even slices / stage 0, 1 = odd slices / stage 1
    const bool oddLoader = threadIdx.x >= HALF;
    const unsigned lt = threadIdx.x % HALF;
    const unsigned aRow = lt / (BK / 4), aCol4 = lt % (BK / 4);
    const unsigned bRow = lt / (BN / 4), bCol4 = lt % (BN / 4);

    A += cRow * BM * K;
    B += cCol * BN;
    C += (cRow * BM + warpRow * WM) * N + cCol * BN + warpCol * WN;

    float acc[WMITER * TM * WNITER * TN] = {0.0f};
    float regM[WMITER * TM];
    float regN[WNITER * TN];

    if (!oddLoader)
        load_tiles_vec4<BM, BN, BK, STRIDE_A, STRIDE_B>(N, K, A, B, As, Bs, aRow, aCol4,
                                                        bRow, bCol4);
    else if (BK < K)
        load_tiles_vec4<BM, BN, BK, STRIDE_A, STRIDE_B>(N, K, A + BK, B + BK * N, As + A_STAGE,
                                                        Bs + B_STAGE, aRow, aCol4, bRow, bCol4);
    __syncthreads();

    for (unsigned bk = 0; bk < K; bk += 2 * BK) {
        // stage 0 holds slice bk
        warptile_compute<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>(
            regM, regN, acc, As, Bs, warpRow, warpCol, tRowW, tColW);
        __syncthreads();
        if (!oddLoader && bk + 2 * BK < K)
            load_tiles_vec4<BM, BN, BK, STRIDE_A, STRIDE_B>(N, K, A + 2 * BK, B + 2 * BK * N, As,
                                                            Bs, aRow, aCol4, bRow, bCol4);
        // stage 1 holds slice bk + BK
        if (bk + BK < K)
            warptile_compute<BM, BN, BK, WM, WN, WMITER, WNITER, TM, TN>(
                regM, regN, acc, As + A_STAGE, Bs + B_STAGE, warpRow, warpCol, tRowW, tColW);
        __syncthreads();
        if (oddLoader && bk + 3 * BK < K)
            load_tiles_vec4<BM, BN, BK, STRIDE_A, STRIDE_B>(N, K, A + 3 * BK, B + 3 * BK * N,
                                                            As + A_STAGE, Bs + B_STAGE, aRow,
                                                            aCol4, bRow, bCol4);
        A += 2 * BK;
        B += 2 * BK * N;
    }
    warptile_epilogue<WM, WN, WMITER, WNITER, TM, TN>(C, N, alpha, beta, acc, tRowW, tColW);
}
