// probes.cu -- microbenchmarks for the preset values smsim marks ASSUMED
// that move the SGEMM validation most, for anyone with the GPU:
//
//   ./probes smem     cycles a shared load takes an SM, by width and lane
//                     pattern: how many wavefronts a 64- or 128-bit load
//                     costs when lanes share addresses (smsim: quarter-warp
//                     phases, never merged; mem.smem_merge_phases)
//   ./probes l1       a one-thread pointer chase over rings of lines m lines
//                     apart, m = 1 .. 1024: the L1's sets and ways, and
//                     whether its set index is the line modulo the sets
//                     (mem.l1_assoc, mem.l1_hashed_index)
//   ./probes icache   instructions per cycle against the loop's code size
//                     (smsim's presets: a perfect instruction cache; the
//                     fetch.* keys model one; sgemm-10's loop is 35 KB of
//                     SASS, sgemm-11's 72 KB)
//   ./probes all      the three
//
// Each probe runs one block on one SM (the smem and icache probes) or one
// thread (l1) and times it with clock64(), so the figures are SM cycles.
// Each prints a table and, where the figures decide it, the --set line
// smsim takes.  README.md ("Probes") says what smsim assumes for each and
// what each answer would change.  Built by `make probes`; compile-only
// machines can check what it emits with `make probes-sass` (sassmix.py).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#include "host.cuh"

// ---------------------------------------------------------------------------
// smem: wavefronts of one warp shared load
// ---------------------------------------------------------------------------

// Lane patterns, byte offsets of lane l's access; beside each, the SGEMM
// loads it stands for.
enum { P_UNIFORM, P_HALVES, P_K6_BS, P_ROWS, P_STRIDE2, N_PATTERNS };

static const char *const pattern_name[N_PATTERNS] = {
    "uniform",   // every lane one address (kernel 4's As, kernel 3's As)
    "halves",    // lanes 0-15 one address, 16-31 another 32 B on (kernels 6-7's As)
    "k6-bs",     // lane l at (l % 16) * 32 B (kernel 6's Bs: l and l + 16 alike)
    "rows",      // lane l at l * width: consecutive, no conflict anywhere
    "stride2",   // lane l at l * 2 * width: a 2-way conflict in every phase
};

__host__ __device__ static unsigned lane_offset(int pattern, int lane, int width)
{
    switch (pattern) {
    case P_UNIFORM: return 0;
    case P_HALVES: return (lane / 16) * 32;
    case P_K6_BS: return (lane % 16) * 32;
    case P_ROWS: return lane * width;
    default: return lane * 2 * width;
    }
}

// Wavefronts a warp load takes under two rules, worked out by hand from
// 32 banks of 4 B (bank = word % 32):
// - smsim's: a 64-bit load in two half-warp phases, a 128-bit one in four
//   quarter-warp phases, each phase as many wavefronts as the distinct
//   words its busiest bank holds, the load the sum (bank.h);
// - merged: the whole warp as one phase (distinct words per bank), the
//   fewest any hardware that merges phases could take.
// E.g. k6-bs at 16 B: a quarter's 8 lanes reach 8 chunks 32 B apart, two
// to a bank group: 2 wavefronts, 8 for the warp; merged, the 16 distinct
// chunks put 4 words in each of 16 banks: 4.  At 4 B its 16 words sit 8
// apart, 4 to each of 4 banks: 4 under both.
static const int expect_smsim[3][N_PATTERNS] = {
    // uniform halves k6-bs rows stride2
    { 1, 1, 4, 1, 2 },   // 4 B
    { 2, 2, 8, 2, 4 },   // 8 B
    { 4, 4, 8, 4, 8 },   // 16 B
};
static const int expect_merged[3][N_PATTERNS] = {
    { 1, 1, 4, 1, 2 },
    { 1, 1, 4, 2, 4 },
    { 1, 1, 4, 4, 8 },
};

enum { SMEM_BYTES = 16384, SMEM_LOADS = 8, SMEM_WINDOW = 512 };

