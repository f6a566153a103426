# dlsim 0.1.0+2e0b7ba: weak scaling of resnet50 on v100
# Restyle and redraw, in this file's directory, with: gnuplot <this file>
set terminal pngcairo size 1200,800 font ',11'
set termoption noenhanced
set output "scaling_resnet50_v100.png"
set multiplot layout 1,3 title "resnet50 on v100: weak scaling, batch 32 per device, fp16" font ',13'
set grid
set key top left box opaque
set logscale x 2
set xlabel 'devices'
names = "v100"
set title 'Throughput'
set logscale y
set ylabel 'samples per second'
plot for [i=0:0] "scaling_resnet50_v100.dat" index i using 1:2 with linespoints lw 2 pt 7 title word(names, i+1), \
     for [i=0:0] "scaling_resnet50_v100.dat" index i using 1:3 with lines dt 2 lc 'gray40' title (i == 0 ? 'ideal (linear)' : '')
set title 'Parallel efficiency'
unset logscale y
set ylabel 'efficiency (%)'
set yrange [0:105]
set key bottom left box opaque
plot for [i=0:0] "scaling_resnet50_v100.dat" index i using 1:4 with linespoints lw 2 pt 7 title word(names, i+1)
set title 'Step time of v100'
set autoscale y
set yrange [0:*]
set ylabel 'time per step (ms)'
set style fill solid 0.8 border -1
set key outside below vertical box
plot "scaling_resnet50_v100.dat" index 0 using 1:($5+$6+$7):($1*0.3) with boxes lc 'orange-red' title 'exposed communication', \
     '' index 0 using 1:($5+$6):($1*0.3) with boxes lc 'goldenrod' title 'optimizer', \
     '' index 0 using 1:5:($1*0.3) with boxes lc 'steelblue' title 'compute (forward + backward)'
unset multiplot
