#!/usr/bin/env python3
"""compare_comm.py -- predicted against measured allreduce times for the
three shared measurement sets of the communication issue:

  vtrain     nccl-tests all_reduce_perf curves (float, 1 MiB to 1 GiB) on
             2-8 A100 and 2-8 V100 of one node (VIA-Research/vTrain LUTs);
  nccl       published NCCL busbw figures (nccl-tests issues, vTrain, a
             DeepBench point): the rows that name a system and a size
             dlsim can map;
  deepbench  DeepBench all-reduce (2017): Xeon Phi 7250F over Omni-Path
             (Intel MLSL), and PCIe GPU boxes of 8 over InfiniBand FDR
             (NCCL 2.0, Baidu's ring, OSU).

Every prediction is `dlsim comm allreduce --hw HW --sizes SIZE --format
json` with the measured size and rank count; nothing is fitted to these
rows.  The error of a row is predicted / measured time - 1.  Per curve
(one system and rank count) and per set the script prints the rows, the
median and worst |error| and the signed median, and it can draw predicted
against measured time, log-log, with the +-25% band, for one set.

Column meanings (shared/reference/measured-data.md sections 5 and 9):
nccl-tests times are in ns, out-of-place (the first column nccl-tests
prints) unless --in-place; busbw = algbw x 2(n-1)/n for allreduce, so a
busbw figure gives the time as size x 2(n-1)/n / busbw.  DeepBench's
size_floats counts fp32 values (bytes = 4 x floats) and mean_time_ms is
milliseconds; its "GB/s" column (size x ranks / time) is not used.

Usage (from the repository root, after make):
  python3 tools/compare_comm.py [--data DIR] [--dlsim build/dlsim]
      [--in-place] [--plot FILE.png|.svg] [--plot-set vtrain|nccl|deepbench]
"""
import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

# --------------------------------------------------------------------------
# Mapping measured hardware to dlsim systems
# --------------------------------------------------------------------------

# vTrain's two nodes (measured-data.md sec. 7 and 9).
VTRAIN = {
    "A100": ("a100", "dgx-a100: 8 A100-SXM4 on NVSwitch, 12 NVLink3 per "
             "GPU (300 GB/s/dir); vTrain's A100 LUT reaches 229 GB/s busbw "
             "on 8 GPUs, which only an NVSwitch node does"),
    "V100": ("v100", "dgx1: 8 V100-SXM2 in the NVLink2 hybrid cube mesh, "
             "6 links per GPU (150 GB/s/dir); the V100 LUT is a "
             "DGX-1-class node (measured-data.md sec. 9)"),
}

# DeepBench hardware -> (catalog device, why).  The GPU boxes: 8 GPUs on
# PCIe 3.0 behind switches, InfiniBand FDR between boxes (measured-data.md
# sec. 5); the catalog has no GeForce or Titan card, so those take the
# data-centre part with the same die (the collective depends only on the
# links, which are the same PCIe 3.0 x16).
DEEPBENCH = {
    "Intel(R) Xeon Phi(TM) 7250F": (
        "phi-7250", "stampede2-knl: one Xeon Phi 7250 and one 100 Gb/s "
        "Omni-Path NIC per node, fat tree (1.4:1 as Stampede2; the 7250F "
        "has its Omni-Path on package, DeepBench does not name the "
        "cluster)"),
    "NVIDIA Tesla P100": ("p100-pcie", "Tesla P100 PCIe"),
    "Nvidia Tesla M40": ("m40", "Tesla M40"),
    "Nvidia TitanX": ("m40", "GTX Titan X (Maxwell) as m40: same GM200 die"),
    "Nvidia TitanX Pascal": ("p40", "Titan X (Pascal) as p40: same GP102 "
                             "die"),
    "NVIDIA GTX 1080 Ti": ("p40", "GTX 1080 Ti as p40: same GP102 die"),
}

