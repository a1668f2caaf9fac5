/*
 * report.h -- one simulated launch, run and reported: the options
 * `smsim run` and `smsim trace replay` share (--regs, --smem, --exact,
 * --sampled, --window, --detailed-sms, --launches, --format, --output,
 * --verbose),
 * the run with its progress bar, and its text or JSON report, so a
 * replayed trace reports exactly as its model does.
 */
#ifndef SMSIM_CLI_REPORT_H
#define SMSIM_CLI_REPORT_H

#include "cli/cli.h"
#include "models/kern.h"
#include "models/preset.h"

typedef struct {
    gint64 regs;            /* G_MININT64: not given */
    gint64 smem;            /* G_MININT64: not given */
    gboolean exact;
    gboolean sampled;
    gint detailed_sms;
    gint64 window;          /* G_MININT64: not given */
    gint64 launches;
    gboolean verbose;
    char *format;
    char *output;
    GOptionEntry entries[11];
} ReportOptions;

void report_options_init (ReportOptions *o);
void report_options_clear (ReportOptions *o);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ReportOptions, report_options_clear)

/* The --format given (text or json). */
gboolean report_format (const ReportOptions *o, CliFormat *format,
                        GError **error);

/* Simulate 'k' on 'preset' and write the report; the exit status. */
int report_run (const CmdEntry *cmd, const Preset *preset,
                const KernInstance *k, const ReportOptions *o,
                CliFormat format);

#endif
