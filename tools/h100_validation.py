#!/usr/bin/env python3
"""h100_validation.py -- write data/validation/h100_pytorch.csv, the set
`dlsim validate --set h100_pytorch` predicts, from dlsim's own H100 runs
(data/measurements/h100/train.csv, launches.csv), in the format of
`dlsim validate --file` (README "Your own measurements").

    python3 tools/h100_validation.py [DLSIM]   (default build/dlsim)

Every measured step becomes a row; nothing is dropped or adjusted.  The
optimizers are torch.optim's AdamW and SGD as tools/gpu/measure.py makes
them, which run their foreach kernels (PyTorch's default on CUDA):
`optimizer-foreach yes`.  The fp16 and bf16 runs are torch.autocast's
(tools/gpu/measure.py), so they carry `autocast yes`.  The
Hugging Face rows (BERT-Large, GPT-2) are host-bound at small batches, so
they carry the stack's host time per pass, `dispatch-us`, measured apart
from the rows: launches.csv times eager steps of the same stack on inputs
so small that the device waits for the host (batch 1, 8 tokens); each such
step's time, less its optimizer update (dlsim's prediction of it with
the shipped calibration: a prediction adds the update apart), divided by
the passes dlsim issues for it (counted with `dlsim predict ...
--dispatch-us 1000`, where the host paces every pass) is a host time per
pass.  A row takes the one of its own stack (the Hugging Face model
class: BERT, or GPT-2 for gpt2 and gpt2-medium alike) and precision
where launches.csv has it (the stacks differ: autocast issues casts
that TF32 does not, fp16 a gradient scaler that bf16 does not), else
that of its stack at a precision with the same autocast setting (a
pass count holds the casts, so a time per pass moves only between
runs that cast alike; fp16's gradient scaler, a few passes bf16 does
not run, stays in the figure it moves), else the median of them.  (Until dlsim costed
autocast's casts the rule had no middle step: every pass count was
the same with and without autocast.)  The
torchvision ResNet-50 rows carry none: no such run of that stack
succeeded (BatchNorm refuses a batch of 1), so they are predicted as the
device's time alone.
"""
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

DLSIM = sys.argv[1] if len(sys.argv) > 1 else "build/dlsim"
MEAS = "data/measurements/h100/"
SOURCE = ("dlsim tools/gpu/measure.py, H100 SXM5 80GB HBM3, PyTorch "
          "2.11.0+cu130, 2026-11-27 (data/measurements/h100/train.csv)")


def zoo_name(model, seq, default_seq=True):
    """The zoo model a run's stack is; seq given where it is not the
    model's own.  Hugging Face's GPT-2 configs set activation_function
    "gelu_new" (NewGELUActivation, written out as eager operations:
    eager_gelu=1); its BERT's "gelu" is one kernel."""
    if model == "resnet50":
        return "resnet50"
    keys = []
    if model == "bert-large":
        base = "bert-large"
        if seq != 128 or not default_seq:
            keys.append("seq=%d" % seq)
    else:
        base = "gpt2"
        if model != "gpt2":     # gpt2-medium
            keys.append("layers=24,hidden=1024,heads=16")
        if seq != 1024 or not default_seq:
            keys.append("seq=%d" % seq)
        keys.append("eager_gelu=1")
    return base + (":" + ",".join(keys) if keys else "")


def autocast(prec):
    """predict's flag for a run at prec: measure.py runs fp16 and bf16
    under torch.autocast, fp32 and TF32 without it."""
    return ["--autocast"] if prec in ("fp16", "bf16") else []


def passes(model, prec, db):
    """The passes dlsim issues for one tiny step (its compute time at 1 ms
    a pass, where the host paces them all), and its optimizer update's
    time with the shipped calibration (db), which the step's time holds
    and a prediction adds apart."""
    out = subprocess.run(
        [DLSIM, "predict", model, "--hw", "h100", "--batch", "1",
         "--micro-batch", "1", "--precision", prec, "--optimizer", "adam",
         "--optimizer-foreach", "--dispatch-us", "1000", "--db", db,
         "--format", "csv"] + autocast(prec),
        capture_output=True, text=True, check=True).stdout
    head, row = out.splitlines()[:2]
    v = dict(zip(head.split(","), row.split(",")))
    return round(float(v["compute_s"]) / 1e-3), float(v["optimizer_s"])


def host_per_pass():
    """{(model, precision): host seconds per pass} of the tiny steps, and
    their median."""
    per = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "seed.db")
        subprocess.run([DLSIM, "calibrate", "seed", "--db", db],
                       capture_output=True, check=True)
        for r in csv.DictReader(open(MEAS + "launches.csv")):
            if r["model"] == "resnet50":
                continue
            name = zoo_name(r["model"], int(r["seq_or_image"]), False)
            n, opt = passes(name, r["precision"], db)
            t = float(r["step_s_mean"])
            per[(stack(r["model"]), r["precision"])] = (t - opt) / n
            print("%s %s: (%.2f - %.2f ms) / %d passes = %.1f us" % (
                name, r["precision"], t * 1e3, opt * 1e3, n,
                (t - opt) / n * 1e6), file=sys.stderr)
    return per, statistics.median(per.values())


def stack(model):
    """The Hugging Face model class a run's model is."""
    return "gpt2" if model.startswith("gpt2") else model


def host_for(per, median, model, prec):
    """A run's host time per pass and where it comes from (see the
    head)."""
    key = (stack(model), prec)
    if key in per:
        return per[key], ("this model and precision" if model == key[0]
                          else "%s's at this precision, the same class" %
                          key[0])
    near = sorted(p for (m, p) in per if m == stack(model) and
                  bool(autocast(p)) == bool(autocast(prec)))
    if near:
        return per[(stack(model), near[0])], (
            "this model at %s, which casts as %s does" % (near[0], prec))
    return median, "the median: not measured for this model and precision"



def main():
    per, median = host_per_pass()
    print("dispatch-us %.0f (median of the tiny steps)" % (median * 1e6),
          file=sys.stderr)
    w = csv.writer(open("data/validation/h100_pytorch.csv", "w",
                        newline=""), lineterminator="\n")
    w.writerow(["model", "hw", "batch", "global-batch", "micro-batch",
                "precision", "optimizer", "optimizer-foreach", "autocast",
                "dispatch-us", "metric", "measured", "source", "note"])
    for r in csv.DictReader(open(MEAS + "train.csv")):
        if r["status"]:
            continue
        seq = int(r["seq_or_image"])
        name = zoo_name(r["model"], seq)
        hf = r["model"] != "resnet50"
        host, why = host_for(per, median, r["model"], r["precision"])
        dispatch = "%.0f" % (host * 1e6)
        if hf:
            note = ("Hugging Face transformers 5.17 (%s attention), AdamW; "
                    "dispatch-us from launches.csv (%s)" % (
                        r["attention"], why))
        else:
            note = ("torchvision 0.26, SGD with momentum, %s" % (
                "channels_last" if r["channels_last"] == "1" else "NCHW"))
        if r["precision"] in ("fp16", "bf16"):
            note += ", autocast %s" % r["precision"]
        w.writerow([name, "h100", "" if hf else r["batch"],
                    r["batch"] if hf else "", r["batch"] if hf else "",
                    r["precision"], "adam" if hf else "momentum", "yes",
                    "yes" if autocast(r["precision"]) else "",
                    dispatch if hf else "", "step_s", r["step_s_mean"],
                    SOURCE, note])


if __name__ == "__main__":
    main()
