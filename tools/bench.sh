#!/bin/sh
# bench.sh BUILD -- speed of dlsim, as `make bench` reports it:
#  1. the whole-process time of `dlsim predict resnet50 --hw v100x64`
#     (median of 21 runs: start-up, catalog parse, prediction, output);
#  2. predictions per second from an in-process loop (bench_predict).
# One core: taskset pins both when it is available.
set -eu
build=$1
pin=""
command -v taskset >/dev/null 2>&1 && pin="taskset -c 0"
i=0
: >"$build/bench.times"
while [ $i -lt 21 ]; do
	t0=$(date +%s%N)
	$pin "$build/dlsim" predict resnet50 --hw v100x64 >/dev/null
	t1=$(date +%s%N)
	echo $(( (t1 - t0) / 1000 )) >>"$build/bench.times"
	i=$((i + 1))
done
med=$(sort -n "$build/bench.times" | sed -n 11p)
echo "whole process: dlsim predict resnet50 --hw v100x64: median of 21" \
     "runs $(awk "BEGIN { printf \"%.2f\", $med / 1000 }") ms"
$pin "$build/bench_predict" resnet50 v100x64 2
$pin "$build/bench_predict" resnet50 v100 1
