// harness.cu -- timing harness for the kernels smsim models.
//
//   ./harness KERNEL SIZE [REPEATS]
//
// KERNEL  sgemm-1 .. sgemm-11 (or just 1 .. 11): the article's default
//         (A6000) parameters; sgemm-9-a100, sgemm-10-a100, sgemm-11-a100: the
//         A100 parameter sets; pmpp-tiled-8, pmpp-tiled-16, pmpp-tiled-32,
//         pmpp-tiled-dyn (tile 16; pmpp-tiled-dyn-8/-32 for the others);
//         vecadd; cublas (= sgemm-0, only when built with `make CUBLAS=1`).
// SIZE    M = N = K for the matrix kernels (<= 4096, a multiple of the
//         kernel's tile); vecadd adds SIZE*SIZE elements.
// REPEATS timed launches (default 50).
//
// Like the article's sgemm.cu: the buffers are allocated once for 4096^2
// floats and filled with random values in (-5, 5); alpha = 0.5, beta = 3.0;
// one warm-up launch (which is also the one verified, against a
// straightforward reference kernel that accumulates in double) precedes
// REPEATS back-to-back launches between two cudaEvents, and
// GFLOP/s = 2*M*N*K*REPEATS / elapsed.  C is not reset between the timed
// launches (it grows by beta = 3 per launch; past ~75 launches it reaches
// inf, which does not change the timing).  vecadd reports GB/s
// (12 bytes per element) instead.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#ifdef HARNESS_CUBLAS
#include <cublas_v2.h>
#endif

#include "host.cuh"
#include "pmpp.cuh"
#include "sgemm.cuh"
#include "vecadd.cuh"

static const int MAX_SIZE = 4096;
static const float ALPHA = 0.5f;
static const float BETA = 3.0f;

// ---------------------------------------------------------------------------
// Reference: one thread per element of C, double accumulation.
// ---------------------------------------------------------------------------
__global__ void reference_sgemm(int M, int N, int K, float alpha, const float *A,
                                const float *B, float beta, float *C)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < M && col < N) {
        double acc = 0.0;
        for (int k = 0; k < K; ++k)
            acc += (double)A[(size_t)row * K + k] * (double)B[(size_t)k * N + col];
        C[(size_t)row * N + col] = (float)((double)alpha * acc + (double)beta * C[(size_t)row * N + col]);
    }
}

static void launch_reference(int M, int N, int K, float alpha, const float *A, const float *B,
                             float beta, float *C)
{
    dim3 block(32, 8);
    dim3 grid(SGEMM_CEIL_DIV(N, 32), SGEMM_CEIL_DIV(M, 8));
    reference_sgemm<<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}

// ---------------------------------------------------------------------------
// Launch wrappers (grid/block/smem exactly as documented in the headers).
// ---------------------------------------------------------------------------
typedef void (*launch_fn)(int M, int N, int K, float alpha, const float *A, const float *B,
                          float beta, float *C);

static void run_sgemm1(int M, int N, int K, float a, const float *A, const float *B, float b,
                       float *C)
{
    sgemm1<<<dim3(SGEMM_CEIL_DIV(M, 32), SGEMM_CEIL_DIV(N, 32)), dim3(32, 32)>>>(M, N, K, a, A, B,
                                                                               b, C);
}

static void run_sgemm2(int M, int N, int K, float a, const float *A, const float *B, float b,
                       float *C)
{
    sgemm2<32><<<dim3(SGEMM_CEIL_DIV(M, 32), SGEMM_CEIL_DIV(N, 32)), dim3(32 * 32)>>>(M, N, K, a,
                                                                                    A, B, b, C);
}

static void run_sgemm3(int M, int N, int K, float a, const float *A, const float *B, float b,
                       float *C)
{
    sgemm3<32><<<dim3(M / 32, N / 32), dim3(32 * 32)>>>(M, N, K, a, A, B, b, C);
}

static void run_sgemm4(int M, int N, int K, float a, const float *A, const float *B, float b,
                       float *C)
{
    sgemm4<SGEMM4_PARAMS><<<dim3(N / 64, M / 64), dim3(64 * 64 / 8)>>>(M, N, K, a, A, B, b, C);
}

#define RUN_BLOCKTILE(name, kernel)                                                          \
    static void name(int M, int N, int K, float a, const float *A, const float *B, float b,  \
                     float *C)                                                               \
    {                                                                                        \
        kernel<<<dim3(N / 128, M / 128), dim3(256)>>>(M, N, K, a, A, B, b, C);               \
    }
