// emu/emu_test.cpp -- runs every kernel of ../*.cuh on the CPU through the
// emu/cuda_runtime.h shim and compares with a double-precision reference.
// Sizes are small, non-square where the kernel allows it (to catch
// row/column mix-ups), and for kernel 11 include a K with an odd number of
// BK-slices.  Launch geometry is the one documented in the headers (and
// used by harness.cu).
//
//   g++ -std=c++20 -O1 -pthread -Iemu -I. emu/emu_test.cpp -o emu_test && ./emu_test
#include "cuda_runtime.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../pmpp.cuh"
#include "../sgemm.cuh"
#include "../vecadd.cuh"

static int g_pass = 0, g_fail = 0;

static float *alloc_floats(size_t n)
{
    void *p = std::aligned_alloc(64, ((n * sizeof(float) + 63) / 64) * 64);
    return static_cast<float *>(p);
}

static void fill(float *p, size_t n, unsigned &seed)
{
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        p[i] = (float)((seed >> 8) * (1.0 / 16777216.0) * 10.0 - 5.0);
    }
}

static void report(const std::string &name, bool ok, double max_err)
{
    printf("%-4s %-40s max abs error %.3g\n", ok ? "ok" : "FAIL", name.c_str(), max_err);
    ok ? ++g_pass : ++g_fail;
}

typedef void (*launch_fn)(int, int, int, float, const float *, const float *, float, float *);

static void check_sgemm(const char *name, launch_fn launch, int M, int N, int K)
{
    const float alpha = 0.5f, beta = 3.0f;
    unsigned seed = 12345u + M * 7u + N * 13u + K;
    float *A = alloc_floats((size_t)M * K), *B = alloc_floats((size_t)K * N);
    float *C = alloc_floats((size_t)M * N), *R = alloc_floats((size_t)M * N);
    fill(A, (size_t)M * K, seed);
    fill(B, (size_t)K * N, seed);
    fill(C, (size_t)M * N, seed);
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < N; ++j) {
            double acc = 0.0;
            for (int k = 0; k < K; ++k)
                acc += (double)A[(size_t)i * K + k] * B[(size_t)k * N + j];
            R[(size_t)i * N + j] = (float)(alpha * acc + beta * (double)C[(size_t)i * N + j]);
        }
    launch(M, N, K, alpha, A, B, beta, C);
    double max_err = 0.0;
    bool ok = true;
    const double tol = 1e-4 * std::sqrt((double)K) * 25.0 * alpha;
    for (size_t i = 0; i < (size_t)M * N; ++i) {
        const double e = std::fabs((double)C[i] - R[i]);
        if (!(e <= tol + 1e-5 * std::fabs(R[i])))
            ok = false;
        if (e > max_err || e != e)
            max_err = e;
    }
    char buf[128];
    snprintf(buf, sizeof buf, "%s M=%d N=%d K=%d", name, M, N, K);
    report(buf, ok, max_err);
    free(A);
    free(B);
    free(C);
    free(R);
}

// --- launch geometry, as documented in the headers ------------------------
#define GEMM_ARGS int M, int N, int K, float a, const float *A, const float *B, float b, float *C
static void l1(GEMM_ARGS) { emu_launch(dim3(SGEMM_CEIL_DIV(M, 32), SGEMM_CEIL_DIV(N, 32)), dim3(32, 32), 0, sgemm1, M, N, K, a, A, B, b, C); }
static void l2(GEMM_ARGS) { emu_launch(dim3(SGEMM_CEIL_DIV(M, 32), SGEMM_CEIL_DIV(N, 32)), dim3(1024), 0, sgemm2<SGEMM2_PARAMS>, M, N, K, a, A, B, b, C); }
static void l3(GEMM_ARGS) { emu_launch(dim3(M / 32, N / 32), dim3(1024), 0, sgemm3<SGEMM3_PARAMS>, M, N, K, a, A, B, b, C); }
static void l4(GEMM_ARGS) { emu_launch(dim3(N / 64, M / 64), dim3(512), 0, sgemm4<SGEMM4_PARAMS>, M, N, K, a, A, B, b, C); }
static void l5(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 128), dim3(256), 0, sgemm5<SGEMM5_PARAMS>, M, N, K, a, A, B, b, C); }
static void l6(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 128), dim3(256), 0, sgemm6<SGEMM6_PARAMS>, M, N, K, a, A, B, b, C); }
static void l7(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 128), dim3(256), 0, sgemm7<SGEMM7_PARAMS>, M, N, K, a, A, B, b, C); }
static void l8(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 128), dim3(256), 0, sgemm8<SGEMM8_PARAMS>, M, N, K, a, A, B, b, C); }
static void l9(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 128), dim3(256), 0, sgemm9<SGEMM9_A6000>, M, N, K, a, A, B, b, C); }
static void l9a(GEMM_ARGS) { emu_launch(dim3(N / 64, M / 64), dim3(256), 0, sgemm9<SGEMM9_A100>, M, N, K, a, A, B, b, C); }
static void l10(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 128), dim3(128), 0, sgemm10<SGEMM10_A6000>, M, N, K, a, A, B, b, C); }
static void l10a(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 64), dim3(128), 0, sgemm10<SGEMM10_A100>, M, N, K, a, A, B, b, C); }
static void l11(GEMM_ARGS) { emu_launch(dim3(N / 256, M / 128), dim3(256), 0, sgemm11<SGEMM11_A6000>, M, N, K, a, A, B, b, C); }
static void l11a(GEMM_ARGS) { emu_launch(dim3(N / 128, M / 64), dim3(256), 0, sgemm11<SGEMM11_A100>, M, N, K, a, A, B, b, C); }

