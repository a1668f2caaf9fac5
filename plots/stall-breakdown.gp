# Figure 8: stall breakdown.  Warp cycles per issued instruction of each
# SGEMM kernel, stacked by Nsight Compute stall reason ('selected' is 1
# per issue); the stack's height is the average cycles between a warp's
# issues.
# CSV: kernel,selected,not_selected,wait,...,drain,total.
fig_w = 6.5; fig_h = 3.8
load stylefile

set title sprintf("Where the warps of each SGEMM kernel wait: %s, %d x %d x %d (simulated, sampled)", \
    gpu, size, size, size)
set style data histograms
set style histogram rowstacked
set style fill solid 1.0 border lc rgb '#404040'
set boxwidth 0.7
set ylabel 'warp cycles per issued instruction'
set xlabel 'SGEMM kernel'
set yrange [0:*]
set key outside right top vertical reverse Left samplen 1.5 width -2
set xtics scale 0
short(k) = substr(k, 7, strlen(k))
# Eleven reasons: a dark-to-light ramp (viridis), so that neighbours in
# the stack stay apart in grayscale too.
array ramp[11] = [0x440154, 0x482475, 0x414487, 0x355F8D, 0x2A788E, 0x21918C, \
                  0x22A884, 0x44BF70, 0x7AD151, 0xBDDF26, 0xFDE725]
plot for [i = 2:12] datafile using i:xtic(short(strcol(1))) \
    lc rgb ramp[i - 1] title columnhead(i)