RUN_BLOCKTILE(run_sgemm5, sgemm5<SGEMM5_PARAMS>)
RUN_BLOCKTILE(run_sgemm6, sgemm6<SGEMM6_PARAMS>)
RUN_BLOCKTILE(run_sgemm7, sgemm7<SGEMM7_PARAMS>)
RUN_BLOCKTILE(run_sgemm8, sgemm8<SGEMM8_PARAMS>)
RUN_BLOCKTILE(run_sgemm9, sgemm9<SGEMM9_A6000>)

static void run_sgemm9_a100(int M, int N, int K, float a, const float *A, const float *B,
                            float b, float *C)
{
    sgemm9<SGEMM9_A100><<<dim3(N / 64, M / 64), dim3(SGEMM9_NUM_THREADS)>>>(M, N, K, a, A, B, b,
                                                                           C);
}

// kernels 10 and 11: grid (N/BN, M/BM), block NUM_THREADS
static void run_sgemm10(int M, int N, int K, float a, const float *A, const float *B, float b,
                        float *C)
{
    sgemm10<SGEMM10_A6000><<<dim3(N / 128, M / 128), dim3(128)>>>(M, N, K, a, A, B, b, C);
}

static void run_sgemm10_a100(int M, int N, int K, float a, const float *A, const float *B,
                             float b, float *C)
{
    sgemm10<SGEMM10_A100><<<dim3(N / 128, M / 64), dim3(128)>>>(M, N, K, a, A, B, b, C);
}

static void run_sgemm11(int M, int N, int K, float a, const float *A, const float *B, float b,
                        float *C)
{
    sgemm11<SGEMM11_A6000><<<dim3(N / 256, M / 128), dim3(256)>>>(M, N, K, a, A, B, b, C);
}

static void run_sgemm11_a100(int M, int N, int K, float a, const float *A, const float *B,
                             float b, float *C)
{
    sgemm11<SGEMM11_A100><<<dim3(N / 128, M / 64), dim3(256)>>>(M, N, K, a, A, B, b, C);
}

#ifdef HARNESS_CUBLAS
static cublasHandle_t g_cublas;
// Row-major C = alpha*A*B + beta*C computed as column-major C^T = B^T A^T,
// FP32 in and out, FP32 compute (no TF32), as in the article's runner.
static void run_cublas(int M, int N, int K, float a, const float *A, const float *B, float b,
                       float *C)
{
    cublasStatus_t st = cublasGemmEx(g_cublas, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &a, B,
                                     CUDA_R_32F, N, A, CUDA_R_32F, K, &b, C, CUDA_R_32F, N,
                                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP);
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasGemmEx failed: %d\n", (int)st);
        exit(1);
    }
}
#endif

// PMPP kernels: P = M x N (square, Width = SIZE); alpha/beta do not apply.
template <int T>
static void run_pmpp_tiled(int W, int, int, float, const float *A, const float *B, float,
                           float *C)
{
    pmpp_tiled<T><<<dim3(W / T, W / T), dim3(T, T)>>>(A, B, C, W);
}

template <int T>
static void run_pmpp_tiled_dyn(int W, int, int, float, const float *A, const float *B, float,
                               float *C)
{
    const size_t size = 2 * T * T * sizeof(float);
    pmpp_tiled_dyn<<<dim3(W / T, W / T), dim3(T, T), size>>>(A, B, C, W, size / 2, size / 2);
}

// ---------------------------------------------------------------------------
// Kernel table
// ---------------------------------------------------------------------------
enum Kind { KIND_SGEMM, KIND_PMPP, KIND_VECADD };

struct KernelInfo {
    const char *id;       // command-line name (smsim kernel id, -a100 for the A100 set)
    const char *alias;    // alternative name or NULL
    Kind kind;
    int mult_m, mult_n, mult_k;   // SIZE must be a multiple of each
    launch_fn launch;
};

