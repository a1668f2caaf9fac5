# Figure 9: warp timeline of a launch confined to one SM.  One row per
# warp slot: the warp's state every cycle as the SM charged it (Nsight
# Compute names, fig_timeline.c).  Ticks are issues ('selected');
# full-height bars the waits on a result or the block (long and short
# scoreboard, barrier, drain); half-height bars a warp held at issue
# (mio_throttle, not_selected); a thin line the rest, grouped as
# 'other' (the title names them: other_states).  Height and lightness both tell the groups apart, so
# grayscale print works.
# CSV: slot,block,state,group,start,end.
fig_w = 6.5; fig_h = 4.6; fig_caps = 'butt'
load stylefile

# group: 0 selected, 1 long_scoreboard, 2 short_scoreboard, 3 barrier,
# 4 mio_throttle, 5 not_selected, 6 drain, 7 other.
# Grayscale (luma): blue 87, vermillion 119, purple 151, yellow 213 at
# full height; green 106, orange 162 at half.
array colour[8] = [c_black, c_blue, c_yellow, c_red, c_orange, c_green, \
                   c_purple, c_grey]
# Half the height of a bar, in rows.
array half[8] = [0.45, 0.4, 0.4, 0.4, 0.2, 0.2, 0.4, 0.07]
array name[8] = ['selected', 'long_scoreboard', 'short_scoreboard', \
                 'barrier', 'mio_throttle', 'not_selected', 'drain', 'other']
share(g) = g == 0 ? share_0 : g == 1 ? share_1 : g == 2 ? share_2 \
    : g == 3 ? share_3 : g == 4 ? share_4 : g == 5 ? share_5 \
    : g == 6 ? share_6 : share_7
label(g) = sprintf('%s %.0f %%', name[g + 1], share(g))
in(g) = column("group") == g ? column("slot") : NaN

# The whole launch runs on one SM (fig_timeline.c), not spread over the
# GPU's SMs as the hardware would: the title says so.
set title sprintf("Warp timeline on the %s: %s, %s, the launch's %d %s of %d threads, all on one SM\neach warp's state every cycle (Nsight Compute names, share of warp cycles);\nother = %s", \
    gpu, kernel, size_label, blocks, blocks == 1 ? "block" : "blocks", threads, \
    other_states)
set xlabel 'cycle'
set ylabel sprintf('warp slot (%d %s per block)', warps_per_block, \
    warps_per_block == 1 ? "warp" : "warps")
set xrange [0:cycles * 1.01]
set yrange [n_slots - 0.5:-0.5]
set ytics 0, 4 scale 0
set grid noytics xtics
set bmargin 6
set key at screen 0.5, screen 0.01 center bottom horizontal maxcols 4 maxrows 2 \
    samplen 1.5 width -2
set style fill solid 1.0 noborder
# Key samples as thick as the bars they stand for.
array key_lw[8] = [1, 9, 9, 9, 4, 4, 9, 1.5]
# Bars first, issue ticks on top; the key in group order after them.
plot for [g = 1:7] datafile \
        using (0):(in(g)):"start":"end":(in(g) - half[g + 1]):(in(g) + half[g + 1]) \
        with boxxyerror fc rgb colour[g + 1] notitle, \
     datafile using "start":(in(0) - half[1]):(0):(2 * half[1]) \
        with vectors nohead dt 1 lw 1 lc rgb colour[1] notitle, \
     for [g = 0:7] keyentry with lines dt 1 lw key_lw[g + 1] \
        lc rgb colour[g + 1] title label(g)
