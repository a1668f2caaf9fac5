/*
 * cores.h -- how many host cores this process may run on: the number of
 * threads for work that runs one simulation a thread (validate, plot,
 * sweep's default -j).
 */
#ifndef SMSIM_MODELS_CORES_H
#define SMSIM_MODELS_CORES_H

#include <glib.h>

/* The cores of this process's CPU affinity mask (taskset, a cgroup's
 * cpuset), at least 1; where the mask cannot be read, every core. */
guint cores_usable (void);

#endif
