/*
 * occ-crosscheck.c -- smsim's occupancy against NVIDIA's own calculator.
 *
 * Built only where the CUDA toolkit's cuda_occupancy.h exists (it is
 * never required): the header is the code behind the runtime's
 * cudaOccupancyMaxActiveBlocksPerMultiprocessor, so it is the oracle.
 * For every preset and a grid of launches (block sizes around every
 * warp boundary and limit, every register count 0..257, shared-memory
 * sizes around every unit and step, several carveouts) the active
 * blocks per SM must be equal.  The header derives the allocation rules
 * from the compute capability alone, so this also checks each preset's
 * [alloc] and [sm] values against NVIDIA's table.
 *
 * Not compared: static shared memory above the 48 KB default, which
 * the compiler rejects (smsim reports it as impossible; the header has
 * no notion of it).
 */
#include <cuda_occupancy.h>
#include <stdio.h>

#include "models/occ.h"
#include "models/preset.h"

static void
props_of (const GpuSpec *s, cudaOccDeviceProp *p)
{
    memset (p, 0, sizeof *p);
    p->computeMajor = s->device.cc_major;
    p->computeMinor = s->device.cc_minor;
    p->maxThreadsPerBlock = s->sm.max_threads_per_block;
    p->maxThreadsPerMultiprocessor = s->sm.max_threads;
    p->regsPerBlock = s->sm.max_regs_per_block;
    p->regsPerMultiprocessor = s->sm.registers;
    p->warpSize = s->device.warp_size;
    p->sharedMemPerBlock = (size_t) s->sm.smem_per_block;
    p->sharedMemPerMultiprocessor = (size_t) s->sm.smem_bytes;
    p->numSms = s->device.sm_count;
    p->sharedMemPerBlockOptin = (size_t) s->sm.smem_per_block_optin;
    p->reservedSharedMemPerBlock = (size_t) s->sm.smem_reserved_per_block;
}

/* NVIDIA's answer, with the kernel opted in to the largest dynamic
 * shared memory (as smsim assumes). */
static int
oracle (const cudaOccDeviceProp *p, const OccLaunch *l)
{
    cudaOccFuncAttributes a;
    cudaOccDeviceState st;
    cudaOccResult r;
    memset (&a, 0, sizeof a);
    memset (&st, 0, sizeof st);
    memset (&r, 0, sizeof r);
    a.maxThreadsPerBlock = 1024;
    a.numRegs = (int) l->regs_per_thread;
    a.sharedSizeBytes = (size_t) l->static_smem_bytes;
    a.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    a.maxDynamicSharedSizeBytes =
        p->sharedMemPerBlockOptin - (size_t) l->static_smem_bytes;
    a.numBlockBarriers = 1;
    st.cacheConfig = CACHE_PREFER_NONE;
    st.carveoutConfig = l->carveout_pct;
    if (cudaOccMaxActiveBlocksPerMultiprocessor (&r, p, &a, &st,
                                                 (int) l->threads_per_block,
                                                 (size_t) l->dyn_smem_bytes) !=
        CUDA_OCC_SUCCESS)
        return -1;
    return r.activeBlocksPerMultiprocessor;
}

static const int threads[] = { 1, 31, 32, 33, 64, 65, 96, 100, 128, 160,
                               192, 224, 256, 288, 320, 384, 416, 512, 544,
                               640, 672, 768, 800, 1000, 1024, 1025, 2048 };
static const int smems[] = { 0, 1, 127, 128, 129, 1000, 3072, 4096, 6144,
                             8192, 9216, 12288, 16384, 20000, 32768, 40000,
                             49151, 49152, 49153, 65536, 98304, 100000,
                             101376, 102400, 131072, 166912, 166913, 200000,
                             232448, 232449 };
static const int carveouts[] = { -1, 0, 1, 8, 25, 33, 50, 66, 75, 100 };

static long
check_gpu (const GpuSpec *spec, long *compared)
{
    cudaOccDeviceProp p;
    long bad = 0;
    props_of (spec, &p);
    for (unsigned t = 0; t < G_N_ELEMENTS (threads); t++)
        for (int regs = 0; regs <= 257; regs++)
            for (unsigned m = 0; m < G_N_ELEMENTS (smems); m++)
                for (unsigned c = 0; c < G_N_ELEMENTS (carveouts); c++)
                    for (int split = 0; split < 2; split++) {
                        OccLaunch l = { threads[t], regs,
                                        split ? 0 : smems[m],
                                        split ? smems[m] : 0, carveouts[c] };
                        OccResult r;
                        if (l.static_smem_bytes > spec->sm.smem_per_block)
                            continue;
                        occ_compute (spec, &l, &r);
                        int want = oracle (&p, &l);
                        int got = r.status == OCC_OK ? r.blocks_per_sm : 0;
                        (*compared)++;
                        if (want >= 0 && got == want)
                            continue;
                        if (bad++ < 10)
                            printf ("MISMATCH %s: threads %d regs %d static %"
                                    G_GINT64_FORMAT " dyn %" G_GINT64_FORMAT
                                    " carveout %d: smsim %d, cuda_occupancy.h "
                                    "%d\n", spec->id, threads[t], regs,
                                    l.static_smem_bytes, l.dyn_smem_bytes,
                                    carveouts[c], got, want);
                    }
    return bad;
}

int
main (void)
{
    g_auto (GStrv) names = preset_names ();
    long bad = 0, compared = 0;
    for (int i = 0; names[i] != NULL; i++) {
        g_autoptr (GError) error = NULL;
        g_autoptr (Preset) preset = preset_load (names[i], NULL, NULL, &error);
        if (preset == NULL) {
            printf ("FAIL %s: %s\n", names[i], error->message);
            return 1;
        }
        long before = compared;
        long b = check_gpu (preset_spec (preset), &compared);
        printf ("%-8s %8ld launches, %ld mismatches\n", names[i],
                compared - before, b);
        bad += b;
    }
    printf ("%ld launches compared with cuda_occupancy.h, %ld mismatches\n",
            compared, bad);
    return bad == 0 && compared > 0 ? 0 : 1;
}
