#!/usr/bin/env python3
"""compare_vtrain.py -- predicted vs measured iteration time for every row
of vTrain's single-node ground truth (shared/data/vtrain_ground_truth_single
.csv): Megatron-DeepSpeed GPT on 2-8 A100s of one node, fp16, full
activation recomputation, 1F1B, with the row's tensor, pipeline and data
parallelism, micro-batch and global batch.

Each row is `dlsim predict gpt:layers=L,hidden=H,heads=A,seq=S,vocab=V,unfused=1
--hw a100xN --tp T --pp P --dp D --micro-batch B --global-batch G
--precision fp16 --optimizer adam --recompute full`; V is 50257,
vTrain's default (src/config.py), which its validation configs keep,
padded to a multiple of 128 x TP as Megatron-DeepSpeed pads it
(_vocab_size_with_padding in megatron/tokenizer/tokenizer.py).
Nothing is fitted to these rows.  Usage (repo root, after make):
    python3 tools/compare_vtrain.py [../shared/data] [--rows] [--dispatch]
"""
import csv
import json
import math
import statistics
import subprocess
import sys

ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
DATA = ARGS[0] if ARGS else "../shared/data"
SHOW_ROWS = "--rows" in sys.argv
# --dispatch: with Megatron-DeepSpeed's fitted 65 us a launch
# (tools/fit_dispatch.py), as dlsim validate predicts these rows
EXTRA = ["--dispatch-us", "65"] if "--dispatch" in sys.argv else []


def command(r, extra=()):
    """The dlsim predict command line of vTrain row r."""
    q = 128 * int(r["tensor parallelism"])   # Megatron's vocabulary padding
    model = (f"gpt:layers={r['# layers']},hidden={r['hidden size']},"
             f"heads={r['attention heads']},seq={r['sequence length']},"
             f"vocab={(50257 + q - 1) // q * q},unfused=1")
    return ["build/dlsim", "predict", model, "--hw", f"a100x{r['# GPUs']}",
            "--tp", r["tensor parallelism"], "--pp", r["pipeline parallelism"],
            "--dp", r["data parallelism"], "--micro-batch", r["micro batch"],
            "--global-batch", r["global batch"], "--precision", "fp16",
            "--optimizer", "adam", "--recompute", "full", "--format",
            "json"] + list(extra)


def predict(r):
    out = subprocess.run(command(r, EXTRA), capture_output=True, text=True)
    if out.returncode:
        return None, out.stderr.strip()
    return json.loads(out.stdout)["result"]["step_time_s"] * 1e3, ""


def kind(r):
    t, p, d = (int(r[k]) for k in ("tensor parallelism",
                                   "pipeline parallelism",
                                   "data parallelism"))
    parts = [n for n, v in (("tp", t), ("pp", p), ("dp", d)) if v > 1]
    return "+".join(parts) if parts else "single"


def stats(errs):
    a = sorted(abs(e) for e in errs)
    # nearest rank, as dlsim validate takes it: the ceil(0.9 n)-th value
    p90 = a[max(0, math.ceil(0.9 * len(a)) - 1)]
    return (f"median |err| {100 * statistics.median(a):5.1f}%  "
            f"P90 {100 * p90:5.1f}%  worst {100 * a[-1]:5.1f}%  "
            f"median signed {100 * statistics.median(errs):+5.1f}%")


def main():
    rows = list(csv.DictReader(open(f"{DATA}/vtrain_ground_truth_single.csv")))
    errs, by_kind, skipped = [], {}, 0
    for r in rows:
        pred, why = predict(r)
        meas = float(r["iteration time (ms)"])
        if pred is None:
            skipped += 1
            print(f"skipped: {why}", file=sys.stderr)
            continue
        e = pred / meas - 1.0
        errs.append(e)
        by_kind.setdefault(kind(r), []).append(e)
        if SHOW_ROWS:
            print(f"{r['# GPUs']} gpus tp{r['tensor parallelism']} "
                  f"pp{r['pipeline parallelism']} dp{r['data parallelism']} "
                  f"mb{r['micro batch']} gb{r['global batch']} "
                  f"h{r['hidden size']} L{r['# layers']}: "
                  f"{meas:8.1f} ms measured, {pred:8.1f} predicted, "
                  f"{100 * e:+6.1f}%")
    print(f"vtrain single  rows {len(errs):4d} (skipped {skipped})  "
          f"{stats(errs)}")
    for k in sorted(by_kind):
        print(f"  {k:10s}   rows {len(by_kind[k]):4d}  {stats(by_kind[k])}")


if __name__ == "__main__":
    main()
