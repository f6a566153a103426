#!/usr/bin/env python3
"""Attained / dense-peak efficiency of the DeepBench training kernels.

Usage: tools/deepbench_efficiency.py [DATA_DIR]   (default: ../shared/data,
relative to the repository root)

Reads deepbench_conv.csv and deepbench_gemm.csv (baidu-research/DeepBench
results/train/*.xlsx, extracted to CSV in shared/data) and prints, for every
(hardware, sheet) of setting=training whose dense peak is in PEAKS below,
the count and median of each efficiency over its compute-bound rows:

  eff_gemm    median of 2*M*N*K / (time_ms/1e3) / peak
  eff_conv    median of passes*2*N*K*P*Q*C*R*S / (total_ms/1e3) / peak
              over the convolutions of no class below (5x5, 7x7, strided
              3x3, ...)
  eff_conv3x3 the same over the 3x3 stride-1 rows, which cuDNN and MIOpen
              run with Winograd's minimal filtering (Lavin & Gray, "Fast
              Algorithms for Convolutional Neural Networks", CVPR 2016:
              2.25x fewer multiplies for F(2x2,3x3), 4x for F(4x4,3x3)),
              so direct-convolution FLOPs per second can exceed the peak
  eff_conv1x1, eff_conv1x1s
              the same over the 1x1 rows at stride 1 and strided: GEMMs
              over the channels with no window to gather (the classes are
              models/model_layer.c's model_conv_class, but for its
              non-square windows, which have no catalog figure of their
              own and are pooled in eff_conv here)

where, for every convolution class,
  P = (H + 2*pad_h - R)//stride_h + 1,  Q = (W + 2*pad_w - S)//stride_w + 1
  passes = 3 (fwd, bwd-data, bwd-filter), or 2 on the first-layer rows
      where DeepBench leaves bwd-data empty ("N/A*": no input gradient is
      needed there and total_ms holds only two passes);
  half-precision rows with C not a multiple of 8 are left out (cuDNN 7 ran
      them on fallback kernels, 0.9-19x the time of the same FP32 shapes;
      the calibration fits them as a class of their own, conv_unaligned,
      calibrate/cal_points.c);
and a row is compute-bound when its FLOPs over its bytes (e the input
width: GEMM e*(M*K + K*N + M*N); convolution, one pass as the simulator
counts it, e*(N*C*H*W + K*C*R*S + N*K*P*Q)) are at or above the ridge,
peak / bandwidth.  The simulator's roofline already charges a
memory-bound kernel its bytes over the bandwidth; a median over every
shape charged those shapes twice and set the compute roof far too low
(V100 FP16 GEMM: 0.322 over all 160 rows, 0.794 over the 76 compute-bound
ones; V100 FP32 convolutions other than 3x3 stride 1: 0.444 over all 62
rows, 1x1 ones included, which the catalog used before 23 November 2026;
0.561 over the 15 compute-bound rows of no other class).

A device's own median for a class needs at least MIN_ROWS (5) rows; the
catalog gives a class with fewer (marked * below) its class default.

and the class medians the hardware catalog (configs/hw/*.yaml) uses for
devices DeepBench did not measure:

  gpu-vector  all GPU rows of FP32 sheets, pooled
  gpu-tensor  FP16-input mixed-math rows of tensor-core GPUs (V100, T4), pooled
  cpu-phi     the Xeon Phi 7250 rows (the only CPU-class part measured)

Standard library only.
"""

import csv
import os
import statistics
import sys

MIN_ROWS = 5

