# Figure 7: roofline.  Each SGEMM kernel at its simulated arithmetic
# intensity (FLOPs per DRAM byte: filled; per L2 byte: open) and
# GFLOP/s, under the FP32 peak and the DRAM and L2 bandwidth roofs.
# CSV: kernel,gflops,ai_dram,ai_l2,flops,dram_bytes,l2_bytes.
fig_w = 6.0; fig_h = 4.0
load stylefile

set title sprintf("Roofline of the %s: SGEMM kernels at %d x %d x %d (simulated, %s)", \
    gpu, size, size, size, sampling)
set logscale xy 10
# The roofs' range, wider where a point would fall outside (fig_sgemm.c).
set xrange [x_lo:x_hi]
set yrange [y_lo:y_hi]
set format x '%g'
set format y '%g'
set xlabel 'arithmetic intensity (FLOP per byte)'
set ylabel 'GFLOP/s'
set grid xtics ytics mxtics mytics lc rgb '#EEEEEE'
set key bottom right
roof(x, bw) = x * bw < peak_gflops ? x * bw : peak_gflops
short(k) = substr(k, 7, strlen(k))
set label 1 sprintf("FP32 peak %.0f GFLOP/s", peak_gflops) at 600, peak_gflops * 1.15 \
    right textcolor rgb '#404040'
set label 2 sprintf("DRAM %.0f GB/s", dram_gbs) at 2.0, dram_gbs * 2.0 * 1.5 left \
    rotate by 38 textcolor rgb c_blue
set label 3 sprintf("L2 %.0f GB/s", l2_gbs) at 2.0, l2_gbs * 2.0 * 1.5 left \
    rotate by 38 textcolor rgb c_red
set samples 400
plot roof(x, dram_gbs) with lines lt 1 lw 1.5 dt 1 notitle, \
     roof(x, l2_gbs) with lines lt 2 lw 1.5 dt 2 notitle, \
     datafile using "ai_l2":"gflops" with points lt 2 pt 4 ps 1.1 \
        title 'kernel, FLOP per L2 byte', \
     datafile using "ai_dram":"gflops" with points lt 1 pt 7 ps 1.1 \
        title 'kernel, FLOP per DRAM byte', \
     datafile using "ai_l2":"gflops":(short(strcol("kernel"))) with labels \
        offset -1.0, 0 right font ',9' textcolor rgb '#404040' notitle
