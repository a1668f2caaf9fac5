/*
 * testutil.h -- what the Criterion suites share: loading a shipped
 * preset (the tests run against the real files) and scratch files.
 */
#ifndef SMSIM_TESTS_TESTUTIL_H
#define SMSIM_TESTS_TESTUTIL_H

#include "models/preset.h"

/* A shipped preset by name; fails the test if it does not load. */
Preset *tu_preset (const char *name);

/* Write 'text' to a new file in a scratch directory; returns its path. */
char *tu_write_file (const char *name, const char *text);

#endif