// One load of 'width' bytes at shared address 'a'; volatile so that
// ptxas keeps every one, and its words XORed together so that their use
// (the LOP3s) waits for them.
template <int WIDTH> __device__ __forceinline__ unsigned lds(unsigned a);
template <> __device__ __forceinline__ unsigned lds<4>(unsigned a)
{
    unsigned x;
    asm volatile("ld.volatile.shared.u32 %0, [%1];" : "=r"(x) : "r"(a));
    return x;
}
template <> __device__ __forceinline__ unsigned lds<8>(unsigned a)
{
    unsigned x, y;
    asm volatile("ld.volatile.shared.v2.u32 {%0, %1}, [%2];" : "=r"(x), "=r"(y) : "r"(a));
    return x ^ y;
}
template <> __device__ __forceinline__ unsigned lds<16>(unsigned a)
{
    unsigned x, y, z, w;
    asm volatile("ld.volatile.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                 : "r"(a));
    return x ^ y ^ z ^ w;
}

// Every warp of the block issues iters x SMEM_LOADS loads of the pattern,
// each shifted by a multiple of 512 B (which moves no word to another
// bank), and thread 0 times the block between two barriers.
template <int WIDTH>
__global__ void smem_probe(int pattern, int iters, long long *cycles, unsigned *sink)
{
    __shared__ __align__(16) unsigned buf[SMEM_BYTES / 4];
    for (int i = threadIdx.x; i < SMEM_BYTES / 4; i += blockDim.x)
        buf[i] = i;
    const unsigned base = (unsigned)__cvta_generic_to_shared(buf) +
                          lane_offset(pattern, threadIdx.x % 32, WIDTH);
    unsigned acc = 0;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
        const unsigned a = base + (i & 1) * (SMEM_LOADS * SMEM_WINDOW);
#pragma unroll
        for (int k = 0; k < SMEM_LOADS; k++)
            acc ^= lds<WIDTH>(a + k * SMEM_WINDOW);
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cycles = t1 - t0;
    if (acc == 0x9e3779b9u)   // never true; keeps acc alive
        *sink = acc;
}

static double run_smem(int width, int pattern, int threads, long long *d_cycles,
                       unsigned *d_sink)
{
    const int iters = 256;
    long long cycles = 0;
    for (int rep = 0; rep < 2; rep++) {   // the first run warms up
        switch (width) {
        case 4: smem_probe<4><<<1, threads>>>(pattern, iters, d_cycles, d_sink); break;
        case 8: smem_probe<8><<<1, threads>>>(pattern, iters, d_cycles, d_sink); break;
        default: smem_probe<16><<<1, threads>>>(pattern, iters, d_cycles, d_sink); break;
        }
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    }
    return (double)cycles / ((double)(threads / 32) * iters * SMEM_LOADS);
}

static void probe_smem()
{
    long long *d_cycles;
    unsigned *d_sink;
    CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
    const int threads = 1024;   // 32 warps on one SM keep its shared memory busy
    printf("\nsmem: SM cycles per warp shared load, %d warps on one SM\n", threads / 32);
    printf("(a saturated SM delivers one wavefront a cycle: the figure is the wavefronts,\n"
           " unless issue or the load/store unit binds first; the 4-byte rows are the floor)\n");
    printf("  %-8s %5s %9s %8s %8s\n", "pattern", "width", "measured", "smsim", "merged");
    const int widths[3] = { 4, 8, 16 };
    double merged_score = 0, smsim_score = 0;
    for (int w = 0; w < 3; w++)
        for (int p = 0; p < N_PATTERNS; p++) {
            double c = run_smem(widths[w], p, threads, d_cycles, d_sink);
            printf("  %-8s %5d %9.2f %8d %8d\n", pattern_name[p], widths[w], c,
                   expect_smsim[w][p], expect_merged[w][p]);
            printf("PROBE smem pattern=%s width=%d cycles=%.3f smsim=%d merged=%d\n",
                   pattern_name[p], widths[w], c, expect_smsim[w][p], expect_merged[w][p]);
            if (expect_smsim[w][p] != expect_merged[w][p]) {
                smsim_score += fabs(c - expect_smsim[w][p]);
                merged_score += fabs(c - expect_merged[w][p]);
            }
        }
    printf("where the rules differ, the measured figures are %.1f cycles from smsim's in all\n"
           "and %.1f from the merged rule's: %s\n", smsim_score, merged_score,
           smsim_score <= merged_score
               ? "smsim's quarter-warp phases stand"
               : "the hardware merges what smsim splits (--set mem.smem_merge_phases=true)");
    CUDA_CHECK(cudaFree(d_cycles));
    CUDA_CHECK(cudaFree(d_sink));
}

// ---------------------------------------------------------------------------
// l1: ways and set index
// ---------------------------------------------------------------------------

__device__ __forceinline__ unsigned ldca(const unsigned *p)
{
    unsigned v;
    asm volatile("ld.global.ca.u32 %0, [%1];" : "=r"(v) : "l"(p));
    return v;
}

// One thread links k words 'stride' words apart into a ring, walks it
// twice to load the lines, then times 'n' more steps.  Each step's
// address is the previous step's value, so the time per step is the
// latency of the level that holds the lines.
__global__ void chase(unsigned *list, int k, unsigned stride, int n, long long *cycles,
                      unsigned *sink)
{
    for (int i = 0; i < k; i++)
        list[(size_t)i * stride] = (unsigned)(((i + 1) % k) * (size_t)stride);
    __threadfence();
    unsigned j = 0;
    for (int i = 0; i < 2 * k; i++)
        j = ldca(list + j);
    long long t0 = clock64();
    for (int i = 0; i < n; i++)
        j = ldca(list + j);
    long long t1 = clock64();
    *cycles = t1 - t0;
    *sink = j;
}

static double run_chase(unsigned *d_list, int k, size_t stride_bytes, long long *d_cycles,
                        unsigned *d_sink)
{
    const int n = 4096;
    long long cycles;
    chase<<<1, 1>>>(d_list, k, (unsigned)(stride_bytes / 4), n, d_cycles, d_sink);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    return (double)cycles / n;
}

// Whether a ring of k lines 'stride' lines apart misses (takes more than
// halfway from an L1 hit to an L2 hit a step).
static bool ring_misses(unsigned *d_list, int k, int stride, double mid, long long *d_cycles,
                        unsigned *d_sink)
{
    return run_chase(d_list, k, (size_t)stride * 128, d_cycles, d_sink) > mid;
}

// What a plain index of 'sets' sets and 'ways' ways predicts for a ring
// of k lines m lines apart: the ring visits d = sets / gcd (sets, m)
// sets in turn, k / d lines to each (k % d of them one more); under LRU
// the lines of a set holding more than 'ways' miss every time round and
// the rest hit, so the ring "misses" (takes more than halfway from an L1
// hit to an L2 hit a step) where those lines are more than half of k.
static bool plain_ring_misses(int sets, int ways, int k, int m)
{
    int g = sets, r = m;
    while (r) {
        int t = g % r;
        g = r;
        r = t;
    }
    const int d = sets / g, q = k / d, extra = k % d;
    const int crowded = (q + 1 > ways ? extra * (q + 1) : 0) + (q > ways ? (d - extra) * q : 0);
    return 2 * crowded > k;
}

// So: every stride of 1 to 1024 lines with a ring of 32; at the strides
// that miss, the fewest lines that do (the knee).  At a multiple of the
// sets every line shares one set and the knee is ways + 1, the least:
// ways = the least knee - 1, sets = the least stride with that knee.
// Then the prediction is checked against every stride.  A hashed index
// crowds no stride's lines into one set, or some by chance: no stride
// misses, or the ones that do are not what any plain index predicts.
static void probe_l1()
{
    const int ring = 32, max_stride = 1024;
    unsigned *d_list, *d_sink;
    long long *d_cycles;
    CUDA_CHECK(cudaMalloc(&d_list, (size_t)4096 * 128 + (size_t)ring * max_stride * 128));
    CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_sink, sizeof(unsigned)));
    // As much L1 as the carveout allows: the kernel uses no shared memory.
    CUDA_CHECK(cudaFuncSetAttribute(chase, cudaFuncAttributePreferredSharedMemoryCarveout, 0));

    const double hit = run_chase(d_list, 1, 128, d_cycles, d_sink);
    const double l2 = run_chase(d_list, 4096, 128, d_cycles, d_sink);   // 512 KB: past L1
    const double mid = (hit + l2) / 2;
    printf("\nl1: a chase over a ring of lines 'stride' lines (of 128 B) apart\n");
    printf("(an L1 hit %.0f cycles a step, a 512 KB ring %.0f: a ring misses past %.0f)\n", hit,
           l2, mid);
    std::vector<int> missing;
    for (int m = 1; m <= max_stride; m++)
        if (ring_misses(d_list, ring, m, mid, d_cycles, d_sink))
            missing.push_back(m);
    printf("strides at which a ring of %d lines misses: %zu of %d\n", ring, missing.size(),
           max_stride);
    if (missing.empty()) {
        printf("PROBE l1 index=hashed-or-wide\n");
        printf("no stride crowds %d lines into too few sets: the set index mixes in the upper "
               "bits\n(--set mem.l1_hashed_index=true), or the L1 has %d ways or more\n",
               ring, ring);
    } else {
        int least = ring + 1, sets = 0;
        printf("  %8s %6s\n", "stride", "knee");
        for (size_t i = 0; i < missing.size(); i++) {
            int lo = 1, hi = ring;   // lo lines fit, hi do not
            while (hi - lo > 1) {
                int k = (lo + hi) / 2;
                (ring_misses(d_list, k, missing[i], mid, d_cycles, d_sink) ? hi : lo) = k;
            }
            if (i < 24)
                printf("  %8d %6d\n", missing[i], hi);
            printf("PROBE l1 stride_lines=%d knee=%d\n", missing[i], hi);
            if (hi < least) {
                least = hi;
                sets = missing[i];
            }
        }
        if (missing.size() > 24)
            printf("  (%zu more: the PROBE lines)\n", missing.size() - 24);
        const int ways = least - 1;
        int wrong = 0;
        bool multiples = true;   // every multiple of 'sets' misses
        for (int m = 1; m <= max_stride; m++) {
            const bool seen = std::binary_search(missing.begin(), missing.end(), m);
            wrong += plain_ring_misses(sets, ways, ring, m) != seen;
            if (m % sets == 0)
                multiples = multiples && seen;
        }
        // Timing noise may flip a stride; chance collisions under a hash
        // leave strides missing that no plain index explains, or one that
        // would need an L1 larger than any SM's (256 KB of L1 and shared
        // memory together on the H100, the largest).
        const bool plain = multiples && (size_t)sets * ways * 128 <= 256 * 1024 &&
                           wrong <= std::max(1, (int)missing.size() / 20);
        printf("PROBE l1 sets=%d ways=%d wrong=%d index=%s\n", sets, ways, wrong,
               plain ? "plain" : "hashed");
        printf("a plain index of %d sets of %d ways predicts which strides miss, wrong at %d of "
               "%d\n", sets, ways, wrong, max_stride);
        if (plain)
            printf("so: %d ways, %d KB of L1 under this launch's carveout "
                   "(--set mem.l1_assoc=%d --set mem.l1_hashed_index=false)\n",
                   ways, sets * ways * 128 / 1024, ways);
        else
            printf("so lines collide by chance, as under a hashed index "
                   "(--set mem.l1_hashed_index=true); the ways are not read off this way\n");
    }
    CUDA_CHECK(cudaFree(d_list));
    CUDA_CHECK(cudaFree(d_cycles));
    CUDA_CHECK(cudaFree(d_sink));
}