static const KernelInfo KERNELS[] = {
    {"sgemm-1", "1", KIND_SGEMM, 1, 1, 1, run_sgemm1},
    {"sgemm-2", "2", KIND_SGEMM, 1, 1, 1, run_sgemm2},
    {"sgemm-3", "3", KIND_SGEMM, 32, 32, 32, run_sgemm3},
    {"sgemm-4", "4", KIND_SGEMM, 64, 64, 8, run_sgemm4},
    {"sgemm-5", "5", KIND_SGEMM, 128, 128, 8, run_sgemm5},
    {"sgemm-6", "6", KIND_SGEMM, 128, 128, 8, run_sgemm6},
    {"sgemm-7", "7", KIND_SGEMM, 128, 128, 8, run_sgemm7},
    {"sgemm-8", "8", KIND_SGEMM, 128, 128, 8, run_sgemm8},
    {"sgemm-9", "9", KIND_SGEMM, 128, 128, 16, run_sgemm9},
    {"sgemm-9-a100", NULL, KIND_SGEMM, 64, 64, 16, run_sgemm9_a100},
    {"sgemm-10", "10", KIND_SGEMM, 128, 128, 16, run_sgemm10},
    {"sgemm-10-a100", NULL, KIND_SGEMM, 64, 128, 16, run_sgemm10_a100},
    {"sgemm-11", "11", KIND_SGEMM, 128, 256, 16, run_sgemm11},
    {"sgemm-11-a100", NULL, KIND_SGEMM, 64, 128, 16, run_sgemm11_a100},
#ifdef HARNESS_CUBLAS
    {"cublas", "sgemm-0", KIND_SGEMM, 1, 1, 1, run_cublas},
#endif
    {"pmpp-tiled-8", NULL, KIND_PMPP, 8, 8, 8, run_pmpp_tiled<8>},
    {"pmpp-tiled-16", NULL, KIND_PMPP, 16, 16, 16, run_pmpp_tiled<16>},
    {"pmpp-tiled-32", NULL, KIND_PMPP, 32, 32, 32, run_pmpp_tiled<32>},
    {"pmpp-tiled-dyn", "pmpp-tiled-dyn-16", KIND_PMPP, 16, 16, 16, run_pmpp_tiled_dyn<16>},
    {"pmpp-tiled-dyn-8", NULL, KIND_PMPP, 8, 8, 8, run_pmpp_tiled_dyn<8>},
    {"pmpp-tiled-dyn-32", NULL, KIND_PMPP, 32, 32, 32, run_pmpp_tiled_dyn<32>},
    {"vecadd", NULL, KIND_VECADD, 1, 1, 1, NULL},
};

static const KernelInfo *find_kernel(const char *name)
{
    if (name[0] == '0' && name[1] == '\0')
        name = "sgemm-0";
    for (const KernelInfo &k : KERNELS)
        if (!strcmp(k.id, name) || (k.alias && !strcmp(k.alias, name)))
            return &k;
    return NULL;
}

static void usage(void)
{
    fprintf(stderr, "usage: harness KERNEL SIZE [REPEATS]\nkernels:");
    for (const KernelInfo &k : KERNELS)
        fprintf(stderr, " %s", k.id);
    fprintf(stderr, "\n");
    exit(2);
}

static void fill_random(std::vector<float> &v)
{
    for (float &x : v)
        x = (float)(((double)rand() / RAND_MAX) * 10.0 - 5.0);   // (-5, 5)
}

// ---------------------------------------------------------------------------
int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4)
        usage();
    const KernelInfo *kern = find_kernel(argv[1]);
    if (!kern) {
        fprintf(stderr, "unknown kernel '%s'\n", argv[1]);
        usage();
    }
    const int size = atoi(argv[2]);
    const int repeats = argc > 3 ? atoi(argv[3]) : 50;
    if (size <= 0 || size > MAX_SIZE || repeats <= 0) {
        fprintf(stderr, "SIZE must be in 1..%d and REPEATS > 0\n", MAX_SIZE);
        return 2;
    }
    if (size % kern->mult_m || size % kern->mult_n || size % kern->mult_k) {
        fprintf(stderr,
                "%s supports only sizes with M %% %d == 0, N %% %d == 0, K %% %d == 0 "
                "(no bounds checks); %d is not\n",
                kern->id, kern->mult_m, kern->mult_n, kern->mult_k, size);
        return 2;
    }

    print_device();

    // the article sets the max-shared carveout for kernel 3
    CUDA_CHECK(cudaFuncSetAttribute(sgemm3<SGEMM3_PARAMS>,
                                    cudaFuncAttributePreferredSharedMemoryCarveout,
                                    (int)cudaSharedmemCarveoutMaxShared));
#ifdef HARNESS_CUBLAS
    if (cublasCreate(&g_cublas) != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublasCreate failed\n");
        return 1;
    }
