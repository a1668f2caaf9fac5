# Figure 6: the SGEMM progression at 4096.  Published (siboehm/SGEMM_CUDA)
# and simulated GFLOP/s of each kernel, the error on each pair, cuBLAS
# as the reference line; one panel per GPU.
# CSV: gpu,kernel,simulated_gflops,reference_gflops,error_pct,cublas_gflops,label.
fig_w = 6.5; fig_h = 3.4
load stylefile

of(g, c) = strcol("gpu") eq g ? column(c) : NaN
name(g) = g eq 'a6000' ? 'RTX A6000' : g eq 'a100' ? 'A100' : g
top(g) = strcol("gpu") eq g ? (column("simulated_gflops") > column("reference_gflops") \
    ? column("simulated_gflops") : column("reference_gflops")) : NaN

set style fill solid 1.0 border lc rgb '#404040'
set boxwidth 0.38
set xrange [0.4:11.6]
set xtics 1, 1, 11 scale 0
set yrange [0:27000]
set ytics 0, 5000 format '%gk'
set format y '%.0s%c'
set ylabel 'GFLOP/s'
set xlabel 'SGEMM kernel'
set key top left samplen 1.5
set grid ytics

set multiplot layout 1, n_gpus title sprintf("SGEMM at 4096 x 4096 x 4096: simulated vs published (%s)", origin)
do for [i = 1:n_gpus] {
    g = i == 1 ? gpu1 : gpu2
    set title name(g)
    # The cuBLAS line: the first row's value (every row of a GPU has it).
    stats datafile using (of(g, "cublas_gflops")) nooutput
    set arrow 1 from graph 0, first STATS_max to graph 1, first STATS_max \
        nohead lc rgb c_black dt 2 lw 1.5 front
    set label 1 'cuBLAS' at graph 0.99, first STATS_max offset 0, 0.6 right \
        front
    plot datafile using (column("kernel") - 0.2):(of(g, "reference_gflops")) \
            with boxes lc rgb c_light title 'published', \
         '' using (column("kernel") + 0.2):(of(g, "simulated_gflops")) \
            with boxes lc rgb c_blue title 'simulated', \
         '' using "kernel":(top(g)):(strcol("label")) with labels \
            offset 0, 0.6 font ',8' notitle
    unset ylabel
}
unset multiplot
