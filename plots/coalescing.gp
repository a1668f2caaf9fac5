# Figure 4: coalescing.  Sectors one warp's 4-byte loads touch, by
# access pattern, and the bandwidth efficiency that follows (distinct
# bytes asked for over bytes the sectors move).
# CSV: pattern,sectors,lines,requested_bytes,moved_bytes,efficiency_pct.
fig_w = 6.0; fig_h = 3.0
load stylefile

set multiplot layout 1, 2 title sprintf("Coalescing on the %s: one warp's load, %d B sectors in %d B lines", \
    gpu, sector_bytes, line_bytes)
set style fill solid 1.0 border lc rgb '#404040'
set boxwidth 0.7
set xtics rotate by 35 right scale 0
set xrange [-0.6:7.6]
set bmargin 5.5

set title 'sectors per request'
set yrange [0:38]
set ytics 0, 8, 32
plot datafile using 0:"sectors":xtic(strcol("pattern")) with boxes lc rgb c_blue, \
     '' using 0:"sectors":(sprintf("%d", column("sectors"))) with labels \
        offset 0, 0.7 notitle

set title 'bandwidth efficiency (bytes used / moved)'
set yrange [0:118]
set ytics 0, 25, 100 format '%g %%'
plot datafile using 0:"efficiency_pct":xtic(strcol("pattern")) with boxes \
        lc rgb c_orange, \
     '' using 0:"efficiency_pct":(sprintf("%g%%", column("efficiency_pct"))) \
        with labels offset 0, 0.7 font ",9" notitle
unset multiplot
