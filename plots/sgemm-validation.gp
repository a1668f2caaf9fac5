# Figure 6: the SGEMM progression at 4096.  Published (siboehm/SGEMM_CUDA)
# and simulated GFLOP/s of each kernel, the error on each pair, cuBLAS
# as the reference line; one panel per GPU, on one scale.
# CSV: gpu,kernel,simulated_gflops,reference_gflops,error_pct,cublas_gflops,label.
fig_w = 6.5; fig_h = 3.6
load stylefile

of(g, c) = strcol("gpu") eq g ? column(c) : NaN
name(g) = g eq 'a6000' ? 'RTX A6000' : g eq 'a100' ? 'A100' : g
bigger(a, b) = a > b ? a : b
top(g) = strcol("gpu") eq g ? bigger(column("simulated_gflops"), \
    column("reference_gflops")) : NaN

# One scale for both panels: the tallest bar or line, and room above it.
stats datafile using (bigger(bigger(column("simulated_gflops"), \
    column("reference_gflops")), column("cublas_gflops"))) nooutput
ymax = STATS_max * 1.12

set style fill solid 1.0 border lc rgb '#404040'
set style textbox opaque noborder margins 0.5, 0.2
set boxwidth 0.38
set xrange [0.4:11.6]
set xtics 1, 1, 11 scale 0
set yrange [0:ymax]
set format y '%.0s%c'
set xlabel 'SGEMM kernel'
set grid ytics
set tmargin at screen 0.80
set bmargin at screen 0.22

set multiplot title sprintf("SGEMM at 4096 x 4096 x 4096: simulated vs published GFLOP/s, error on each pair\n(%s; published: siboehm/SGEMM_CUDA)", origin)
do for [i = 1:n_gpus] {
    g = i == 1 ? gpu1 : gpu2
    panel_w = n_gpus == 1 ? 0.88 : 0.42
    set lmargin at screen 0.09 + (i - 1) * 0.46
    set rmargin at screen 0.09 + (i - 1) * 0.46 + panel_w
    if (i == 1) { set ylabel 'GFLOP/s' } else { unset ylabel }
    set title name(g)
    stats datafile using (of(g, "cublas_gflops")) nooutput
    set arrow 1 from graph 0, first STATS_max to graph 1, first STATS_max \
        nohead lc rgb c_black dt 2 lw 1.5 back
    set label 1 sprintf("cuBLAS %.0f", STATS_max) at graph 0.02, first STATS_max \
        offset 0, 0.6 left front font ',9'
    plot datafile using (column("kernel") - 0.2):(of(g, "reference_gflops")) \
            with boxes lc rgb c_light dt 1 notitle, \
         '' using (column("kernel") + 0.2):(of(g, "simulated_gflops")) \
            with boxes lc rgb c_blue dt 1 notitle, \
         '' using "kernel":(top(g)):(strcol("label")) with labels boxed \
            offset 0, 0.7 font ',8' notitle
}

# The key: a strip of its own.
unset arrow 1; unset label 1; unset title
set lmargin at screen 0; set rmargin at screen 1
set tmargin at screen 0.08; set bmargin at screen 0
unset border; unset tics; unset xlabel; unset ylabel; unset grid
set xrange [0:1]; set yrange [0:1]
set key center center horizontal maxrows 1 samplen 1.5 width 2
plot NaN notitle, \
     keyentry with boxes lc rgb c_light dt 1 title 'published', \
     keyentry with boxes lc rgb c_blue dt 1 title 'simulated', \
     keyentry with lines lc rgb c_black dt 2 lw 1.5 title 'cuBLAS (published)'
unset multiplot