# (hardware, sheet) -> (dense peak TFLOP/s, class, source of the peak).
# The peak is the rate of the arithmetic the sheet runs, as the hardware
# catalog states it for the same device, so that catalog peak x efficiency
# reproduces the measured rate.
PEAKS = {
    ("NVIDIA V100", "Results FP32"): (
        15.7, "gpu-vector",
        "V100-SXM2 (DeepBench Specs sheet: DGX-1); NVIDIA V100 datasheet 2017: FP32 15.7"),
    ("NVIDIA V100", "Results - FP16 ip, Mixed math"): (
        125.0, "gpu-tensor",
        "V100-SXM2; NVIDIA V100 datasheet 2017: Tensor 125"),
    ("NVIDIA Tesla P100", "Results FP32"): (
        10.6, "gpu-vector",
        "P100-SXM2 assumed (DeepBench does not say which P100); NVIDIA P100 datasheet 2016: FP32 10.6"),
    ("NVIDIA Tesla P100", "Results - Psuedo FP16"): (
        21.2, "p100-fp16",
        "P100-SXM2 FP16 21.2 (P100 datasheet 2016); the sheet computes in FP32 (DeepBench README), "
        "so its efficiency is measured/FP16 peak and stays out of the classes"),
    ("NVIDIA T4", "Results FP32"): (
        8.1, "gpu-vector", "NVIDIA T4 datasheet 2018: FP32 8.1"),
    ("NVIDIA T4", "Results - FP16 ip, Mixed math"): (
        65.0, "gpu-tensor", "NVIDIA T4 datasheet 2018: mixed FP16/FP32 65"),
    ("Nvidia Tesla M40", "Results - FP32"): (
        7.0, "gpu-vector", "NVIDIA Tesla M40 datasheet 2015: 7 TFLOPS FP32 with GPU Boost"),
    ("Nvidia TitanX", "Results - FP32"): (
        6.6, "gpu-vector",
        "derived: GTX Titan X (Maxwell) 3072 cores x 1.075 GHz boost x 2 (NVIDIA spec page)"),
    ("Nvidia TitanX Pascal", "Results - FP32"): (
        10.97, "gpu-vector",
        "derived: Titan X (Pascal) 3584 cores x 1.531 GHz boost x 2 (NVIDIA spec page)"),
    ("NVIDIA GTX TitanXp", "FP32"): (
        12.15, "gpu-vector",
        "derived: Titan Xp 3840 cores x 1.582 GHz boost x 2 (NVIDIA spec page)"),
    ("NVIDIA GTX 1080 Ti", "Results - FP32"): (
        11.34, "gpu-vector",
        "derived: GTX 1080 Ti 3584 cores x 1.582 GHz boost x 2 (NVIDIA spec page)"),
    ("AMD MI25", "Results FP32"): (
        12.3, "gpu-vector", "AMD Radeon Instinct MI25 datasheet 2017: FP32 12.3"),
    ("AMD Vega Frontier Edition 16GB", "Results FP32"): (
        13.1, "gpu-vector", "AMD Radeon Vega Frontier Edition spec 2017: FP32 13.1"),
    ("Intel(R) Xeon Phi(TM)\u00a07250F", "Results - FP32"): (
        5.22, "cpu-phi",
        "derived: 68 cores x 1.2 GHz AVX-512 clock x 64 FP32 FLOP/cycle (2 VPUs x 16 lanes x FMA); "
        "Intel Xeon Phi x200 datasheet: AVX frequency = base 1.4 GHz - 200 MHz"),
}

TENSOR_CLASS_HW = ("NVIDIA V100", "NVIDIA T4")

# Peak memory bandwidth, GB/s, for the ridge of the GEMM rows (datasheets;
# derived entries say so).
BANDWIDTH = {
    "NVIDIA V100": (900, "NVIDIA V100 datasheet 2017: HBM2 900 GB/s"),
    "NVIDIA Tesla P100": (732, "NVIDIA P100 datasheet 2016: SXM2 732 GB/s"),
    "NVIDIA T4": (320, "NVIDIA T4 datasheet 2018: 320 GB/s"),
    "Nvidia Tesla M40": (288, "NVIDIA Tesla M40 datasheet 2015: 288 GB/s"),
    "Nvidia TitanX": (336.5, "NVIDIA GTX Titan X spec page: 336.5 GB/s"),
    "Nvidia TitanX Pascal": (480, "NVIDIA Titan X (Pascal) spec page: 480 GB/s"),
    "NVIDIA GTX TitanXp": (547.7, "NVIDIA Titan Xp spec page: 547.7 GB/s"),
    "NVIDIA GTX 1080 Ti": (484, "NVIDIA GTX 1080 Ti spec page: 484 GB/s"),
    "AMD MI25": (484, "AMD Radeon Instinct MI25 datasheet 2017: 484 GB/s"),
    "AMD Vega Frontier Edition 16GB": (483, "AMD Vega Frontier Edition spec 2017: 483 GB/s"),
    "Intel(R) Xeon Phi(TM)\u00a07250F": (
        490, "Intel Xeon Phi 7250 product brief: MCDRAM up to 490 GB/s"),
}


_WARNED = set()


def _known(key, what):
    """Whether PEAKS and BANDWIDTH hold (hardware, sheet) key; the first
    time one does not, say so on stderr, so that a hardware or sheet
    renamed in the data cannot drop out of the medians unnoticed."""
    if key in PEAKS and key[0] in BANDWIDTH:
        return True
    if (key, what) not in _WARNED:
        _WARNED.add((key, what))
        print("no peak or bandwidth for %r; its %s rows skipped" % (key, what),
              file=sys.stderr)
    return False


