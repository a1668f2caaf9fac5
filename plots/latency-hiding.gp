# Figure 3: latency hiding.  Warp instructions issued per cycle per SM
# for the load-use loop (each warp: load, then use the value) against
# the resident warps per SM, with the loads hitting L1, L2 or DRAM
# (points, simulated), and Little's law (lines): W warps, each with one
# load in flight, issue 2 W instructions per load latency.
# CSV: level,warps_per_sm,ipc,littles_law_ipc,latency_cycles,footprint_bytes.
fig_w = 5.5; fig_h = 3.6
load stylefile

at(l, c) = strcol("level") eq l ? column(c) : NaN

set title sprintf("Latency hiding on the %s: load-use loop, one-warp blocks\nwarp instructions per cycle per SM (points: simulated, %s; lines: Little's law)", gpu, sampling)
set logscale xy 2
set xrange [0.8:max_warps * 1.25]
set yrange [0.002:issue_peak * 2]
set xtics (1, 2, 4, 8, 16, 32, 64)
set ytics ('1/256' 1.0/256, '1/64' 1.0/64, '1/16' 1.0/16, '1/4' 0.25, '1' 1, '4' 4)
set format y '%g'
set xlabel sprintf("resident warps per SM (one-warp blocks: the block slots allow %d)", max_warps)
set ylabel 'warp instructions per cycle per SM'
set key bottom right reverse Left
set grid xtics ytics
set arrow 1 from graph 0, first issue_peak to graph 1, first issue_peak \
    nohead lc rgb c_grey dt 2 lw 1.5
set label 1 sprintf("issue limit: %d schedulers", issue_peak) at graph 0.98, \
    first issue_peak * 1.25 right textcolor rgb '#606060'
plot datafile using "warps_per_sm":(at("L1", "littles_law_ipc")) with lines lt 1 lw 1.5 notitle, \
     '' using "warps_per_sm":(at("L1", "ipc")) with points lt 1 \
        title sprintf("L1 hits (%d cycles)", lat_l1), \
     '' using "warps_per_sm":(at("L2", "littles_law_ipc")) with lines lt 2 lw 1.5 notitle, \
     '' using "warps_per_sm":(at("L2", "ipc")) with points lt 2 \
        title sprintf("L2 hits (%d cycles)", lat_l2), \
     '' using "warps_per_sm":(at("DRAM", "littles_law_ipc")) with lines lt 3 lw 1.5 notitle, \
     '' using "warps_per_sm":(at("DRAM", "ipc")) with points lt 3 \
        title sprintf("DRAM (%d cycles)", lat_dram)
