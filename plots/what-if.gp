# Figure 11: what-if.  A kernel's time on hypothetical SMs with a
# quarter, half, twice or four times one resource of the preset's (the
# others as they are), relative to the preset itself.
# CSV: resource,factor,value,time_ms,relative_time,occupancy_pct (the
# last three empty for a design the kernel cannot launch on).
fig_w = 5.5; fig_h = 3.6
load stylefile

at(r) = strcol("resource") eq r ? column("relative_time") : NaN
set title sprintf("What if the SM had more or less of one resource?\n%s, %s on the %s (simulated, %s; 1 = %.3g ms)", \
    kernel, size_label, gpu, sampling, base_ms)
set logscale x 2
set xrange [0.2:5]
set xtics ('1/4' 0.25, '1/2' 0.5, '1' 1, '2' 2, '4' 4)
set xlabel "the resource, times the preset's"
set ylabel 'time, relative to the preset'
set yrange [0:*]
set grid xtics ytics
set key outside right center vertical reverse Left
# Designs the kernel cannot launch on are gaps in their lines.
if (cannot_launch ne '') \
    set label 1 sprintf('cannot launch: %s', cannot_launch) at graph 0.02, graph 0.05 left font ',8'
plot datafile using "factor":(at("registers")) with linespoints lt 1 title 'registers', \
     '' using "factor":(at("shared memory")) with linespoints lt 2 title 'shared memory', \
     '' using "factor":(at("DRAM latency")) with linespoints lt 3 title 'DRAM latency', \
     '' using "factor":(at("schedulers")) with linespoints lt 4 title 'schedulers', \
     1 with lines lc rgb c_grey dt 3 lw 1 notitle