def conv_kind(r, rr, ss):
    """The catalog's efficiency class: models/model_layer.c's
    model_conv_class, with its non-square windows in "conv" (eff_conv:
    the catalog has no figure of their own)."""
    unit = r["stride_h"] == "1" and r["stride_w"] == "1"
    if rr == 3 and ss == 3 and unit:
        return "conv3x3"
    if rr == 1 and ss == 1:
        return "conv1x1" if unit else "conv1x1s"
    return "conv"


def conv_rows(path):
    """The compute-bound convolution rows (see the head), less the
    half-precision rows cuDNN ran on fallback kernels."""
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["setting"] != "training":
                continue
            key = (r["hardware"], r["sheet"])
            if not _known(key, "conv"):
                continue
            n, c, k = int(r["N"]), int(r["C"]), int(r["K"])
            h, w = int(r["H"]), int(r["W"])
            rr, ss = int(r["R_filter_h"]), int(r["S_filter_w"])
            p = (h + 2 * int(r["pad_h"]) - rr) // int(r["stride_h"]) + 1
            q = (w + 2 * int(r["pad_w"]) - ss) // int(r["stride_w"]) + 1
            passes = sum(1 for col in ("fwd_ms", "bwd_inputs_ms", "bwd_params_ms")
                         if _num(r[col]) is not None)
            t = _num(r["total_ms"])
            if not t or passes == 0:
                continue
            width = 2 if "16" in r["sheet"] else 4
            if width == 2 and c % 8 != 0:
                continue
            macs = float(n) * k * p * q * c * rr * ss
            intensity = 2.0 * macs / (width * (n * c * h * w + k * c * rr * ss
                                                + n * k * p * q))
            ridge = PEAKS[key][0] * 1e12 / (BANDWIDTH[r["hardware"]][0] * 1e9)
            if intensity < ridge:
                continue
            yield conv_kind(r, rr, ss), key, passes * 2.0 * macs / (t / 1e3)


def gemm_rows(path):
    """The compute-bound GEMM rows (see the head): intensity at or above
    the ridge peak / bandwidth, inputs 2 bytes on FP16 sheets, else 4."""
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if r["setting"] != "training":
                continue
            t = _num(r["time_ms"])
            key = (r["hardware"], r["sheet"])
            if not t or not _known(key, "gemm"):
                continue
            m, n, k = int(r["M"]), int(r["N"]), int(r["K"])
            width = 2 if "16" in r["sheet"] else 4
            flops = 2.0 * m * n * k
            intensity = flops / (width * (m * k + k * n + m * n))
            ridge = PEAKS[key][0] * 1e12 / (BANDWIDTH[r["hardware"]][0] * 1e9)
            if intensity < ridge:
                continue
            yield "gemm", key, flops / (t / 1e3)


def _num(s):
    try:
        return float(s)
    except ValueError:
        return None


KINDS = ("gemm", "conv", "conv3x3", "conv1x1", "conv1x1s")


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    data = argv[1] if len(argv) > 1 else os.path.join(root, "..", "shared", "data")
    effs = {kind: {} for kind in KINDS}
    for rows in (conv_rows(os.path.join(data, "deepbench_conv.csv")),
                 gemm_rows(os.path.join(data, "deepbench_gemm.csv"))):
        for kind, key, flops in rows:
            effs[kind].setdefault(key, []).append(flops / (PEAKS[key][0] * 1e12))

    def med(v):
        return statistics.median(v) if v else float("nan")

    def cells(lists):
        return " ".join("%5d %6.3f%s" % (len(v), med(v),
                                           "*" if len(v) < MIN_ROWS else " ")
                        for v in lists)

    head = " ".join("%13s" % ("n " + k) for k in KINDS)
    print("%-32s %-30s %6s %s" % ("hardware", "sheet", "peak", head))
    classes = {}
    for key, (peak, cls, _src) in PEAKS.items():
        v = [effs[k].get(key, []) for k in KINDS]
        print("%-32s %-30s %6.2f %s" %
              (key[0].replace("\u00a0", " "), key[1][:30], peak, cells(v)))
        if cls == "gpu-tensor" and key[0] not in TENSOR_CLASS_HW:
            continue
        c = classes.setdefault(cls, ([[] for _ in KINDS], []))
        for i in range(len(KINDS)):
            c[0][i].extend(v[i])
        c[1].append(key[0].replace("\u00a0", " "))

    print()
    print("%-12s %s  members" % ("class", head))
    for cls in ("gpu-vector", "gpu-tensor", "cpu-phi"):
        lists, members = classes.get(cls, ([[] for _ in KINDS], []))
        print("%-12s %s  %s" % (cls, cells(lists), ", ".join(members)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