# The catalog node of each device above, and its NIC; DeepBench's GPU boxes
# used FDR, so a node with another NIC is redrawn with FDR past one box.
CATALOG_NIC = {"p100-pcie": "ib-edr", "p40": "ib-edr", "m40": "ib-fdr"}

FDR_BOX_YAML = """\
nodes:
  - name: deepbench-{dev}-box
    device: {dev}
    devices_per_node: 8
    intra_link: pcie3
    intra_links_per_device: 1
    intra_topology: pcie-tree
    nic_link: ib-fdr
    nics_per_node: 1
    network: fat-tree
    source: "DeepBench all-reduce GPU boxes: 8 GPUs, PCIe 3.0, IB FDR"
system:
  node: deepbench-{dev}-box
  count: {nodes}
"""

# Published rows: (pattern on `system`, catalog device or None, --algo,
# note or reason to skip).
PUBLISHED = [
    (r"H100 SXM ring \(NCCL_ALGO=RING\)", "h100", "ring",
     "dgx-h100 (NVSwitch, 450 GB/s/dir) with --algo ring, as NCCL_ALGO=RING"),
    (r"H100 SXM \(NVLink4 \+ NVSwitch, NVLS\)", "h100", None,
     "dgx-h100 (NVSwitch, 450 GB/s/dir); NVLS reduces inside the switch, "
     "which dlsim does not model"),
    (r"H800", None, None,
     "no H800 in the catalog: its NVLink is cut to 400 GB/s (both "
     "directions), so h100 would model 2.25x the link"),
    (r"H100 PCIe with NVLink bridge", None, None,
     "the NVLink bridge of a PCIe H100 pair is not in the catalog "
     "(h100-pcie-server is PCIe 5 only)"),
    (r"A100 \(NV12 pair\)", "a100", None,
     "two A100 with 12 NVLink3 between them: a100x2 (dgx-a100)"),
    (r"8x A100 \(DGX-A100", "a100", None, "dgx-a100, as the vtrain set"),
    (r"8x V100 \(DGX-1", "v100", None, "dgx1, as the vtrain set"),
    (r"Xeon Phi 7250", "phi-7250", None,
     "stampede2-knl nodes, as the deepbench set"),
]

# --------------------------------------------------------------------------
# Running dlsim
# --------------------------------------------------------------------------


