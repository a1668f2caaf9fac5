/*
 * lsu.h -- one of the SM's memory instruction queues (local/global, or
 * MIO for shared memory), between the warp schedulers and the memory
 * system.
 *
 * Issued memory instructions wait here, in order, until the memory
 * system takes them (mem.h: it says when it can take the next).  A full
 * queue holds back warps whose next instruction needs it: Nsight
 * Compute's lg_throttle and mio_throttle.  The queue runs on events only
 * while it holds something.
 */
#ifndef SMSIM_SIM_LSU_H
#define SMSIM_SIM_LSU_H

#include "sim/evq.h"
#include "sim/mem.h"

typedef struct LsuQueue LsuQueue;

/* Called when a full queue gets room again, so held warps can retry. */
typedef void (*LsuRoom) (void *ctx, Cycle now);

LsuQueue *lsu_new (int depth, EvqQueue *q, MemSys *mem, int sm,
                   LsuRoom room, void *room_ctx);
void lsu_free (LsuQueue *lsu);

gboolean lsu_has_room (const LsuQueue *lsu);

/* Told of each request the moment the memory system takes it (after
 * it has), with the request's cookie: how mirror SMs (gpu.h) send
 * their own requests in step with it. */
typedef void (*LsuHandedOver) (void *ctx, guint64 cookie, Cycle now);
void lsu_set_hand_over_hook (LsuQueue *lsu, LsuHandedOver hook, void *ctx);

/* Queue 'instr' (copied) at 'now'; the memory system gets it when its
 * turn comes and reports to done (ctx, cookie, t). */
void lsu_push (LsuQueue *lsu, const Instr *instr, guint64 cookie,
               MemDone done, void *ctx, Cycle now);

#endif