static void check_pmpp(const char *name, int T, bool dyn, int W)
{
    unsigned seed = 777u + W + T;
    float *Mm = alloc_floats((size_t)W * W), *Nm = alloc_floats((size_t)W * W);
    float *P = alloc_floats((size_t)W * W);
    fill(Mm, (size_t)W * W, seed);
    fill(Nm, (size_t)W * W, seed);
    dim3 grid(W / T, W / T), block(T, T);
    if (dyn) {
        const size_t size = 2 * T * T * sizeof(float);
        emu_launch(grid, block, size, pmpp_tiled_dyn, (const float *)Mm, (const float *)Nm, P, W,
                   (unsigned)(size / 2), (unsigned)(size / 2));
    } else if (T == 8) {
        emu_launch(grid, block, 0, pmpp_tiled<8>, (const float *)Mm, (const float *)Nm, P, W);
    } else if (T == 16) {
        emu_launch(grid, block, 0, pmpp_tiled<16>, (const float *)Mm, (const float *)Nm, P, W);
    } else {
        emu_launch(grid, block, 0, pmpp_tiled<32>, (const float *)Mm, (const float *)Nm, P, W);
    }
    double max_err = 0.0;
    bool ok = true;
    for (int i = 0; i < W; ++i)
        for (int j = 0; j < W; ++j) {
            double acc = 0.0;
            for (int k = 0; k < W; ++k)
                acc += (double)Mm[(size_t)i * W + k] * Nm[(size_t)k * W + j];
            const double e = std::fabs(acc - P[(size_t)i * W + j]);
            if (!(e <= 1e-4 * std::sqrt((double)W) * 25.0 + 1e-5 * std::fabs(acc)))
                ok = false;
            if (e > max_err || e != e)
                max_err = e;
        }
    char buf[128];
    snprintf(buf, sizeof buf, "%s T=%d Width=%d", name, T, W);
    report(buf, ok, max_err);
    free(Mm);
    free(Nm);
    free(P);
}

static void check_vecadd(int n)
{
    unsigned seed = 99u;
    float *x = alloc_floats(n), *y = alloc_floats(n), *z = alloc_floats(n + 8);
    fill(x, n, seed);
    fill(y, n, seed);
    for (int i = 0; i < n + 8; ++i)
        z[i] = -1234.0f;
    emu_launch(dim3(SGEMM_CEIL_DIV(n, VECADD_BLOCK)), dim3(VECADD_BLOCK), 0, vecadd,
               (const float *)x, (const float *)y, z, n);
    bool ok = true;
    for (int i = 0; i < n; ++i)
        ok = ok && z[i] == x[i] + y[i];
    for (int i = n; i < n + 8; ++i)
        ok = ok && z[i] == -1234.0f;     // the guarded tail is not written
    char buf[64];
    snprintf(buf, sizeof buf, "vecadd n=%d", n);
    report(buf, ok, 0.0);
    free(x);
    free(y);
    free(z);
}

int main()
{
    check_vecadd(1000);
    check_pmpp("pmpp-tiled", 8, false, 48);
    check_pmpp("pmpp-tiled", 16, false, 64);
    check_pmpp("pmpp-tiled", 32, false, 64);
    check_pmpp("pmpp-tiled-dyn", 16, true, 64);
    check_pmpp("pmpp-tiled-dyn", 8, true, 40);

    check_sgemm("sgemm-1", l1, 100, 70, 33);
    check_sgemm("sgemm-1", l1, 64, 96, 32);
    check_sgemm("sgemm-2", l2, 100, 70, 33);
    check_sgemm("sgemm-2", l2, 64, 96, 32);
    check_sgemm("sgemm-3", l3, 64, 96, 96);
    check_sgemm("sgemm-4", l4, 128, 192, 64);
    check_sgemm("sgemm-5", l5, 256, 384, 48);
    check_sgemm("sgemm-6", l6, 256, 384, 48);
    check_sgemm("sgemm-7", l7, 256, 384, 48);
    check_sgemm("sgemm-8", l8, 256, 384, 48);
    check_sgemm("sgemm-9 (a6000)", l9, 256, 384, 48);
    check_sgemm("sgemm-9 (a100)", l9a, 128, 192, 48);
    check_sgemm("sgemm-10 (a6000)", l10, 256, 384, 48);
    check_sgemm("sgemm-10 (a100)", l10a, 128, 256, 48);
    check_sgemm("sgemm-11 (a6000)", l11, 256, 512, 48);
    check_sgemm("sgemm-11 (a6000)", l11, 128, 256, 64);
    check_sgemm("sgemm-11 (a6000)", l11, 128, 256, 16);
    check_sgemm("sgemm-11 (a100)", l11a, 128, 256, 48);
    check_sgemm("sgemm-11 (a100)", l11a, 64, 384, 64);

    printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail ? 1 : 0;
}