class Dlsim:
    """dlsim comm allreduce, one size per call, results cached."""

    def __init__(self, binary, tmp):
        self.binary, self.tmp, self.cache = binary, tmp, {}

    def time(self, hw, size, algo=None):
        key = (hw, size, algo)
        if key not in self.cache:
            cmd = [self.binary, "comm", "allreduce", "--hw", hw, "--sizes",
                   str(size), "--format", "json"]
            if algo:
                cmd += ["--algo", algo]
            out = subprocess.run(cmd, capture_output=True, text=True)
            if out.returncode:
                sys.exit(f"compare_comm: {' '.join(cmd)}: "
                         f"{out.stderr.strip()}")
            row = json.loads(out.stdout)["rows"][0]
            self.cache[key] = (row["time_s"], row["algorithm"] +
                               (" hier." if row["hierarchical"] else ""))
        return self.cache[key]

    def fdr_box(self, dev, ranks):
        """A --hw file: `ranks` devices in DeepBench's FDR boxes of 8."""
        path = os.path.join(self.tmp, f"deepbench-{dev}x{ranks}.yaml")
        with open(path, "w") as f:
            f.write(FDR_BOX_YAML.format(dev=dev, nodes=ranks // 8))
        return path

# --------------------------------------------------------------------------
# The three sets: rows of (set, curve, hw label, size, measured s, algo)
# --------------------------------------------------------------------------


def rows_vtrain(data, in_place, notes):
    col = "time_ip_ns" if in_place else "time_oop_ns"
    for gpu, (dev, why) in VTRAIN.items():
        notes.append(f"vtrain {gpu} x N -> {dev}xN, {why}")
    for r in csv.DictReader(open(os.path.join(
            data, "vtrain_allreduce_nccl_tests.csv"))):
        dev = VTRAIN[r["gpu"]][0]
        n = int(r["num_gpus"])
        yield {"set": "vtrain", "curve": f"{r['gpu']} x {n}",
               "hw": f"{dev}x{n}", "spec": f"{dev}x{n}", "ranks": n,
               "size": int(r["size_bytes"]), "meas": float(r[col]) * 1e-9,
               "algo": None}


def parse_size(text):
    """Bytes from the published message_size text, or None."""
    m = re.search(r"(\d+)\s*floats", text)
    if m:
        return int(m.group(1)) * 4
    found = re.findall(r"(\d+(?:\.\d+)?)\s*(GiB|MiB|GB|MB)", text)
    if not found:
        return None
    value, unit = found[-1]  # a range or "up to": its top
    return int(float(value) * (2**30 if unit[0] == "G" else 2**20))


def short_source(text):
    """"NVIDIA/nccl-tests issue #212", "VIA-Research/vTrain", ..."""
    words = text.strip('"').split()
    return " ".join(words[:3]) if words[1:2] == ["issue"] else words[0]


def measured_time(r, size, ranks):
    value = float(r["value"])
    if r["metric"] == "time":
        return value * {"ms": 1e-3, "us": 1e-6, "s": 1.0}[r["unit"]]
    if r["metric"].startswith("busbw") and r["unit"] == "GB/s":
        return size * 2 * (ranks - 1) / ranks / (value * 1e9)
    return None


def rows_nccl(data, notes, skipped):
    rows = list(csv.DictReader(open(os.path.join(
        data, "nccl_allreduce_published.csv"))))
    for r in rows:
        match = next((p for p in PUBLISHED if re.search(p[0], r["system"])),
                     None)
        label = f"{r['system']} ({r['message_size']})"
        if not match or not match[1]:
            skipped.append(("nccl", label, match[3] if match else
                            "no catalog system for it"))
            continue
        ranks = int(r["ranks"])
        size = parse_size(r["message_size"])
        note = match[3]
        if size is None:
            # "large": the size the same thread states for its other row
            thread = re.search(r"issue #\d+", r["source"])
            sib = [parse_size(o["message_size"]) for o in rows
                   if thread and thread.group(0) in o["source"]]
            sib = [s for s in sib if s]
            if not sib:
                skipped.append(("nccl", label, "no message size given"))
                continue
            size = sib[0]
            note += f"; size '{r['message_size']}' taken as {size >> 20} " \
                    "MiB, the bound the same thread gives"
        meas = measured_time(r, size, ranks)
        if meas is None:
            skipped.append(("nccl", label, f"metric {r['metric']} "
                            f"in {r['unit']} is not a time or busbw"))
            continue
        hw = f"{match[1]}x{ranks}"
        notes.append(f"nccl {label} -> {hw} at {size} B: {note}")
        yield {"set": "nccl", "curve": r["system"], "hw": hw,
               "spec": hw, "ranks": ranks, "size": size, "meas": meas,
               "algo": match[2],
               "impl": short_source(r["source"])}


def rows_deepbench(data, dlsim, notes, skipped):
    seen = set()
    for r in csv.DictReader(open(os.path.join(
            data, "deepbench_allreduce.csv"))):
        r["hardware"] = " ".join(r["hardware"].split())  # a no-break space
        if r["hardware"] not in DEEPBENCH:
            skipped.append(("deepbench", r["hardware"],
                            "no catalog device or node for it"))
            continue
        dev, why = DEEPBENCH[r["hardware"]]
        ranks = int(r["ranks"])
        hw = spec = f"{dev}x{ranks}"
        if ranks > 8 and CATALOG_NIC.get(dev, "ib-fdr") != "ib-fdr":
            spec = dlsim.fdr_box(dev, ranks)
            hw = f"{dev}x{ranks} (FDR)"
        if r["hardware"] not in seen:
            seen.add(r["hardware"])
            extra = "" if dev == "phi-7250" else (
                f" in its catalog node up to 8 ranks; past 8, boxes of 8 "
                f"with IB FDR" + (" (its catalog node has EDR: redrawn "
                                  "with FDR by a --hw file)"
                                  if CATALOG_NIC[dev] != "ib-fdr" else ""))
            notes.append(f"deepbench {r['hardware']} x N -> {dev}xN: "
                         f"{why}{extra}")
        yield {"set": "deepbench", "curve": f"{r['hardware']} x {ranks}",
               "hw": hw, "spec": spec, "ranks": ranks,
               "size": int(r["size_floats"]) * 4,
               "meas": float(r["mean_time_ms"]) * 1e-3, "algo": None,
               "impl": r["algorithm"]}

# --------------------------------------------------------------------------
# Statistics and output
# --------------------------------------------------------------------------


def summary(errs):
    worst = max(errs, key=abs)
    return (len(errs), statistics.median(abs(e) for e in errs), worst,
            statistics.median(errs),
            sum(abs(e) <= 0.25 for e in errs) / len(errs))


def pct(x):
    return f"{100 * x:+.0f}%"


def print_table(rows):
    curves = {}
    for r in rows:
        curves.setdefault((r["set"], r["curve"], r["hw"]), []).append(r)
    print(f"| set | curve | dlsim --hw | rows | median abs err | worst | "
          f"signed median | within 25% | dlsim algorithm | measured by |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for (s, curve, hw), rs in curves.items():
        n, med, worst, signed, within = summary([r["err"] for r in rs])
        algos = "/".join(sorted({r["pred_algo"] for r in rs}))
        impl = "/".join(sorted({r.get("impl", "nccl-tests") for r in rs}))
        print(f"| {s} | {curve} | {hw} | {n} | {100 * med:.0f}% | "
              f"{pct(worst)} | {pct(signed)} | {100 * within:.0f}% | "
              f"{algos} | {impl} |")
    print()
    print("| set | rows | median abs err | worst | signed median | "
          "within 25% |")
    print("|---|---|---|---|---|---|")
    for s in dict.fromkeys(r["set"] for r in rows):
        n, med, worst, signed, within = summary(
            [r["err"] for r in rows if r["set"] == s])
        print(f"| {s} | {n} | {100 * med:.0f}% | {pct(worst)} | "
              f"{pct(signed)} | {100 * within:.0f}% |")


def plot(rows, which, image):
    """Predicted against measured time, log-log, one series per system."""
    rows = [r for r in rows if r["set"] == which]
    if not rows:
        sys.exit(f"compare_comm: no rows in set '{which}' to plot")
    stem, ext = os.path.splitext(image)
    if ext not in (".png", ".svg"):
        sys.exit(f"compare_comm: plot file '{image}' must end in .png or "
                 ".svg")
    dat, gp = stem + ".dat", stem + ".gp"
    series = {}  # one per curve: colour by ranks, point type by family
    for r in rows:
        series.setdefault(r["curve"], []).append(r)
    families = list(dict.fromkeys(c.rsplit(" x ", 1)[0] for c in series))
    ranks = sorted({r["ranks"] for r in rows})
    with open(dat, "w") as f:
        f.write("# measured_us predicted_us size_bytes ranks curve\n")
        for i, (key, rs) in enumerate(series.items()):
            f.write(f"# {key}\n")
            for r in rs:
                f.write(f"{r['meas'] * 1e6:.6g} {r['pred'] * 1e6:.6g} "
                        f"{r['size']} {r['ranks']} "
                        f"\"{r['curve']}\"\n")
            f.write("\n\n")
    lo = min(min(r["meas"], r["pred"]) for r in rows) * 1e6 / 1.5
    hi = max(max(r["meas"], r["pred"]) for r in rows) * 1e6 * 1.5
    titles = {"vtrain": "allreduce: dlsim against nccl-tests (vTrain, "
              "A100 and V100 nodes, 2-8 GPUs, 1 MiB-1 GiB)",
              "nccl": "allreduce: dlsim against published NCCL figures",
              "deepbench": "allreduce: dlsim against DeepBench (2017)"}
    term = ("pngcairo size 1250,900 font ',11'" if ext == ".png"
            else "svg size 1250,900 dynamic font 'sans,11'")
    colours = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e",
               "#e6ab02", "#a6761d", "#666666", "#1f78b4"]
    with open(gp, "w") as f:
        f.write(f"# written by tools/compare_comm.py; redraw with: "
                f"gnuplot {gp}\n")
        f.write(f"set terminal {term}\nset termoption noenhanced\n")
        f.write(f"set output '{image}'\n")
        f.write(f"set title \"{titles[which]}\" font ',13'\n")
        f.write("set xlabel 'measured time (us)'\n"
                "set ylabel 'predicted time (us)'\n"
                "set logscale xy\nset format xy '%g'\n"
                f"set xrange [{lo:g}:{hi:g}]\nset yrange [{lo:g}:{hi:g}]\n"
                "set size ratio -1\n"
                "set grid xtics ytics mxtics mytics back lt 1 lw 1 lc rgb "
                "'#c8c8c8', lt 1 lw 1 lc rgb '#ececec'\n"
                "set key outside right center Left reverse box\n")
        f.write("plot x with lines lw 2 lc rgb '#333333' "
                "title 'predicted = measured', \\\n"
                "     1.25*x with lines dt 2 lw 1.5 lc rgb '#777777' "
                "title 'predicted = measured +25%', \\\n"
                "     0.75*x with lines dt 3 lw 1.5 lc rgb '#777777' "
                "title 'predicted = measured -25%'")
        for i, (key, rs) in enumerate(series.items()):
            pt = (7, 9, 5, 11, 13, 15)[families.index(
                key.rsplit(" x ", 1)[0]) % 6]
            colour = colours[ranks.index(rs[0]["ranks"]) % len(colours)]
            f.write(f", \\\n     '{dat}' index {i} using 1:2 with points "
                    f"pt {pt} ps 1.3 lc rgb '{colour}' title '{key}'")
        f.write("\n")
    if shutil.which("gnuplot") is None:
        print(f"compare_comm: gnuplot not found; wrote {dat} and {gp}",
              file=sys.stderr)
        return
    subprocess.run(["gnuplot", gp], check=True)
    print(f"plot: {image} (data {dat}, script {gp})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "..", "..",
                                                   "shared", "data"))
    ap.add_argument("--dlsim", default="build/dlsim")
    ap.add_argument("--in-place", action="store_true",
                    help="nccl-tests' in-place times instead of "
                    "out-of-place")
    ap.add_argument("--plot", metavar="FILE.png")
    ap.add_argument("--plot-set", default="vtrain",
                    choices=["vtrain", "nccl", "deepbench"])
    a = ap.parse_args()
    if not os.path.isdir(a.data):
        sys.exit(f"compare_comm: no data directory {a.data}; give --data")
    notes, skipped, rows = [], [], []
    with tempfile.TemporaryDirectory(prefix="compare-comm-") as tmp:
        dlsim = Dlsim(a.dlsim, tmp)
        for r in [*rows_vtrain(a.data, a.in_place, notes),
                  *rows_nccl(a.data, notes, skipped),
                  *rows_deepbench(a.data, dlsim, notes, skipped)]:
            r["pred"], r["pred_algo"] = dlsim.time(r["spec"], r["size"],
                                                   r["algo"])
            r["err"] = r["pred"] / r["meas"] - 1.0
            rows.append(r)
    print("Mapping (measured hardware -> dlsim --hw):")
    for n in notes:
        print(f"  {n}")
    print(f"\nallreduce time, predicted / measured - 1 "
          f"(nccl-tests {'in' if a.in_place else 'out-of'}-place):\n")
    print_table(rows)
    if skipped:
        print("\nNot mapped:")
        for s, label, why in skipped:
            print(f"  {s}: {label}: {why}")
    if a.plot:
        plot(rows, a.plot_set, a.plot)


if __name__ == "__main__":
    main()
