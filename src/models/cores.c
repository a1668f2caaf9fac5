/*
 * cores.c -- the host cores a process may use.  See cores.h.
 *
 * GLib's g_get_num_processors counts the machine's cores (GLib 2.74,
 * Debian 12's), not those the process may run on: under `taskset -c 1`
 * on two cores it says 2, and `smsim validate` ran two simulations on
 * the one core, each evicting the other's tags and warps from the host
 * caches at every time slice.
 */
#include "config.h"

#include "models/cores.h"

#ifdef __linux__
#include <sched.h>
#endif

guint
cores_usable (void)
{
#if defined(__linux__) && defined(CPU_COUNT)
    cpu_set_t set;
    CPU_ZERO (&set);
    if (sched_getaffinity (0, sizeof set, &set) == 0 && CPU_COUNT (&set) > 0)
        return (guint) CPU_COUNT (&set);
#endif
    return MAX (g_get_num_processors (), 1);
}