#endif

    // buffers sized once for 4096^2, like the article
    const size_t cap = (size_t)MAX_SIZE * MAX_SIZE;
    std::vector<float> hA(cap), hB(cap), hC(cap);
    srand(0x5eed);
    fill_random(hA);
    fill_random(hB);
    fill_random(hC);
    float *dA, *dB, *dC, *dRef;
    CUDA_CHECK(cudaMalloc(&dA, cap * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dB, cap * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC, cap * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dRef, cap * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dA, hA.data(), cap * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dB, hB.data(), cap * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dC, hC.data(), cap * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dRef, dC, cap * sizeof(float), cudaMemcpyDeviceToDevice));

    const int M = size, N = size, K = size;
    const int n_vec = size * size;
    auto launch = [&]() {
        if (kern->kind == KIND_VECADD)
            vecadd<<<SGEMM_CEIL_DIV(n_vec, VECADD_BLOCK), VECADD_BLOCK>>>(dA, dB, dC, n_vec);
        else
            kern->launch(M, N, K, ALPHA, dA, dB, BETA, dC);
    };

    // ---- warm-up launch, verified --------------------------------------
    launch();
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    size_t n_out = (kern->kind == KIND_VECADD) ? (size_t)n_vec : (size_t)M * N;
    std::vector<float> got(n_out), want(n_out);
    CUDA_CHECK(cudaMemcpy(got.data(), dC, n_out * sizeof(float), cudaMemcpyDeviceToHost));
    double tol_abs = 0.0;
    if (kern->kind == KIND_VECADD) {
        for (size_t i = 0; i < n_out; ++i)
            want[i] = hA[i] + hB[i];
    } else {
        // PMPP kernels compute P = M x N: alpha 1, beta 0 for the reference
        const float ra = kern->kind == KIND_PMPP ? 1.0f : ALPHA;
        const float rb = kern->kind == KIND_PMPP ? 0.0f : BETA;
        launch_reference(M, N, K, ra, dA, dB, rb, dRef);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        CUDA_CHECK(cudaMemcpy(want.data(), dRef, n_out * sizeof(float), cudaMemcpyDeviceToHost));
        // float accumulation of K products of magnitude <= 25 in a different
        // order than the double reference: allow ~1e-4 * sqrt(K) * 25 * alpha
        tol_abs = 1e-4 * std::sqrt((double)K) * 25.0 * std::fabs(ra);
    }
    size_t bad = 0, first_bad = 0;
    double max_err = 0.0;
    for (size_t i = 0; i < n_out; ++i) {
        const double err = std::fabs((double)got[i] - (double)want[i]);
        const double tol = tol_abs + 1e-5 * std::fabs((double)want[i]);
        if (!(err <= tol)) {       // also catches NaN
            if (!bad)
                first_bad = i;
            ++bad;
        }
        if (err > max_err || err != err)
            max_err = err;
    }
    if (bad) {
        const size_t w = kern->kind == KIND_VECADD ? n_out : (size_t)N;
        fprintf(stderr,
                "VERIFICATION FAILED: %s size %d: %zu of %zu elements off; first at (%zu, %zu): "
                "got %g, want %g\n",
                kern->id, size, bad, n_out, first_bad / w, first_bad % w, got[first_bad],
                want[first_bad]);
        return 3;
    }

    // ---- timed launches -------------------------------------------------
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    CUDA_CHECK(cudaEventRecord(start));
    for (int r = 0; r < repeats; ++r)
        launch();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaGetLastError());
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    const double sec = ms / 1e3;

    if (kern->kind == KIND_VECADD) {
        const double gbs = 12.0 * n_vec * (double)repeats / sec / 1e9;
        printf("%s: n = %d, %d launches, %.6f s per launch, %.1f GB/s\n", kern->id, n_vec,
               repeats, sec / repeats, gbs);
        printf("RESULT kernel=%s size=%d repeats=%d seconds=%.6f gbps=%.1f verified=yes\n",
               kern->id, size, repeats, sec, gbs);
    } else {
        const double gflops = 2.0 * M * (double)N * K * repeats / sec / 1e9;
        printf("%s: M = N = K = %d, alpha %.1f, beta %.1f, %d launches, %.6f s per launch, "
               "%.1f GFLOP/s (max abs error %.3g)\n",
               kern->id, size, ALPHA, BETA, repeats, sec / repeats, gflops, max_err);
        printf("RESULT kernel=%s size=%d repeats=%d seconds=%.6f gflops=%.1f verified=yes\n",
               kern->id, size, repeats, sec, gflops);
    }

    CUDA_CHECK(cudaFree(dA));
    CUDA_CHECK(cudaFree(dB));
    CUDA_CHECK(cudaFree(dC));
    CUDA_CHECK(cudaFree(dRef));
#ifdef HARNESS_CUBLAS
    cublasDestroy(g_cublas);
#endif
    return 0;
}
