/*
 * test-preset.c -- the preset loader: the shipped presets, base=
 * inheritance, --set overrides, and every kind of bad preset, each
 * error naming the file, line, key, value and the allowed range.
 *
 * Expected values are the device properties the issue and
 * ../shared/data/ give (deviceQuery dumps, cuda_occupancy.h).
 */
#include "config.h"

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include "models/num.h"
#include "models/pkey.h"
#include "models/preset.h"
#include "testutil.h"

static const char *const shipped[] = { "k40", "p100", "v100", "t4",
                                       "rtx2070", "a100", "a6000", "h100" };

Test (preset, shipped_presets_are_all_listed)
{
    g_auto (GStrv) names = preset_names ();
    for (guint i = 0; i < G_N_ELEMENTS (shipped); i++)
        cr_assert (g_strv_contains ((const char *const *) names, shipped[i]),
                   "%s not listed", shipped[i]);
}

/* Every value outside [preset] carries a source comment; a timing
 * preset has every timing key. */
Test (preset, every_value_has_a_source)
{
    guint n;
    const PkeyInfo *keys = pkey_table (&n);
    for (guint g = 0; g < G_N_ELEMENTS (shipped); g++) {
        g_autoptr (Preset) p = tu_preset (shipped[g]);
        for (guint i = 0; i < n; i++) {
            if (strcmp (keys[i].group, "preset") == 0 || !preset_has (p, i))
                continue;
            cr_expect (strlen (preset_source (p, i)) > 10,
                       "%s: [%s] %s has no source comment", shipped[g],
                       keys[i].group, keys[i].key);
        }
        cr_expect_str_eq (preset_spec (p)->id, shipped[g]);
    }
}

typedef struct {
    const char *gpu;
    int cc_major, cc_minor, sm_count, max_threads, max_blocks;
    int smem_bytes, smem_optin, reserved, sub_partitions;
    gboolean timing;
} Props;

/* DESIGN.md and issue 2 (SM counts, clocks, opt-in limits), data/
 * cc_limits.csv and microarch.md 2.4 (per-cc limits), the CUDA book's
 * table for cc 3.5/6.0/7.0/7.5 (seed 002). */
static const Props props[] = {
    { "k40", 3, 5, 15, 2048, 16, 49152, 49152, 0, 4, FALSE },
    { "p100", 6, 0, 56, 2048, 32, 65536, 49152, 0, 2, FALSE },
    { "v100", 7, 0, 80, 2048, 32, 98304, 98304, 0, 4, TRUE },
    { "t4", 7, 5, 40, 1024, 16, 65536, 65536, 0, 4, TRUE },
    { "rtx2070", 7, 5, 36, 1024, 16, 65536, 65536, 0, 4, FALSE },
    { "a100", 8, 0, 108, 2048, 32, 167936, 166912, 1024, 4, TRUE },
    { "a6000", 8, 6, 84, 1536, 16, 102400, 101376, 1024, 4, TRUE },
    { "h100", 9, 0, 132, 2048, 32, 233472, 232448, 1024, 4, TRUE },
};

Test (preset, device_properties)
{
    for (guint i = 0; i < G_N_ELEMENTS (props); i++) {
        const Props *want = &props[i];
        g_autoptr (Preset) p = tu_preset (want->gpu);
        const GpuSpec *s = preset_spec (p);
        cr_expect_eq (s->device.cc_major, want->cc_major, "%s", want->gpu);
        cr_expect_eq (s->device.cc_minor, want->cc_minor, "%s", want->gpu);
        cr_expect_eq (s->device.sm_count, want->sm_count, "%s", want->gpu);
        cr_expect_eq (s->sm.max_threads, want->max_threads, "%s", want->gpu);
        cr_expect_eq (s->sm.max_blocks, want->max_blocks, "%s", want->gpu);
        cr_expect_eq (s->sm.smem_bytes, want->smem_bytes, "%s", want->gpu);
        cr_expect_eq (s->sm.smem_per_block_optin, want->smem_optin, "%s",
                      want->gpu);
        cr_expect_eq (s->sm.smem_reserved_per_block, want->reserved, "%s",
                      want->gpu);
        cr_expect_eq (s->sm.sub_partitions, want->sub_partitions, "%s",
                      want->gpu);
        cr_expect_eq (s->timing, want->timing, "%s", want->gpu);
        cr_expect_eq (s->device.warp_size, 32);
    }
    /* DESIGN.md: the A100 preset is the SXM4-40GB at 1410 MHz. */
    g_autoptr (Preset) a100 = tu_preset ("a100");
    cr_expect_eq (preset_spec (a100)->device.sm_clock_mhz, 1410);
}

