#!/usr/bin/env python3
"""compare_megatron.py -- dlsim against the verified Megatron-LM rows of
shared/data/published_scaling_results.csv:

- Narayanan et al. 2021 Table 1 (PTD-P weak scaling, 1.7B-1T GPT on 32-3072
  A100s): achieved TFLOP/s per GPU, with the row's TP, PP, DP and batch,
  seq 2048, vocab 51200, fp16, full recomputation (the paper's setting,
  Sec. 5.1), micro-batch 1 and the non-interleaved 1F1B schedule (the
  table gives neither; both are assumptions);
- Narayanan et al. 2021 Table 2, PTD-P rows (GPT-3 175B, model-parallel
  size 96 = TP 8 x PP 12, micro-batch 1);
- Korthikanti et al. 2022 Table 5 (iteration time of 22B, 175B, 530B, 1T
  with full recomputation, and with sequence parallelism + selective
  recomputation).

TFLOP/s per GPU is dlsim's executed FLOPs (recomputation included) over the
step, as Megatron counts them.  Nothing is fitted.  Usage (repo root):
    python3 tools/compare_megatron.py [../shared/data]
"""
import csv
import json
import re
import statistics
import subprocess
import sys

DATA = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"
KORTHIKANTI = {  # Table 5 models: layers, hidden, heads (Sec. 6, Table 3)
    "22B": (48, 6144, 64), "GPT-3 175B": (96, 12288, 96),
    "MT-NLG 530B": (105, 20480, 128), "1T": (128, 25600, 160)}


def run(model, n, tp, pp, dp, gb, extra):
    cmd = ["build/dlsim", "predict", model, "--hw", f"a100x{n}",
           "--tp", str(tp), "--pp", str(pp), "--dp", str(dp),
           "--micro-batch", "1", "--global-batch", str(gb),
           "--precision", "fp16", "--optimizer", "adam",
           "--format", "json"] + extra
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode:
        return None, out.stderr.strip()
    return json.loads(out.stdout)["result"], ""


def main():
    errs = {}
    for r in csv.DictReader(open(f"{DATA}/published_scaling_results.csv")):
        if "Narayanan" in r["study"] and "Table 1" in r["study"]:
            m = re.search(r"heads=(\d+), hidden=(\d+), layers=(\d+)",
                          r["model"])
            a, h, L = (int(x) for x in m.groups())
            tp, pp, dp = (int(x) for x in
                          re.findall(r"=(\d+)", r["parallelism"]))
            model = f"gpt:layers={L},hidden={h},heads={a},seq=2048,vocab=51200,unfused=1"
            res, why = run(model, r["num_accelerators"], tp, pp, dp,
                           r["global_batch"], ["--recompute", "full"])
            meas, key = float(r["value"]), "Narayanan Table 1 (TFLOP/s/GPU)"
            pred = res and res["tflops_per_device"]
        elif "Narayanan" in r["study"] and "PTD-P;" in r["parallelism"]:
            model = "gpt3-175b:vocab=51200,unfused=1" if r["params_B"] == "174.6" \
                else "gpt:layers=105,hidden=20480,heads=128,seq=2048,vocab=51200,unfused=1"
            mp = int(re.search(r"size=(\d+)", r["parallelism"]).group(1))
            tp, pp = 8, mp // 8
            n = int(r["num_accelerators"])
            res, why = run(model, n, tp, pp, n // mp, r["global_batch"],
                           ["--recompute", "full"])
            meas, key = float(r["value"]), "Narayanan Table 2 PTD-P (TFLOP/s/GPU)"
            pred = res and res["tflops_per_device"]
        elif "Korthikanti" in r["study"]:
            L, h, a = KORTHIKANTI[r["model"]]
            tp, pp, dp = (int(x) for x in
                          re.findall(r"=(\d+)", r["parallelism"]))
            extra = (["--recompute", "full"] if "full" in r["parallelism"]
                     else ["--recompute", "selective",
                           "--sequence-parallel"])
            model = f"gpt:layers={L},hidden={h},heads={a},seq=2048,vocab=51200,unfused=1"
            res, why = run(model, r["num_accelerators"], tp, pp, dp,
                           r["global_batch"], extra)
            meas, key = float(r["value"]), "Korthikanti Table 5 (iteration s)"
            pred = res and res["step_time_s"]
        else:
            continue
        if not res:
            print(f"skipped {r['model']}: {why}", file=sys.stderr)
            continue
        e = pred / meas - 1.0
        errs.setdefault(key, []).append(e)
        print(f"{key[:22]:22s} {r['model'][:40]:40s} n={r['num_accelerators']:>5s} "
              f"{r['parallelism'][:34]:34s} measured {meas:8.2f} "
              f"predicted {pred:8.2f} {100 * e:+6.1f}%")
    for k, v in errs.items():
        a = sorted(abs(x) for x in v)
        print(f"{k}: rows {len(v)}, median |err| "
              f"{100 * statistics.median(a):.1f}%, worst {100 * a[-1]:.1f}%, "
              f"median signed {100 * statistics.median(v):+.1f}%")


if __name__ == "__main__":
    main()
