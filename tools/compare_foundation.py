#!/usr/bin/env python3
"""compare_foundation.py -- predicted vs measured throughput for the rows the
foundation issue names: ResNet-50 on V100 (NVIDIA DeepLearningExamples,
TensorFlow, non-XLA rows, which state their batch) and the five CNNs of
tf_cnn_benchmarks (2017) on P100 (DGX-1) and K80.

Nothing here is fitted: every prediction is `dlsim predict` with the row's
model, device count, batch and precision.  Usage (from the repo root, after
make):  python3 tools/compare_foundation.py [../shared/data]
"""
import csv
import json
import statistics
import subprocess
import sys

DATA = sys.argv[1] if len(sys.argv) > 1 else "../shared/data"
MODELS = {"InceptionV3": "inception_v3", "ResNet-50": "resnet:depth=50,v1=1",
          "ResNet-152": "resnet:depth=152,v1=1", "AlexNet": "alexnet_tf",
          "VGG16": "vgg16"}


def predict(model, hw, batch, precision):
    out = subprocess.run(["build/dlsim", "predict", model, "--hw", hw,
                          "--batch", str(batch), "--precision", precision,
                          "--format", "json"], capture_output=True,
                         text=True)
    if out.returncode:
        return None, out.stderr.strip()
    return json.loads(out.stdout)["throughput"], ""


def rows_dle():
    seen = set()
    for r in csv.DictReader(open(f"{DATA}/nvidia_dle_training_performance.csv")):
        if ("resnet50" not in r["model_dir"] or r["framework"] != "TensorFlow"
                or r["metric"] != "throughput" or "XLA" in r["column"]
                or not r["batch_per_gpu"]):
            continue
        dev = {"V100-16GB": "v100", "V100-SXM3-32GB": "v100-sxm3-32gb"}.get(
            r["gpu_type"])
        if not dev:
            continue
        prec = "fp16" if r["precision"] == "mixed" else "fp32"
        key = (dev, r["gpus"], r["batch_per_gpu"], prec, r["value"])
        if key in seen:
            continue
        seen.add(key)
        yield ("dle", "resnet50", f"{dev}x{r['gpus']}", int(r["batch_per_gpu"]),
               prec, float(r["value"]))


def rows_tf():
    seen = set()
    for r in csv.DictReader(open(f"{DATA}/tf_cnn_benchmarks_2017.csv")):
        dev = "p100" if "P100" in r["gpu"] else "k80" if "K80" in r["gpu"] else None
        if not dev or r["model"] not in MODELS:
            continue
        key = (r["model"], dev, r["num_gpus"], r["batch_per_gpu"], r["throughput"])
        if key in seen:
            continue
        seen.add(key)
        yield ("tf_cnn_" + dev, MODELS[r["model"]], f"{dev}x{r['num_gpus']}",
               int(r["batch_per_gpu"]), "fp32", float(r["throughput"]))


def scaling(rows):
    """Measured and predicted scaling efficiency, N devices against one at
    the same batch per device: throughput_N / (N x throughput_1)."""
    one = {}
    for s, model, hw, batch, prec, meas, pred in rows:
        dev, n = hw.rsplit("x", 1)
        if n == "1":
            one.setdefault((s, model, dev, batch, prec), (meas, pred))
    out = []
    for s, model, hw, batch, prec, meas, pred in rows:
        dev, n = hw.rsplit("x", 1)
        base = one.get((s, model, dev, batch, prec))
        if n == "1" or not base:
            continue
        n = int(n)
        out.append((s, model, hw, batch, meas / (n * base[0]),
                    pred / (n * base[1])))
    return out


def main():
    sets = {}
    done = []
    print(f"{'set':12} {'model':13} {'hw':18} {'batch':>5} {'prec':5} "
          f"{'measured':>9} {'predicted':>9} {'error':>7}")
    for s, model, hw, batch, prec, meas in list(rows_dle()) + list(rows_tf()):
        pred, why = predict(model, hw, batch, prec)
        if pred is None:
            print(f"{s:12} {model:13} {hw:18} skipped: {why}")
            continue
        err = pred / meas - 1.0
        sets.setdefault(s, []).append(err)
        done.append((s, model, hw, batch, prec, meas, pred))
        print(f"{s:12} {model:13} {hw:18} {batch:5d} {prec:5} {meas:9.1f} "
              f"{pred:9.1f} {100 * err:+6.1f}%")
    print()
    for s, errs in sets.items():
        a = sorted(abs(e) for e in errs)
        print(f"{s:12} rows {len(errs):3d}  median |err| "
              f"{100 * statistics.median(a):5.1f}%  worst {100 * a[-1]:5.1f}%"
              f"  median signed {100 * statistics.median(errs):+5.1f}%")
    print("\nscaling efficiency (N devices vs one, same batch per device)")
    eff = {}
    for s, model, hw, batch, m, p in scaling(done):
        eff.setdefault(s, []).append(p - m)
        print(f"{s:12} {model:13} {hw:18} {batch:5d} measured {100 * m:5.1f}%"
              f" predicted {100 * p:5.1f}%")
    for s, d in eff.items():
        a = sorted(abs(x) for x in d)
        print(f"{s:12} rows {len(d):3d}  median |pred - meas| "
              f"{100 * statistics.median(a):4.1f} points, worst "
              f"{100 * a[-1]:4.1f}")


if __name__ == "__main__":
    main()
