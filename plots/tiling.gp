# Figure 10: tiling.  Top row, PMPP's tiled matmul over TILE_WIDTH;
# bottom row, SGEMM kernel 5 over its block tile BM x BN x BK: the
# occupancy, the shared memory per block and the time of each.
# CSV: group,config,kernel,size,threads,regs,smem_bytes,blocks_per_sm,
#      occupancy_pct,time_ms,gflops.
fig_w = 6.5; fig_h = 4.6
load stylefile

in_group(g, c) = strcol("group") eq g ? column(c) : NaN
set style fill solid 1.0 border lc rgb '#404040'
set boxwidth 0.65
set xtics scale 0 font ',9'
set grid ytics

set multiplot layout 2, 3 title sprintf("Tiling on the %s: what the tile size buys and costs (simulated, %s)", \
    gpu, sampling)

do for [g in "pmpp sgemm"] {
    if (g eq "pmpp") {
        set xrange [-0.6:2.6]
        row = sprintf("PMPP tiled, %d x %d", pmpp_size, pmpp_size)
        axis = 'TILE_WIDTH x TILE_WIDTH'
        color = c_blue
        set xtics norotate
    } else {
        set xrange [2.4:6.6]
        row = sprintf("SGEMM kernel 5, %d x %d", sgemm_size, sgemm_size)
        axis = 'BM x BN x BK'
        color = c_orange
        set xtics rotate by 20 right
    }
    set title 'occupancy'
    set ylabel row
    unset xlabel
    set yrange [0:118]
    set ytics 0, 25, 100 format '%g %%'
    plot datafile using 0:(in_group(g, "occupancy_pct")):xtic(strcol("config")) \
            with boxes lc rgb color notitle, \
         '' using 0:(in_group(g, "occupancy_pct")):(sprintf("%.0f %%", column("occupancy_pct"))) \
            with labels offset 0, 0.6 font ',9' notitle
    set title 'shared memory per block'
    unset ylabel
    set xlabel axis
    set yrange [0:*]
    set ytics autofreq format '%g KB'
    plot datafile using 0:(in_group(g, "smem_bytes") / 1024.0):xtic(strcol("config")) \
            with boxes lc rgb color notitle
    set title 'time'
    unset xlabel
    set ytics autofreq format '%g us'
    plot datafile using 0:(in_group(g, "time_ms") * 1000):xtic(strcol("config")) \
            with boxes lc rgb color notitle
}
unset multiplot