// ---------------------------------------------------------------------------
// icache: instructions per cycle against code size
// ---------------------------------------------------------------------------

#define FMA1(r) asm volatile("fma.rn.f32 %0, %0, %1, %2;" : "+f"(r) : "f"(b), "f"(c))

// A loop of N FFMAs (16 B of SASS each) on 8 independent accumulators:
// no FFMA waits for another, so a warp issues one a cycle if the
// instructions arrive in time.
template <int N>
__global__ void icache_probe(int iters, long long *cycles, float *sink)
{
    float a0 = threadIdx.x, a1 = a0 + 1, a2 = a0 + 2, a3 = a0 + 3, a4 = a0 + 4,
          a5 = a0 + 5, a6 = a0 + 6, a7 = a0 + 7;
    const float b = 0.999f, c = 0.5f;
    __syncthreads();
    long long t0 = clock64();
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int k = 0; k < N / 8; k++) {
            FMA1(a0); FMA1(a1); FMA1(a2); FMA1(a3);
            FMA1(a4); FMA1(a5); FMA1(a6); FMA1(a7);
        }
    }
    __syncthreads();
    long long t1 = clock64();
    if (threadIdx.x == 0)
        *cycles = t1 - t0;
    float s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
    if (s == 1.2345f)   // never true; keeps the FFMAs alive
        *sink = s;
}

