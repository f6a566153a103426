#!/bin/sh
# deps.sh -- install the Debian packages dlsim needs, only those missing.
#
# A package counts as present when pkg-config (libraries) or command -v
# (programs) finds it.  As root the missing ones are installed with
# apt-get; otherwise the one command to run is printed and we fail.
# OpenBLAS (libopenblas-dev) and OpenMPI (libopenmpi-dev, openmpi-bin)
# serve `dlsim calibrate run`.
set -u
missing=""
need_pc() { pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing="$missing $2"; }

need_cmd cc gcc
need_cmd make make
need_cmd pkg-config pkg-config
if command -v pkg-config >/dev/null 2>&1; then
	need_pc libcyaml libcyaml-dev
	need_pc yaml-0.1 libyaml-dev
	need_pc check check
	need_pc sqlite3 libsqlite3-dev
	need_pc gsl libgsl-dev
	need_pc openblas libopenblas-dev
	need_pc ompi-c libopenmpi-dev
fi
need_cmd mpirun openmpi-bin
[ -z "$missing" ] && exit 0
# pkg-config was missing: the libraries could not be checked, so ask for
# them too; apt-get skips what is already installed.
case "$missing" in *pkg-config*) missing="$missing libcyaml-dev libyaml-dev \
	check libsqlite3-dev libgsl-dev libopenblas-dev libopenmpi-dev";; esac
if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq >/dev/null &&
	apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	{ echo "deps: apt-get install failed:$missing" >&2; exit 1; }
	exit 0
fi
echo "deps: missing packages; run as root:" >&2
echo "  apt-get install -y$missing" >&2
exit 1
