# Figure 5: shared-memory bank conflicts.  Wavefronts one warp's access
# takes, by pattern over a 32 x 32 float tile; the ideal (no conflict)
# is one per phase (a float4 access is four quarter-warp phases).
# CSV: pattern,wavefronts,ideal,conflicts.
fig_w = 5.5; fig_h = 3.0
load stylefile

set title sprintf("Shared-memory bank conflicts on the %s\n%d banks of 4 B; one warp reading a 32 x 32 float tile", \
    gpu, banks)
set style fill solid 1.0 border lc rgb '#404040'
set boxwidth 0.7
set xtics rotate by 25 right scale 0
set xrange [-0.6:5.6]
set yrange [0:36]
set ytics 0, 8, 32
set ylabel 'wavefronts'
set key top right
plot datafile using 0:"wavefronts":xtic(strcol("pattern")) with boxes \
        lc rgb c_blue title 'wavefronts', \
     '' using 0:"ideal" with boxes fs solid 1.0 lc rgb c_light dt 1 \
        title 'ideal (no conflict)', \
     '' using 0:"wavefronts":(sprintf("%d", column("wavefronts"))) with labels \
        offset 0, 0.7 notitle