template <int N>
static double run_icache(int warps, long long *d_cycles, float *d_sink)
{
    const int iters = std::max(4, (1 << 20) / N);
    long long cycles = 0;
    for (int rep = 0; rep < 2; rep++) {
        icache_probe<N><<<1, warps * 32>>>(iters, d_cycles, d_sink);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(&cycles, d_cycles, sizeof cycles, cudaMemcpyDeviceToHost));
    }
    return (double)warps * iters * N / (double)cycles;   // warp instructions per cycle
}

static void probe_icache()
{
    long long *d_cycles;
    float *d_sink;
    CUDA_CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_sink, sizeof(float)));
    const int warps[] = { 4, 8, 16 };
    printf("\nicache: warp instructions per cycle on one SM, a loop of N independent FFMAs\n");
    printf("(flat: the loop's code fits; a step down: it has outgrown a level of the cache.\n"
           " smsim's presets assume a perfect instruction cache, fetch.l0_bytes = 0; the knees give\n"
           " fetch.l0_bytes and fetch.l1_bytes. sgemm-10's loop is 35 KB, sgemm-11's 72 KB)\n");
    printf("  %6s %8s", "N", "code KB");
    for (int w : warps)
        printf(" %6d w", w);
    printf("\n");
#define ICACHE_ROW(N)                                                                    \
    do {                                                                                 \
        double ipc[3];                                                                   \
        printf("  %6d %8d", N, N * 16 / 1024);                                           \
        for (int i = 0; i < 3; i++) {                                                    \
            ipc[i] = run_icache<N>(warps[i], d_cycles, d_sink);                          \
            printf(" %8.2f", ipc[i]);                                                    \
        }                                                                                \
        printf("\n");                                                                    \
        for (int i = 0; i < 3; i++)                                                      \
            printf("PROBE icache n=%d kb=%d warps=%d ipc=%.3f\n", N, N * 16 / 1024,       \
                   warps[i], ipc[i]);                                                    \
    } while (0)
    ICACHE_ROW(256);
    ICACHE_ROW(512);
    ICACHE_ROW(1024);
    ICACHE_ROW(2048);
    ICACHE_ROW(3072);
    ICACHE_ROW(4096);
    ICACHE_ROW(6144);
    ICACHE_ROW(8192);
    ICACHE_ROW(12288);
#undef ICACHE_ROW
    CUDA_CHECK(cudaFree(d_cycles));
    CUDA_CHECK(cudaFree(d_sink));
}

// ---------------------------------------------------------------------------

static void usage()
{
    fprintf(stderr, "usage: probes smem|l1|icache|all\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc != 2)
        usage();
    const bool all = strcmp(argv[1], "all") == 0;
    if (!all && strcmp(argv[1], "smem") && strcmp(argv[1], "l1") && strcmp(argv[1], "icache"))
        usage();
    print_device();
    if (all || !strcmp(argv[1], "smem"))
        probe_smem();
    if (all || !strcmp(argv[1], "l1"))
        probe_l1();
    if (all || !strcmp(argv[1], "icache"))
        probe_icache();
    return 0;
}