/* ------------------------------------------------------------------ */
/* base= and --set                                                     */

Test (preset, base_inheritance_and_overrides)
{
    g_autofree char *path = tu_write_file (
        "big-rf.ini", "[preset]\nbase = a100\n[sm]\n"
                      "# hypothetical: twice the register file\n"
                      "registers = 131072\nmax_regs_per_block = 131072\n");
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load (NULL, path, NULL, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    const GpuSpec *s = preset_spec (p);
    cr_assert_eq (s->sm.registers, 131072);
    cr_assert_eq (s->device.sm_count, 108, "inherited from a100");
    cr_assert_str_eq (s->id, "big-rf", "a user preset is named by its file");
    guint key = pkey_index (pkey_find ("sm", "registers"));
    int line = 0;
    cr_assert (g_str_has_suffix (preset_origin (p, key, &line), "big-rf.ini"));
    cr_assert_eq (line, 5);
    cr_assert_str_eq (preset_source (p, key),
                      "hypothetical: twice the register file");
    /* What it is compared with (smsim validate --config): its base. */
    cr_assert_str_eq (preset_root (p), "a100");
}

/* The shipped preset a preset starts from: itself by name, the --gpu a
 * --config goes over, the deepest base= by name through a chain of
 * files; none for a file whose chain names no shipped preset. */
Test (preset, root_is_the_shipped_preset_it_starts_from)
{
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) named = preset_load ("a6000", NULL, NULL, &error);
    cr_assert_not_null (named, "%s", error ? error->message : "");
    cr_assert_str_eq (preset_root (named), "a6000");
    g_autofree char *over = tu_write_file ("eight.ini",
                                           "[device]\nsm_count = 8\n");
    g_autoptr (Preset) on_gpu = preset_load ("h100", over, NULL, &error);
    cr_assert_not_null (on_gpu, "%s", error ? error->message : "");
    cr_assert_str_eq (preset_root (on_gpu), "h100");
    g_autofree char *mid = tu_write_file ("mid.ini",
                                          "[preset]\nbase = a100\n"
                                          "[device]\nsm_count = 8\n");
    g_autofree char *top_text = g_strdup_printf (
        "[preset]\nbase = %s\n[device]\nsm_count = 4\n", mid);
    g_autofree char *top = tu_write_file ("top.ini", top_text);
    g_autoptr (Preset) chained = preset_load (NULL, top, NULL, &error);
    cr_assert_not_null (chained, "%s", error ? error->message : "");
    cr_assert_eq (preset_spec (chained)->device.sm_count, 4);
    cr_assert_str_eq (preset_root (chained), "a100");
    g_autofree char *a100 = g_build_filename (
        g_getenv ("SMSIM_PRESET_DIR"), "a100.ini", NULL);
    g_autoptr (Preset) by_path = preset_load (a100, NULL, NULL, &error);
    cr_assert_not_null (by_path, "%s", error ? error->message : "");
    cr_assert_null (preset_root (by_path), "a path names no shipped preset");
}

/* A fault in a base is every preset's built on it, and each names the
 * base= line it came through: `smsim gpus` printed a broken base's
 * message once for each preset on it, the same words each time. */
