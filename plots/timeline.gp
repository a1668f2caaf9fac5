# Figure 9: warp timeline of one SM.  One row per warp slot; black ticks
# are issues, coloured spans what the warp waited for between them
# (named from its scoreboard and barrier, fig_timeline.c), thin grey
# the rest (a busy pipe, another warp selected, a fixed latency).
# CSV: slot,block,state,state_id,start,end.
fig_w = 6.5; fig_h = 4.2; fig_caps = 'butt'
load stylefile

# state_id: 0 issue, 1 long_scoreboard, 2 short_scoreboard, 3 barrier,
# 4 other.  Lightness falls from issue to barrier for grayscale print.
state_color(s) = s == 0 ? 0x000000 : s == 1 ? 0x0072B2 : s == 2 ? 0xF0E442 \
    : s == 3 ? 0xE69F00 : 0xBBBBBB
is(s) = column("state_id") == s

set title sprintf("Warp timeline of one SM of the %s: %s, %d x %d, %d blocks of %d threads\nwaits between issues: long scoreboard = for a global load, short = for a shared load", \
    gpu, kernel, size, size, blocks, threads)
set xlabel 'cycle'
set ylabel sprintf('warp slot (%d warps per block)', threads / 32)
set xrange [0:cycles * 1.01]
set yrange [n_slots:-1]
set ytics 0, 4 scale 0
set grid noytics xtics
set bmargin 6
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 1 \
    samplen 1.5 width 1
row_lw = 6
plot datafile using "start":(is(4) ? column("slot") : NaN):(column("end") - column("start")):(0) \
        with vectors nohead dt 1 lw 1.5 lc rgb state_color(4) title 'other', \
     '' using "start":(is(1) ? column("slot") : NaN):(column("end") - column("start")):(0) \
        with vectors nohead dt 1 lw row_lw lc rgb state_color(1) title 'long scoreboard', \
     '' using "start":(is(2) ? column("slot") : NaN):(column("end") - column("start")):(0) \
        with vectors nohead dt 1 lw row_lw lc rgb state_color(2) title 'short scoreboard', \
     '' using "start":(is(3) ? column("slot") : NaN):(column("end") - column("start")):(0) \
        with vectors nohead dt 1 lw row_lw lc rgb state_color(3) title 'barrier', \
     '' using "start":(is(0) ? column("slot") - 0.4 : NaN):(0):(0.8) \
        with vectors nohead dt 1 lw 1 lc rgb state_color(0) title 'issue'
