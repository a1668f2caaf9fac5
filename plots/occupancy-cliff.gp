# Figure 2: the occupancy cliff.  Left, PMPP 4.7's register example
# (512-thread blocks: 31 registers 100 %, 33 registers 75 % on the A100);
# right, PMPP 5.6's shared-memory example (256-thread blocks with 32 KB:
# 50 % exactly, 64 % by the per-thread estimate).  Exact rules (stepped)
# against the textbook arithmetic (smooth).
# CSV: panel,x,exact_pct,textbook_pct.
fig_w = 6.0; fig_h = 3.0
load stylefile

in_panel(p, c) = strcol("panel") eq p ? column(c) : NaN

set multiplot layout 1, 2 title sprintf("The occupancy cliff on the %s: exact allocation rules vs the textbook estimate", gpu)
set yrange [0:109]
set ytics 0, 25, 100 format '%g %%'
set key bottom left

set title 'PMPP 4.7: 512-thread blocks'
set xlabel 'registers per thread'
set ylabel 'occupancy'
set xrange [16:64]
set xtics 16, 8, 64
set label 1 sprintf("31: %.0f %%", occ31) at 31, occ31 offset 0.8, 0.8 left front
set label 2 sprintf("33: %.0f %%\n(textbook %.0f %%)", occ33, text33) at 17.5, 62 \
    left front
set arrow 2 from 25.5, 66 to 32.4, 74 lc rgb c_black lw 1 size 1.2, 20 front
plot datafile using "x":(in_panel("regs", "exact_pct")) with histeps lt 1 \
        title 'exact', \
     '' using "x":(in_panel("regs", "textbook_pct")) with lines lt 2 \
        title 'textbook', \
     '+' using (31):(occ31) every ::0::0 with points lt 1 pt 7 ps 1.2 notitle, \
     '+' using (33):(occ33) every ::0::0 with points lt 1 pt 7 ps 1.2 notitle

unset label 1; unset label 2; unset arrow 2
set title 'PMPP 5.6: 256-thread blocks, 32 registers'
set xlabel 'shared memory per block (KB)'
unset ylabel
set ytics format ''
set xrange [0:64]
set xtics 0, 16, 64
set label 1 sprintf("32 KB: %.0f %%", occ32k) at 32, occ32k offset 0.8, -0.9 \
    left front
set label 2 sprintf("textbook %.0f %%", text32k) at 32, text32k offset 0.8, 0.8 \
    left front
plot datafile using (column("x") / 1024.0):(in_panel("smem", "exact_pct")) \
        with histeps lt 1 title 'exact', \
     '' using (column("x") / 1024.0):(in_panel("smem", "textbook_pct")) \
        with lines lt 2 title 'textbook', \
     '+' using (32):(occ32k) every ::0::0 with points lt 1 pt 7 ps 1.2 notitle, \
     '+' using (32):(text32k) every ::0::0 with points lt 2 pt 5 ps 1.2 notitle
unset multiplot