Test (preset, a_bases_fault_names_the_chain)
{
    g_autoptr (GError) error = NULL;
    g_autofree char *broken = tu_write_file ("broken.ini",
                                             "[preset]\nbase = a100\n"
                                             "[device]\nsm_count = 0\n");
    g_autofree char *mid_text = g_strdup_printf ("[preset]\nbase = %s\n",
                                                 broken);
    g_autofree char *mid = tu_write_file ("mid.ini", mid_text);
    g_autoptr (Preset) p = preset_load (NULL, mid, NULL, &error);
    cr_assert_null (p);
    g_autofree char *want = g_strdup_printf (
        "%s:2: [preset] base = %s: %s:4: [device] sm_count = 0: must be",
        mid, broken, broken);
    cr_assert (g_str_has_prefix (error->message, want), "%s\nnot\n%s",
               error->message, want);
}

Test (preset, set_overrides_last)
{
    const char *sets[] = { "sm.registers=131072", "device.sm_count = 8", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a100", NULL, sets, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    cr_assert_eq (preset_spec (p)->sm.registers, 131072);
    cr_assert_eq (preset_spec (p)->device.sm_count, 8);
    cr_assert_str_eq (preset_origin (p, pkey_index (pkey_find ("sm",
                                                               "registers")),
                                     NULL),
                      "--set");
}

Test (preset, config_over_gpu)
{
    g_autofree char *path = tu_write_file ("eight-sm.ini",
                                           "[device]\n# what-if\nsm_count = 8\n");
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("h100", path, NULL, &error);
    cr_assert_not_null (p, "%s", error ? error->message : "");
    cr_assert_eq (preset_spec (p)->device.sm_count, 8);
    cr_assert_eq (preset_spec (p)->sm.smem_bytes, 233472);
}

/* A preset is named as its file, and a trace header or a table takes a
 * name (traces/FORMAT.md): "my gpu.ini" wrote 'gpu my gpu', a header
 * line the trace reader refused. */
Test (preset, a_file_name_that_is_no_name_is_refused)
{
    g_autofree char *path = tu_write_file ("my gpu.ini",
                                           "[preset]\nbase = a100\n");
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load (NULL, path, NULL, &error);
    cr_assert_null (p);
    cr_assert (g_error_matches (error, SMSIM_PRESET_ERROR, PRESET_ERROR_VALUE));
    cr_assert (strstr (error->message, "'my gpu' is no name") != NULL, "%s",
               error->message);
}

/* ------------------------------------------------------------------ */
/* Bad presets: each error names what is wrong and where               */

/* Criterion hands each row to a fresh process: rows hold arrays, not
 * pointers.  An empty string stands for "none". */
typedef struct {
    char file[96];         /* contents of a user preset */
    char set[48];          /* one --set */
    char gpu[24];          /* --gpu */
    PresetError code;
    char needles[3][48];
} Bad;

static const Bad bad[] = {
    { "[preset]\nbase = a100\n[sm]\nbogus = 1\n", "", "",
      PRESET_ERROR_UNKNOWN_KEY, { "bad.ini:4:", "[sm] bogus", "" } },
    { "[preset]\nbase = a100\n[smx]\nregisters = 1\n", "", "",
      PRESET_ERROR_UNKNOWN_KEY, { "bad.ini:4:", "[smx] registers", "" } },
    /* GKeyFile reads "key[locale]" as a translation of key, and keeps
     * only those of the user's languages: refused as written instead,
     * whatever the locale. */
    { "[preset]\nbase = a100\n[sm]\nregisters[de] = abc\n", "", "",
      PRESET_ERROR_UNKNOWN_KEY, { "bad.ini:4:", "[sm] registers[de]", "" } },
    { "[preset]\nbase = a100\n[sm]\nfoo[x] = 1\n", "", "",
      PRESET_ERROR_UNKNOWN_KEY, { "bad.ini:4:", "[sm] foo[x]", "" } },
    { "[preset]\nbase = a100\n[bogus]\nx[y]=1\n", "", "",
      PRESET_ERROR_UNKNOWN_KEY, { "bad.ini:4:", "[bogus] x[y]", "" } },
    /* A group with no keys is no less unknown. */
    { "[preset]\nbase = a100\n[bogus]\n", "", "",
      PRESET_ERROR_UNKNOWN_KEY, { "bad.ini:3:", "[bogus]", "" } },
    { "[preset]\nbase = a100\n[sm]\nmax_threads = 2000000\n", "", "",
      PRESET_ERROR_VALUE,
      { "bad.ini:4:", "[sm] max_threads = 2000000", "32..8192" } },
    { "[preset]\nbase = a100\n[sm]\nmax_threads = 2k\n", "", "",
      PRESET_ERROR_VALUE, { "bad.ini:4:", "not an integer", "" } },
    { "[preset]\nbase = a100\n[sm]\nmax_threads = -64\n", "", "",
      PRESET_ERROR_VALUE, { "bad.ini:4:", "-64", "32..8192" } },
    { "[preset]\nbase = a100\n[device]\ndram_bandwidth_gbs = fast\n", "",
      "", PRESET_ERROR_VALUE, { "bad.ini:4:", "not a number", "" } },
    /* strtod reads C's hex floats, infinity and NaN: a preset's values
     * are decimal (query shows them as written), and a NaN would pass
     * no range check. */
    { "[preset]\nbase = a100\n[device]\ndram_bandwidth_gbs = 0x1p10\n",
      "", "", PRESET_ERROR_VALUE,
      { "bad.ini:4:", "dram_bandwidth_gbs = 0x1p10", "not a number in "
                                                     "decimal" } },
    { "[preset]\nbase = a100\n[device]\nlaunch_gap_us = nan\n", "", "",
      PRESET_ERROR_VALUE,
      { "bad.ini:4:", "launch_gap_us = nan", "not a number in decimal" } },
    { "", "device.dram_bandwidth_gbs=inf", "a100", PRESET_ERROR_VALUE,
      { "--set [device] dram_bandwidth_gbs = inf", "not a number in decimal",
        "" } },
    { "[preset]\nbase = a100\n[sched]\npolicy = fifo\n", "", "",
      PRESET_ERROR_VALUE, { "bad.ini:4:", "lrr|gto|cggty", "" } },
    { "[preset]\nbase = a100\n[alloc]\ncarveout_steps_kib = 0;64;32\n", "",
      "", PRESET_ERROR_VALUE, { "bad.ini:4:", "ascending", "" } },
    { "[preset]\nbase = a100\n[preset]\ntiming = maybe\n", "", "",
      PRESET_ERROR_VALUE, { "bad.ini:4:", "true or false", "" } },
    { "[preset]\nbase = a100\nthis line is junk\n", "", "",
      PRESET_ERROR_PARSE, { "bad.ini:3:", "junk", "" } },
    { "[preset\nbase = a100\n", "", "", PRESET_ERROR_PARSE,
      { "bad.ini:1:", "[group]", "" } },
    { "registers = 1\n[sm]\n", "", "", PRESET_ERROR_PARSE,
      { "bad.ini:1:", "before any [group]", "" } },
    { "[preset]\nbase = a100\n[sm]\nregisters = 1024\nregisters = 2048\n",
      "", "", PRESET_ERROR_PARSE, { "bad.ini:5:", "first at line 4", "" } },
    { "[preset]\nbase = a100\n[sm]\nmax_threads = 2048 # comment\n", "",
      "", PRESET_ERROR_VALUE, { "bad.ini:4:", "not an integer", "" } },
    /* No base: everything is missing. */
    { "[preset]\nname = bad\n", "", "", PRESET_ERROR_MISSING,
      { "[device] sm_count", "[sm] registers", "" } },
    /* A file is named as itself (bad.ini: bad), or it would pass for
     * the GPU it names: listed twice, its traces replayed on that one. */
    { "[preset]\nbase = a100\nname = a100\n", "", "", PRESET_ERROR_VALUE,
      { "bad.ini:3: [preset] name = a100", "named as its file, bad", "" } },
    /* A base that does not exist, and one that comes back. */
    { "[preset]\nbase = no-such-gpu\n", "", "", PRESET_ERROR_NOT_FOUND,
      { "bad.ini:2:", "no-such-gpu", "a100" } },
    { "[preset]\nbase = bad.ini\n", "", "", PRESET_ERROR_BASE,
      { "bad.ini:2: [preset] base = bad.ini: ", "comes back", "" } },
    /* A base= file that cannot be read is its line's error: the
     * message named the base's path alone, not the file and line that
     * name it. */
    { "[preset]\nbase = missing.ini\n", "", "", PRESET_ERROR_NOT_FOUND,
      { "bad.ini:2: [preset] base = missing.ini: ", "missing.ini", "" } },
    { "[preset]\nbase = /dev/null\n", "", "", PRESET_ERROR_NOT_FOUND,
      { "bad.ini:2: [preset] base = /dev/null: ", "a character device",
        "" } },
    /* Values that contradict each other. */
    { "[preset]\nbase = a100\n[sm]\nmax_threads = 2050\n", "", "",
      PRESET_ERROR_INCONSISTENT,
      { "bad.ini:4: [sm] max_threads = 2050", "warp size", "" } },
    { "[preset]\nbase = a100\n[sm]\nsmem_bytes = 200000\n", "", "",
      PRESET_ERROR_INCONSISTENT, { "bad.ini:4:", "carveout_steps_kib", "" } },
    { "", "sm.registers=huge", "a100", PRESET_ERROR_VALUE,
      { "--set [sm] registers = huge", "not an integer", "" } },
    /* An integer too big for any type is out of the key's range
     * (pkey.c: [sm] registers 1024..4194304, carveout_steps_kib items
     * 0..65536), not "not an integer". */
    { "", "sm.registers=99999999999999999999", "a100", PRESET_ERROR_VALUE,
      { "= 99999999999999999999: out of range", "1024..4194304 registers",
        "" } },
    { "", "sm.registers=-99999999999999999999", "a100", PRESET_ERROR_VALUE,
      { "out of range", "1024..4194304 registers", "" } },
    { "", "alloc.carveout_steps_kib=0;99999999999999999999", "a100",
      PRESET_ERROR_VALUE,
      { "item 99999999999999999999 is outside 0..65536", "", "" } },
    { "[preset]\nbase = a100\n[sm]\nregisters = 99999999999999999999\n",
      "", "", PRESET_ERROR_VALUE,
      { "bad.ini:4:", "out of range", "1024..4194304" } },
    /* A list separated as CSV is: GKeyFile's lists take ';'. */
    { "", "alloc.carveout_steps_kib=200,100", "a100", PRESET_ERROR_VALUE,
      { "'200,100' is not an integer", "separated by ';'", "" } },
    /* A preset's name goes into a trace's header line 'gpu NAME',
     * which takes a name (traces/FORMAT.md): 'my gpu' wrote a trace its
     * reader refused, and a line break wrote header lines of its own. */
    { "[preset]\nbase = a100\nname = my gpu\n", "", "", PRESET_ERROR_VALUE,
      { "name = my gpu", "letters, digits", "" } },
    /* A preset is named as its file, so --set cannot rename it. */
    { "", "preset.name=a6000", "a100", PRESET_ERROR_UNKNOWN_KEY,
      { "--set preset.name=a6000", "only be set in a preset file", "" } },
    { "[preset]\nbase = a100\nname = ../../x\n", "", "", PRESET_ERROR_VALUE,
      { "bad.ini:3:", "letters, digits", "" } },
    { "", "device.name=x\nkernel evil", "a100", PRESET_ERROR_VALUE,
      { "name = x\\nkernel evil: ", "one line of text", "" } },
    { "", "sm.nonsense=1", "a100", PRESET_ERROR_UNKNOWN_KEY,
      { "sm.nonsense", "unknown key", "" } },
    /* Not GROUP.KEY=VALUE, or a part empty: the form (exit 1 in the
     * commands), not an unknown key. */
    { "", "registers", "a100", PRESET_ERROR_FORM,
      { "GROUP.KEY=VALUE", "", "" } },
    { "", "sm.=5", "a100", PRESET_ERROR_FORM, { "--set sm.=5", "", "" } },
    { "", "sm.registers= ", "a100", PRESET_ERROR_FORM,
      { "GROUP.KEY=VALUE", "", "" } },
    { "", "sm.sub_partitions=3", "a100", PRESET_ERROR_INCONSISTENT,
      { "[sm] registers = 65536", "sub-partitions", "" } },
    /* A100: 4 sub-partitions x 16 FP32 lanes = 64 (whitepaper). */
    { "", "pipe.fma_lanes=32", "a100", PRESET_ERROR_INCONSISTENT,
      { "--set [pipe] fma_lanes = 32", "fp32_lanes = 64", "" } },
    /* A rule of three keys names all three: a --set of the third
     * alone broke it while the message showed the other two, as the
     * files had them.  A100: 166912 B opt-in + a 2048-B reserve is
     * more than its 167936 B; 2 sub-partitions x 16 lanes are not 64;
     * A6000: a lite half needs fma_lanes above its 16 heavy ones. */
    { "", "sm.smem_reserved_per_block=2048", "a100",
      PRESET_ERROR_INCONSISTENT,
      { "smem_per_block_optin = 166912", "smem_bytes = 167936",
        "--set [sm] smem_reserved_per_block = 2048" } },
    { "", "sm.sub_partitions=2", "a100", PRESET_ERROR_INCONSISTENT,
      { "fma_lanes = 16", "fp32_lanes = 64",
        "--set [sm] sub_partitions = 2" } },
    { "[preset]\nbase = a6000\n[pipe]\nfma_lanes = 16\n[sm]\n"
      "fp32_lanes = 64\n", "", "", PRESET_ERROR_INCONSISTENT,
      { "alu_on_fmalite = true", "fma_heavy_lanes = 16",
        "bad.ini:4: [pipe] fma_lanes = 16" } },
    /* A line is an address's low bits: 96 bytes (3 sectors) is not. */
    { "", "mem.l1_line_bytes=96", "a6000", PRESET_ERROR_INCONSISTENT,
      { "--set [mem] l1_line_bytes = 96", "power of two", "" } },
    /* The instruction caches are sets of 4 lines of 128 B (icache.h):
     * 16 KB is 32 of them, 1000 bytes not a whole number. */
    { "", "fetch.l0_bytes=1000", "a6000", PRESET_ERROR_INCONSISTENT,
      { "--set [fetch] l0_bytes = 1000", "multiple of 512", "" } },
    { "", "fetch.l1_bytes=640", "t4", PRESET_ERROR_INCONSISTENT,
      { "--set [fetch] l1_bytes = 640", "whole sets", "" } },
    /* Bandwidth of part of a wavefront, which the timing model took as
     * a whole one (the caches' room is checked per launch: run.h). */
    { "", "mem.smem_bytes_per_clk=64", "a100", PRESET_ERROR_INCONSISTENT,
      { "smem_bytes_per_clk = 64", "smem_banks = 32", "" } },
    /* The A100's datasheet peak 1555 GB/s; the timing model runs DRAM
     * at the measured 1500, so a lower peak alone changed nothing. */
    { "", "device.dram_bandwidth_gbs=1", "a100", PRESET_ERROR_INCONSISTENT,
      { "dram_stream_gbs = 1500", "more than the peak",
        "dram_bandwidth_gbs = 1)" } },
    { "", "", "a1000", PRESET_ERROR_NOT_FOUND,
      { "unknown GPU 'a1000'", "a6000", "" } },
    { "", "", "/nonexistent/x.ini", PRESET_ERROR_NOT_FOUND,
      { "/nonexistent/x.ini", "", "" } },
};

ParameterizedTestParameters (preset, bad_presets)
{
    return cr_make_param_array (Bad, bad, G_N_ELEMENTS (bad));
}

ParameterizedTest (const Bad *b, preset, bad_presets)
{
    g_autofree char *path = *b->file ? tu_write_file ("bad.ini", b->file) : NULL;
    const char *sets[] = { *b->set ? b->set : NULL, NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load (*b->gpu ? b->gpu : NULL, path, sets,
                                        &error);
    cr_assert_null (p, "loaded: %s / %s", b->file, b->set);
    cr_assert_not_null (error);
    cr_assert (g_error_matches (error, SMSIM_PRESET_ERROR, (gint) b->code),
               "code %d, expected %d: %s", error->code, b->code, error->message);
    for (int i = 0; i < 3 && *b->needles[i]; i++)
        cr_assert (strstr (error->message, b->needles[i]) != NULL,
                   "'%s' lacks '%s'", error->message, b->needles[i]);
}

/* A rule of one key names it once: "l1_line_bytes = 96: must be a
 * power of two", not that and again "(--set [mem] l1_line_bytes = 96)". */
Test (preset, a_rule_of_one_key_names_it_once)
{
    const char *sets[] = { "mem.l1_line_bytes=96", NULL };
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("a6000", NULL, sets, &error);
    cr_assert_null (p);
    cr_assert_not_null (error);
    const char *first = strstr (error->message, "l1_line_bytes");
    cr_assert_not_null (first, "%s", error->message);
    cr_assert_null (strstr (first + 1, "l1_line_bytes"),
                    "named twice: %s", error->message);
}

/* A command line's --set names each key once (the last won); its
 * spacing does not make another key.  preset_load itself still lets a
 * later assignment win: sweeps and figures layer theirs on the user's. */
Test (preset, check_sets_refuses_a_key_twice)
{
    const char *twice[] = { "sm.registers=65536", "device.sm_count=8",
                            " sm . registers =131072", NULL };
    const char *once[] = { "sm.registers=131072",
                           "sm.max_regs_per_block=131072", NULL };
    /* Not GROUP.KEY=VALUE: refused on the spot, as the command line's
     * form, before any preset is read. */
    const char *malformed[] = { "sm.registers=131072", "nonsense", NULL };
    g_autoptr (GError) error = NULL;
    cr_assert_not (preset_check_sets (twice, &error));
    cr_assert (g_error_matches (error, SMSIM_PRESET_ERROR,
                                PRESET_ERROR_SET_TWICE), "%s", error->message);
    cr_assert (strstr (error->message, "--set sm.registers given twice") != NULL,
               "%s", error->message);
    g_clear_error (&error);
    cr_assert_not (preset_check_sets (malformed, &error));
    cr_assert (strstr (error->message, "--set nonsense: expected GROUP.KEY=VALUE")
                   != NULL, "%s", error->message);
    cr_assert (preset_check_sets (once, NULL));
    cr_assert (preset_check_sets (NULL, NULL));
    const char *layered[] = { "sm.registers=65536", "sm.registers=131072",
                              NULL };
    g_autoptr (Preset) p = preset_load ("a100", NULL, layered, NULL);
    cr_assert_not_null (p);
    cr_assert_eq (preset_spec (p)->sm.registers, 131072);
}

/* The key table's type and range (pkey.c), without a preset: what a
 * sweep checks its values by before any point runs. */
Test (preset, value_problem_by_type_and_range)
{
    const struct {
        const char *name, *text, *want;    /* want NULL: taken */
    } cases[] = {
        { "sm.registers", "65536", NULL },
        { "sm.registers", "abc", "not an integer" },
        { "sm.registers", "512", "must be 1024..4194304 registers" },
        { "device.dram_bandwidth_gbs", "1555", NULL },
        { "device.dram_bandwidth_gbs", "1555.5", NULL },
        { "device.dram_bandwidth_gbs", "1.5e3", NULL },
        { "device.dram_bandwidth_gbs", "0x1p10", "not a number in decimal" },
        { "device.dram_bandwidth_gbs", "1e", "not a number in decimal" },
        { "device.dram_bandwidth_gbs", "infinity", "not a number in decimal" },
        { "device.dram_bandwidth_gbs", "-nan", "not a number in decimal" },
        { "device.dram_bandwidth_gbs", "1e999", "not a number in decimal" },
        { "device.name", "My GPU", NULL },
        { "alloc.carveout", "yes", "must be true or false" },
        { "alloc.carveout_steps_kib", "0;8;4", "strictly ascending" },
        { "sched.policy", "gto", NULL },
        { "sched.policy", "fastest", "must be one of" },
        { "sm.registerz", "1", "no preset key sm.registerz" },
        { "registers", "1", "no preset key registers" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        g_autofree char *why = preset_value_problem (cases[i].name,
                                                     cases[i].text);
        if (cases[i].want == NULL)
            cr_expect_null (why, "%s = %s: %s", cases[i].name, cases[i].text,
                            why);
        else
            cr_expect (why != NULL && strstr (why, cases[i].want) != NULL,
                       "%s = %s: '%s', expected '%s'", cases[i].name,
                       cases[i].text, why ? why : "(taken)", cases[i].want);
    }
}

/* A key without a unit (pkey.c: sm.sub_partitions, 1..16) ends its
 * message at the range: "must be 1..16 " had a space for the unit. */
Test (preset, a_range_without_a_unit_ends_there)
{
    g_autofree char *low = preset_value_problem ("sm.sub_partitions", "0");
    g_autofree char *huge = preset_value_problem ("sm.sub_partitions",
                                                  "99999999999999999999");
    cr_assert_str_eq (low, "must be 1..16");
    cr_assert_str_eq (huge, "out of range: must be 1..16");
}

Test (preset, gpu_and_config_with_base_conflict)
{
    g_autofree char *path = tu_write_file ("both.ini",
                                           "[preset]\nbase = a100\n");
    g_autoptr (GError) error = NULL;
    g_autoptr (Preset) p = preset_load ("h100", path, NULL, &error);
    cr_assert_null (p);
    cr_assert (strstr (error->message, "give one") != NULL, "%s",
               error->message);
}

/* ------------------------------------------------------------------ */
/* Numbers from user text (num.h), which preset values are read with   */

/* The whole text must be the number: an empty one is none, and leaves
 * the output alone. */
Test (num, an_empty_text_is_no_integer)
{
    gint64 v = 7;
    cr_expect_not (num_parse_int ("", &v));
    cr_expect_not (num_parse_int ("-", &v));
    cr_expect_eq (v, 7);
    cr_expect (num_parse_int ("-12", &v));
    cr_expect_eq (v, -12);
}

/* The number fills the text: no space before it, as none after. */
Test (num, an_integer_has_no_space_around_it)
{
    gint64 v = 7;
    cr_expect_not (num_parse_int (" 64", &v));
    cr_expect_not (num_parse_int ("\t64", &v));
    cr_expect_not (num_parse_int ("64 ", &v));
    cr_expect_not (num_parse_int ("- 64", &v));
    cr_expect_eq (v, 7);
    cr_expect (num_parse_int ("+64", &v));
    cr_expect_eq (v, 64);
}

/* An optionally signed run of digits, of any length: at least one
 * digit.  20 nines are past gint64 (9.2 x 10^18) yet an integer, what
 * tells "out of range" from "not an integer"; "", "-" and "+" are
 * none. */
Test (num, an_integer_has_a_digit)
{
    cr_expect (num_is_integer ("99999999999999999999"));
    cr_expect (num_is_integer ("-0"));
    cr_expect (num_is_integer ("+5"));
    cr_expect_not (num_is_integer (""));
    cr_expect_not (num_is_integer ("-"));
    cr_expect_not (num_is_integer ("+"));
    cr_expect_not (num_is_integer ("1.0"));
}

/* The largest binary unit the size makes at least one of (num.h):
 * 1023 B is short of 1 KiB = 1024 B; 1024 B is 1.0 KiB; 1536 B is 1.5
 * KiB; 2^20 B is 1.0 MiB; 3 x 2^30 B is 3.0 GiB. */
Test (num, sizes_take_the_largest_unit_they_make_one_of)
{
    static const struct {
        double bytes;
        const char *want;
    } cases[] = {
        { 0, "0 B" },
        { 1023, "1023 B" },
        { 1024, "1.0 KiB" },
        { 1536, "1.5 KiB" },
        { 1048576, "1.0 MiB" },
        /* 1023.96 KiB: "1024.0 KiB" to one decimal, so a MiB. */
        { 1048575, "1.0 MiB" },
        /* 1023.6 B: "1024 B" to the byte, so a KiB. */
        { 1023.6, "1.0 KiB" },
        { 1073741824.0 * 3, "3.0 GiB" },
    };
    for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
        g_autofree char *got = num_bytes_text (cases[i].bytes);
        cr_expect_str_eq (got, cases[i].want, "%.0f B", cases[i].bytes);
    }
}
