# dlsim 0.1.0+06174aa.dirty: predicted against measured.
# Redraw, in this file's directory, with: gnuplot validate.gp
set terminal pngcairo size 1200,800 font ',11'
set termoption noenhanced
set output "validate.png"
set title "dlsim validate: predicted against measured (each set over its median measured value)" font ",13"
set xlabel "measured"
set ylabel "predicted"
set logscale xy
set format x "%g"
set format y "%g"
set grid xtics ytics back lt 1 lw 1 lc rgb "#d0d0d0"
set key top left Left reverse box opaque
set autoscale xy
plot x lw 2 lc rgb "#000000" title "predicted = measured", \
     1.1*x dt 2 lc rgb "#555555" title "+-10%", 0.9*x dt 2 lc rgb "#555555" notitle, \
     1.25*x dt 3 lc rgb "#999999" title "+-25%", 0.75*x dt 3 lc rgb "#999999" notitle, \
     "validate.dat" index 0 with points pt 5 ps 0.6 lc rgb "#d95f02" title "vtrain (1152 rows, median 7.4%)", \
     "validate.dat" index 1 with points pt 5 ps 0.6 lc rgb "#1b9e77" title "vtrain_fit (288 rows, median 7.8%)", \
     "validate.dat" index 2 with points pt 5 ps 0.6 lc rgb "#7570b3" title "vtrain_multi (109 rows, median 9.0%)", \
     "validate.dat" index 3 with points pt 5 ps 0.6 lc rgb "#e7298a" title "tf_cnn_p100 (71 rows, median 3.7%)", \
     "validate.dat" index 4 with points pt 5 ps 0.6 lc rgb "#66a61e" title "tf_cnn_k80 (136 rows, median 49.7%)", \
     "validate.dat" index 5 with points pt 5 ps 0.6 lc rgb "#e6ab02" title "dle (28 rows, median 5.2%)", \
     "validate.dat" index 6 with points pt 5 ps 0.6 lc rgb "#a6761d" title "dle_bert (127 rows, median 23.7%)", \
     "validate.dat" index 7 with points pt 5 ps 0.6 lc rgb "#666666" title "dle_transformer (51 rows, median 39.2%)", \
     "validate.dat" index 8 with points pt 5 ps 0.6 lc rgb "#1f78b4" title "dle_gnmt (14 rows, median 73.0%)", \
     "validate.dat" index 9 with points pt 5 ps 0.6 lc rgb "#b2df8a" title "dle_ssd (71 rows, median 23.6%)", \
     "validate.dat" index 10 with points pt 5 ps 0.6 lc rgb "#fb9a99" title "megatron (10 rows, median 2.0%)", \
     "validate.dat" index 11 with points pt 5 ps 0.6 lc rgb "#6a3d9a" title "korthikanti (8 rows, median 9.2%)", \
     "validate.dat" index 12 with points pt 5 ps 0.6 lc rgb "#b15928" title "horovod (3 rows, median 4.1%)", \
     "validate.dat" index 13 with points pt 5 ps 0.6 lc rgb "#000080" title "imagenet (2 rows, median 33.2%)", \
     "validate.dat" index 14 with points pt 5 ps 0.6 lc rgb "#808000" title "mlperf (125 rows, median 19.2%)", \
     "validate.dat" index 15 with points pt 5 ps 0.6 lc rgb "#008080" title "jcjohnson (78 rows, median 11.9%)", \
     "validate.dat" index 16 with points pt 7 ps 0.6 lc rgb "#d95f02" title "cnn_cloud (48 rows, median 18.6%)", \
     "validate.dat" index 17 with points pt 7 ps 0.6 lc rgb "#1b9e77" title "h100_pytorch (46 rows, median 11.6%)", \
     "validate.dat" index 18 with points pt 7 ps 0.6 lc rgb "#7570b3" title "deepbench_gemm (1920 rows, median 9.0%)", \
     "validate.dat" index 19 with points pt 7 ps 0.6 lc rgb "#e7298a" title "deepbench_conv (1118 rows, median 12.7%)", \
     "validate.dat" index 20 with points pt 7 ps 0.6 lc rgb "#66a61e" title "deepbench_gemm_heldout (1920 rows, median 9.6%)", \
     "validate.dat" index 21 with points pt 7 ps 0.6 lc rgb "#e6ab02" title "deepbench_conv_heldout (1118 rows, median 14.9%)", \
     "validate.dat" index 22 with points pt 7 ps 0.6 lc rgb "#a6761d" title "deepbench_rnn (477 rows, median 10.6%)", \
     "validate.dat" index 23 with points pt 7 ps 0.6 lc rgb "#666666" title "deepbench_rnn_heldout (477 rows, median 12.2%)", \
     "validate.dat" index 24 with points pt 7 ps 0.6 lc rgb "#1f78b4" title "nccl (308 rows, median 0.7%)", \
     "validate.dat" index 25 with points pt 7 ps 0.6 lc rgb "#b2df8a" title "deepbench_allreduce (35 rows, median 12.0%)"
