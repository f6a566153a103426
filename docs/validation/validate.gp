# dlsim 0.1.0: predicted against measured.
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
set xrange [0.05:20]
set yrange [0.05:20]
plot x lw 2 lc rgb "#000000" title "predicted = measured", \
     1.1*x dt 2 lc rgb "#555555" title "+-10%", 0.9*x dt 2 lc rgb "#555555" notitle, \
     1.25*x dt 3 lc rgb "#999999" title "+-25%", 0.75*x dt 3 lc rgb "#999999" notitle, \
     "validate.dat" index 0 with points pt 7 ps 0.6 lc rgb "#d95f02" title "vtrain (1440 rows, median 43.6%)", \
     "validate.dat" index 1 with points pt 7 ps 0.6 lc rgb "#1b9e77" title "tf_cnn_p100 (71 rows, median 13.0%)", \
     "validate.dat" index 2 with points pt 7 ps 0.6 lc rgb "#7570b3" title "tf_cnn_k80 (136 rows, median 31.9%)", \
     "validate.dat" index 3 with points pt 7 ps 0.6 lc rgb "#e7298a" title "dle (8 rows, median 15.7%)", \
     "validate.dat" index 4 with points pt 7 ps 0.6 lc rgb "#66a61e" title "megatron (10 rows, median 39.0%)"
