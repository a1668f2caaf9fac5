/*
 * trace_line.c -- an instruction line: format and parse.  See
 * trace_line.h; the grammar is in traces/FORMAT.md.
 *
 *   OP DST SRC0 SRC1 SRC2 [m=MASK] [w=BYTES] [c=STALL/YIELD/SB/WAIT]
 *                         [a=BASE+STRIDE | A=ADDR0,+D1,...,+D31]
 *
 * Explicit addresses are written as lane 0's address and then each
 * lane's difference from the lane before: the same 32 addresses, in a
 * third of the bytes of 32 full ones (a warp's lanes are usually near).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "models/trace_line.h"
#include "models/trace_store.h"

/* TRUE for the operations that carry a width and lane addresses. */
static gboolean
is_memory (InstrOp op)
{
    InstrPipe pipe = instr_info (op)->pipe;
    return pipe == PIPE_LG || pipe == PIPE_MIO;
}

/* A source register's reuse bit (Instr.reuse), as SASS prints it. */
#define REUSE ".reuse"

static void
format_reg (GString *out, guint8 reg)
{
    if (reg == INSTR_NO_REG)
        g_string_append (out, " RZ");
    else
        g_string_append_printf (out, " R%u", reg);
}

void
trace_line_format (GString *out, const Instr *in)
{
    g_string_append (out, instr_info ((InstrOp) in->op)->name);
    format_reg (out, in->dst);
    if (in->n_dst != 1)
        g_string_append_printf (out, "x%u", in->n_dst);
    for (int i = 0; i < 3; i++) {
        format_reg (out, in->src[i]);
        if (in->reuse >> i & 1)
            g_string_append (out, REUSE);
    }
    if (in->active != 0xffffffffu)
        g_string_append_printf (out, " m=%x", in->active);
    if (in->width != 0)
        g_string_append_printf (out, " w=%u", in->width);
    if (in->ctrl) {
        g_string_append_printf (out, " c=%u/%u/", in->stall, in->yield);
        if (in->wr_sb == INSTR_NO_SB)
            g_string_append_c (out, '-');
        else
            g_string_append_printf (out, "%u", in->wr_sb);
        g_string_append_printf (out, "/%x", in->wait_mask);
    }
    if (in->addr_mode == INSTR_ADDR_STRIDE)
        g_string_append_printf (out, " a=%" G_GINT64_MODIFIER "x%+"
                                G_GINT64_FORMAT, in->addr_base,
                                in->addr_stride);
    if (in->addr_mode == INSTR_ADDR_EXPLICIT) {
        g_string_append_printf (out, " A=%" G_GINT64_MODIFIER "x", in->addr[0]);
        for (int lane = 1; lane < 32; lane++)
            g_string_append_printf (out, ",%+" G_GINT64_FORMAT,
                                    (gint64) (in->addr[lane] - in->addr[lane - 1]));
    }
    g_string_append_c (out, '\n');
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

/* An unsigned number in 'base' spanning exactly [s, end). */
static gboolean
number (const char *s, const char *end, guint base, guint64 max, guint64 *out)
{
    char *stop = NULL;
    if (s == end || !g_ascii_isxdigit (*s))
        return FALSE;
    errno = 0;
    *out = g_ascii_strtoull (s, &stop, base);
    return errno == 0 && stop == end && *out <= max;
}

/* A signed decimal that starts with '+' or '-' and ends at a ',', a
 * space or the line's end; '*s' moves past it. */
static gboolean
signed_number (const char **s, gint64 *out)
{
    char *stop = NULL;
    if (**s != '+' && **s != '-')
        return FALSE;
    errno = 0;
    *out = g_ascii_strtoll (*s, &stop, 10);
    if (errno != 0 || stop == *s + 1 || (*stop != ',' && *stop != ' ' &&
                                         *stop != '\0'))
        return FALSE;
    *s = stop;
    return TRUE;
}

/* Source 'slot''s register, or the destination (slot -1).  A source
 * register may end in ".reuse", SASS's spelling of its reuse bit. */
static gboolean
parse_reg (const char *tok, const char *end, int slot, Instr *in,
           guint8 *reg, GError **error)
{
    gboolean dst = slot < 0;
    gsize rlen = strlen (REUSE);
    if (!dst && end - tok > (gssize) rlen + 1 &&
        memcmp (end - rlen, REUSE, rlen) == 0 && tok[1] != 'Z') {
        end -= rlen;
        in->reuse |= (guint8) (1u << slot);
    }
    const char *x = dst ? memchr (tok, 'x', (gsize) (end - tok)) : NULL;
    const char *num_end = x ? x : end;
    guint64 v = INSTR_NO_REG, n = 1;
    gboolean ok = end - tok >= 2 && tok[0] == 'R' &&
                  ((num_end - tok == 2 && tok[1] == 'Z') ||
                   number (tok + 1, num_end, 10, INSTR_NO_REG - 1, &v));
    if (ok && x != NULL)
        ok = number (x + 1, end, 10, 4, &n) && n >= 1;
    /* Consecutive registers stop at R254: R255 is RZ. */
    if (ok && v != INSTR_NO_REG && v + n - 1 > INSTR_NO_REG - 1)
        return trace_format_error (
            error, "destination register '%.*s': runs past R254 (R255 is RZ)",
            (int) (end - tok), tok);
    if (!ok)
        return trace_format_error (
            error, "%s register '%.*s': must be R0..R254 or RZ%s",
            dst ? "destination" : "source", (int) (end - tok), tok,
            dst ? ", with xN for N = 1..4 consecutive registers"
                : " (R0..R254 may end in .reuse)");
    *reg = (guint8) v;
    if (dst)
        in->n_dst = (guint8) n;
    return TRUE;
}

static gboolean
parse_op (const char *tok, const char *end, Instr *in, GError **error)
{
    char name[16];
    gsize n = (gsize) (end - tok);
    int op = -1;
    if (n < sizeof name) {
        memcpy (name, tok, n);
        name[n] = '\0';
        op = instr_op_from_name (name);
    }
    if (op < 0) {
        g_autoptr (GString) known = g_string_new (NULL);
        for (int i = 0; i < INSTR_N_OPS; i++)
            g_string_append_printf (known, "%s%s", i ? " " : "",
                                    instr_info ((InstrOp) i)->name);
        return trace_format_error (error, "opcode '%.*s': unknown (one of %s)",
                                   (int) n, tok, known->str);
    }
    instr_init (in, (InstrOp) op);
    return TRUE;
}

static gboolean
parse_ctrl (const char *v, const char *end, Instr *in, GError **error)
{
    const char *slash[3], *p = v;
    guint64 stall, yield, sb = INSTR_NO_SB, wait;
    for (int i = 0; i < 3; i++) {
        slash[i] = memchr (p, '/', (gsize) (end - p));
        if (slash[i] == NULL)
            return trace_format_error (
                error, "field 'c=%.*s': must be STALL/YIELD/SB/WAIT",
                (int) (end - v), v);
        p = slash[i] + 1;
    }
    gboolean no_sb = slash[2] - slash[1] == 2 && slash[1][1] == '-';
    if (!number (v, slash[0], 10, 15, &stall) ||
        !number (slash[0] + 1, slash[1], 10, 1, &yield) ||
        (!no_sb && !number (slash[1] + 1, slash[2], 10, INSTR_N_SB - 1, &sb)) ||
        !number (slash[2] + 1, end, 16, (1u << INSTR_N_SB) - 1, &wait))
        return trace_format_error (error,
                                   "field 'c=%.*s': stall 0..15, yield 0 or 1, "
                                   "counter 0..5 or -, wait mask hex 0..3f",
                                   (int) (end - v), v);
    in->ctrl = 1;
    in->stall = (guint8) stall;
    in->yield = (guint8) yield;
    in->wr_sb = (guint8) sb;
    in->wait_mask = (guint8) wait;
    return TRUE;
}

static gboolean
parse_stride (const char *v, const char *end, Instr *in, GError **error)
{
    const char *p = v;
    while (p < end && *p != '+' && *p != '-')
        p++;
    const char *s = p;
    if (!number (v, p, 16, G_MAXUINT64, &in->addr_base) ||
        !signed_number (&s, &in->addr_stride) || s != end)
        return trace_format_error (
            error,
            "field 'a=%.*s': must be BASE(hex)+STRIDE or "
            "BASE-STRIDE (bytes, decimal)",
            (int) (end - v), v);
    in->addr_mode = INSTR_ADDR_STRIDE;
    return TRUE;
}

static gboolean
parse_explicit (const char *v, const char *end, Instr *in, GError **error)
{
    const char *comma = memchr (v, ',', (gsize) (end - v));
    const char *p = comma ? comma : end;
    int lanes = 1;
    if (!number (v, p, 16, G_MAXUINT64, &in->addr[0]))
        return trace_format_error (
            error, "field 'A': lane 0's address '%.*s' is not hex",
            (int) (p - v), v);
    while (p < end) {
        gint64 d;
        p++;
        if (lanes == 32)
            return trace_format_error (
                error, "field 'A': more than 32 addresses (one per "
                       "lane)");
        if (!signed_number (&p, &d) || p > end)
            return trace_format_error (
                error,
                "field 'A': lane %d: a difference from the "
                "lane before must be +N or -N",
                lanes);
        in->addr[lanes] = in->addr[lanes - 1] + (guint64) d;
        lanes++;
    }
    if (lanes < 32)
        return trace_format_error (
            error,
            "field 'A': %d addresses, expected 32 (one per "
            "lane)",
            lanes);
    in->addr_mode = INSTR_ADDR_EXPLICIT;
    return TRUE;
}

static gboolean
parse_field (const char *tok, const char *end, Instr *in, unsigned *seen,
             GError **error)
{
    static const char keys[] = "mwcaA";
    const char *k = tok[0] != '\0' && tok + 1 < end && tok[1] == '='
                        ? strchr (keys, tok[0]) : NULL;
    const char *v = tok + 2;
    guint64 x;
    if (k == NULL)
        return trace_format_error (
            error,
            "field '%.*s': unknown (fields are m=, w=, c=, a=, "
            "A=)",
            (int) (end - tok), tok);
    unsigned bit = 1u << (k - keys);
    if (*seen & bit || ((*seen & 0x18) && (bit & 0x18)))
        return trace_format_error (
            error,
            "field '%.*s': given twice (one address form at "
            "most)",
            (int) (end - tok), tok);
    *seen |= bit;
    switch (*k) {
    case 'm':
        if (!number (v, end, 16, 0xffffffffu, &x))
            return trace_format_error (
                error,
                "field 'm=%.*s': the active mask is hex, at "
                "most ffffffff",
                (int) (end - v), v);
        in->active = (guint32) x;
        return TRUE;
    case 'w':
        if (!number (v, end, 10, 16, &x) || x == 0 || (x & (x - 1)) != 0)
            return trace_format_error (
                error,
                "field 'w=%.*s': bytes per lane must be 1, 2, "
                "4, 8 or 16",
                (int) (end - v), v);
        in->width = (guint8) x;
        return TRUE;
    case 'c':
        return parse_ctrl (v, end, in, error);
    case 'a':
        return parse_stride (v, end, in, error);
    default:
        return parse_explicit (v, end, in, error);
    }
}

/* Memory operations carry a width and addresses; nothing else does. */
static gboolean
check_memory (Instr *in, unsigned seen, GError **error)
{
    const char *name = instr_info ((InstrOp) in->op)->name;
    gboolean mem = is_memory ((InstrOp) in->op);
    if (mem && !(seen & 0x2))
        return trace_format_error (
            error, "%s: field 'w=' missing (bytes per lane)", name);
    if (mem && !(seen & 0x18))
        return trace_format_error (
            error, "%s: addresses missing (field 'a=' or 'A=')", name);
    if (!mem && (seen & 0x1a))
        return trace_format_error (
            error,
            "%s: only memory operations carry 'w=', 'a=' or "
            "'A='",
            name);
    return TRUE;
}

gboolean
trace_line_parse (const char *line, Instr *in, GError **error)
{
    const char *p = line;
    unsigned seen = 0;
    for (int i = 0; *p != '\0' || i < 5; i++) {
        const char *end = strchr (p, ' ');
        end = end ? end : p + strlen (p);
        if (end == p && i < 5)
            return trace_format_error (
                error,
                "%s missing (a line is OP DST SRC0 SRC1 SRC2 "
                "[fields])",
                i == 0   ? "opcode"
                : i == 1 ? "destination"
                         : "source register");
        if (end == p)
            return trace_format_error (
                error, "two spaces in a row (fields are separated "
                       "by one)");
        gboolean ok = i == 0 ? parse_op (p, end, in, error)
                    : i == 1 ? parse_reg (p, end, -1, in, &in->dst, error)
                    : i < 5 ? parse_reg (p, end, i - 2, in, &in->src[i - 2], error)
                    : parse_field (p, end, in, &seen, error);
        if (!ok)
            return FALSE;
        p = *end == ' ' ? end + 1 : end;
        if (*end == ' ' && *p == '\0')
            return trace_format_error (error, "a space at the end of the line");
    }
    return check_memory (in, seen, error);
}
