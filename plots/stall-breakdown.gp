# Figure 8: stall breakdown.  Warp cycles per issued instruction of each
# SGEMM kernel, stacked by Nsight Compute stall reason ('selected' is 1
# per issue); a stack's height is the average cycles between a warp's
# issues.  The early kernels wait ten times longer than the tiled ones:
# two panels, two scales (one, where only the early ones run).
# CSV: kernel,selected,not_selected,wait,...,no_instruction,total: the
# n_reasons states of stats.h, in its order.
fig_w = 6.5; fig_h = 3.8
load stylefile

set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border lc rgb '#404040'
set boxwidth 0.7
set yrange [0:*]
set xtics scale 0
short(k) = substr(k, 7, strlen(k))
# Thirteen reasons: a dark-to-light ramp (viridis, its twelve-step
# colours interpolated to thirteen), so that neighbours in the stack
# stay apart in grayscale too.
array ramp[13] = [0x440154, 0x482172, 0x423F84, 0x38588C, 0x2E708E, 0x25878D, \
                  0x229C88, 0x30B27C, 0x56C566, 0x8BD446, 0xC4E024, 0xE7E41A, \
                  0xFDE725]

set multiplot title sprintf("Where the warps of each SGEMM kernel wait: %s, %d x %d x %d (simulated, %s)\nwarp cycles per issued instruction, by Nsight Compute stall reason", \
    gpu, size, size, size, sampling)
set tmargin at screen 0.82
set bmargin at screen 0.14
set ylabel 'warp cycles per issued instruction'
set xlabel 'SGEMM kernel'

# sgemm-1..4 (the first n_early rows) get a panel of their own where
# later kernels ran too (fig_sgemm.c); otherwise one panel holds all.
split = n_early > 0 && n_early < n_kernels
if (split) {
    set lmargin at screen 0.09
    set rmargin at screen 0.37
    unset key
    plot for [i = 2:n_reasons + 1] datafile every ::0::(n_early - 1) \
        using i:xtic(short(strcol(1))) lc rgb ramp[i - 1] dt 1 notitle
    set lmargin at screen 0.44
    unset ylabel
} else {
    set lmargin at screen 0.09
}
set rmargin at screen 0.72
set key at screen 0.99, screen 0.82 top right vertical reverse Left invert \
    samplen 1.5 spacing 1.0
plot for [i = 2:n_reasons + 1] datafile every ::(split ? n_early : 0) \
    using i:xtic(short(strcol(1))) lc rgb ramp[i - 1] dt 1 title columnhead(i)
unset multiplot
