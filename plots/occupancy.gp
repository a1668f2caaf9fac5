# Figure 1: occupancy vs block size, registers per thread and shared
# memory per block (NVIDIA's calculator's three graphs), each varied
# alone around the marked launch; the shading says which limit binds.
# CSV: graph,x,occupancy_pct,limiter,class.
fig_w = 6.5; fig_h = 3.2
load stylefile

# Limit classes (fig_occ.c): 1 block slots, 2 warp slots, 3 registers,
# 4 shared memory, 5 several at once.  Light tints, opaque, so that
# neighbouring bars do not show seams.
tint_blocks = 0xD0D0D0; tint_warps = 0xF5D48C; tint_regs = 0x8CBBDD
tint_smem = 0x8CD3BE; tint_several = 0xE6BDD6
class_color(c) = c == 1 ? tint_blocks : c == 2 ? tint_warps \
    : c == 3 ? tint_regs : c == 4 ? tint_smem : tint_several
in_graph(g) = strcol("graph") eq g ? column("occupancy_pct") : NaN

set multiplot title sprintf("Occupancy on the %s (cc %s), one parameter varied at a time\nmarked launch: %d threads, %d registers, %.0f KB shared memory per block = %.0f %%, limited by %s", \
    gpu, cc, cur_threads, cur_regs, cur_smem / 1024.0, cur_occ, cur_limiter)
set style fill solid 1.0 border
set yrange [0:109]
set ytics 0, 25, 100 format '%g %%'
set tmargin at screen 0.82
set bmargin at screen 0.30

# Three panels side by side; the key gets a strip of its own below.
panel(i) = 0.09 + i * 0.31
set lmargin at screen panel(0)
set rmargin at screen panel(0) + 0.27
set xlabel 'threads per block'
set ylabel 'occupancy'
set xrange [0:max_threads + 32]
set xtics 0, 256, max_threads
set boxwidth 33
set label 1 sprintf("%d", cur_threads) at cur_threads, cur_occ offset 0.8, 1.0 \
    left front
plot datafile using "x":(in_graph("threads")):(class_color(column("class"))) \
        with boxes lc rgb variable, \
     '' using "x":(in_graph("threads")) with histeps lt 7 lw 1.5, \
     '+' using (cur_threads):(cur_occ) every ::0::0 with points pt 9 ps 1.6 \
        lc rgb c_red

unset ylabel
set ytics format ''
set lmargin at screen panel(1)
set rmargin at screen panel(1) + 0.27
set xlabel 'registers per thread'
set xrange [0:max_regs + 1]
set xtics 0, 64, max_regs
set boxwidth 1.05
set label 1 sprintf("%d", cur_regs) at cur_regs, cur_occ offset 0.8, 1.0 \
    left front
plot datafile using "x":(in_graph("regs")):(class_color(column("class"))) \
        with boxes lc rgb variable, \
     '' using "x":(in_graph("regs")) with histeps lt 7 lw 1.5, \
     '+' using (cur_regs):(cur_occ) every ::0::0 with points pt 9 ps 1.6 \
        lc rgb c_red

set lmargin at screen panel(2)
set rmargin at screen panel(2) + 0.27
set xlabel 'shared memory per block (KB)'
set xrange [0:max_smem / 1024.0 + 1]
set xtics 0, 40
set boxwidth (max_smem / 1024.0) / 800
set label 1 sprintf("%.0f KB", cur_smem / 1024.0) at cur_smem / 1024.0, cur_occ \
    offset 0.8, 1.0 left front
plot datafile using (column("x") / 1024.0):(in_graph("smem")):(class_color(column("class"))) \
        with boxes lc rgb variable, \
     '' using (column("x") / 1024.0):(in_graph("smem")) with histeps lt 7 lw 1.5, \
     '+' using (cur_smem / 1024.0):(cur_occ) every ::0::0 with points pt 9 \
        ps 1.6 lc rgb c_red

# The key: a strip of its own, no axes.
unset label 1
set lmargin at screen 0; set rmargin at screen 1
set tmargin at screen 0.12; set bmargin at screen 0
unset border; unset tics; unset xlabel; unset ylabel; unset grid
set xrange [0:1]; set yrange [0:1]
set key center center horizontal maxrows 1 samplen 1.2 width 2
plot NaN notitle, \
     keyentry with boxes lc rgb tint_blocks title 'block slots', \
     keyentry with boxes lc rgb tint_warps title 'warp slots', \
     keyentry with boxes lc rgb tint_regs title 'registers', \
     keyentry with boxes lc rgb tint_smem title 'shared memory', \
     keyentry with boxes lc rgb tint_several title 'several', \
     keyentry with points pt 9 ps 1.4 lc rgb c_red title 'marked launch'
unset multiplot
