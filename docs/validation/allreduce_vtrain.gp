# written by tools/compare_comm.py; redraw with: gnuplot docs/validation/allreduce_vtrain.gp
set terminal pngcairo size 1250,900 font ',11'
set termoption noenhanced
set output 'docs/validation/allreduce_vtrain.png'
set title "allreduce: dlsim against nccl-tests (vTrain, A100 and V100 nodes, 2-8 GPUs, 1 MiB-1 GiB)" font ',13'
set xlabel 'measured time (us)'
set ylabel 'predicted time (us)'
set logscale xy
set format xy '%g'
set xrange [3.24167:105626]
set yrange [3.24167:105626]
set size ratio -1
set grid xtics ytics mxtics mytics back lt 1 lw 1 lc rgb '#c8c8c8', lt 1 lw 1 lc rgb '#ececec'
set key outside right center Left reverse box
plot x with lines lw 2 lc rgb '#333333' title 'predicted = measured', \
     1.25*x with lines dt 2 lw 1.5 lc rgb '#777777' title 'predicted = measured +25%', \
     0.75*x with lines dt 3 lw 1.5 lc rgb '#777777' title 'predicted = measured -25%', \
     'docs/validation/allreduce_vtrain.dat' index 0 using 1:2 with points pt 7 ps 1.3 lc rgb '#1b9e77' title 'A100 x 2', \
     'docs/validation/allreduce_vtrain.dat' index 1 using 1:2 with points pt 7 ps 1.3 lc rgb '#d95f02' title 'A100 x 3', \
     'docs/validation/allreduce_vtrain.dat' index 2 using 1:2 with points pt 7 ps 1.3 lc rgb '#7570b3' title 'A100 x 4', \
     'docs/validation/allreduce_vtrain.dat' index 3 using 1:2 with points pt 7 ps 1.3 lc rgb '#e7298a' title 'A100 x 5', \
     'docs/validation/allreduce_vtrain.dat' index 4 using 1:2 with points pt 7 ps 1.3 lc rgb '#66a61e' title 'A100 x 6', \
     'docs/validation/allreduce_vtrain.dat' index 5 using 1:2 with points pt 7 ps 1.3 lc rgb '#e6ab02' title 'A100 x 7', \
     'docs/validation/allreduce_vtrain.dat' index 6 using 1:2 with points pt 7 ps 1.3 lc rgb '#a6761d' title 'A100 x 8', \
     'docs/validation/allreduce_vtrain.dat' index 7 using 1:2 with points pt 9 ps 1.3 lc rgb '#1b9e77' title 'V100 x 2', \
     'docs/validation/allreduce_vtrain.dat' index 8 using 1:2 with points pt 9 ps 1.3 lc rgb '#d95f02' title 'V100 x 3', \
     'docs/validation/allreduce_vtrain.dat' index 9 using 1:2 with points pt 9 ps 1.3 lc rgb '#7570b3' title 'V100 x 4', \
     'docs/validation/allreduce_vtrain.dat' index 10 using 1:2 with points pt 9 ps 1.3 lc rgb '#e7298a' title 'V100 x 5', \
     'docs/validation/allreduce_vtrain.dat' index 11 using 1:2 with points pt 9 ps 1.3 lc rgb '#66a61e' title 'V100 x 6', \
     'docs/validation/allreduce_vtrain.dat' index 12 using 1:2 with points pt 9 ps 1.3 lc rgb '#e6ab02' title 'V100 x 7', \
     'docs/validation/allreduce_vtrain.dat' index 13 using 1:2 with points pt 9 ps 1.3 lc rgb '#a6761d' title 'V100 x 8'
