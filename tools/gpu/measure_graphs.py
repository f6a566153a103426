#!/usr/bin/env python3
"""measure_graphs.py -- the kernel sweeps of measure.py again, each shape's
calls captured in a CUDA graph and replayed, so that the time is the
device's alone: measure.py's eager loops time PyTorch's host dispatch
(10-40 us a call on the machine it ran on) wherever a kernel is shorter.
Also counts the kernels one eager training step launches, and times the
host's share of a step, on tiny inputs (where the device waits for it).

    python3 tools/gpu/measure_graphs.py OUTDIR [--budget-s SECONDS] [--nhwc]

Writes gemm_graph.csv (dlsim calibrate import gemm-csv), conv_graph.csv
(conv-csv, per pass; NCHW tensors), launches.csv and log.txt in OUTDIR;
with --nhwc also conv_graph_nhwc.csv, the same sweep on channels-last
tensors, 16-bit and TF32 (no importer takes a layout yet, so it is a
measurement to keep, not a calibration).  The shipped run's NCHW sweep
took 167 s of a 200 s budget; with --nhwc give about 300 s (the NCHW
sweep stops at 0.6 of it, the NHWC one at 0.95).
"""
import csv
import os
import sys
import time
import traceback

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure as M  # noqa: E402  (shapes, logging, the training cases)

BUDGET = float(sys.argv[sys.argv.index("--budget-s") + 1]) \
    if "--budget-s" in sys.argv else 200.0
NHWC = "--nhwc" in sys.argv


def graph_time(fn, target_s=2e-3, max_reps=400):
    """Mean device seconds of fn(): warm-ups (cuDNN's benchmark search
    among them) on a side stream, then reps calls captured in one graph,
    replayed three times after one warm replay, the best replay kept."""
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    b.synchronize()
    one = max(a.elapsed_time(b) * 1e-3, 1e-7)
    reps = int(min(max_reps, max(5, target_s / one)))
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        for _ in range(reps):
            fn()
    g.replay()
    torch.cuda.synchronize()
    best = 1e9
    for _ in range(3):
        a.record()
        g.replay()
        b.record()
        b.synchronize()
        best = min(best, a.elapsed_time(b) * 1e-3 / reps)
    del g
    return best


def gemm(w, deadline):
    shapes = M.gemm_shapes()
    kinds = [("fp32", torch.float32, False), ("tf32", torch.float32, True),
             ("fp16", torch.float16, False), ("bf16", torch.bfloat16, False),
             ("fp8", torch.float8_e4m3fn, False)]
    for name, dt, tf32 in kinds:
        M.set_tf32(tf32)
        done = 0
        for (m, n, k) in shapes:
            if M.elapsed() > deadline:
                M.log("gemm graph: budget spent in", name)
                break
            if m * k + k * n + m * n > 3 * 2**28:
                continue
            try:
                if name == "fp8":
                    if m % 16 or n % 16 or k % 16:
                        continue
                    a = torch.randn(m, k, device="cuda").to(dt)
                    b = torch.randn(n, k, device="cuda").to(dt).t()
                    one = torch.ones((), device="cuda")
                    fn = (lambda a=a, b=b, one=one: torch._scaled_mm(
                        a, b, scale_a=one, scale_b=one,
                        out_dtype=torch.bfloat16))
                else:
                    a = torch.randn(m, k, device="cuda", dtype=dt)
                    b = torch.randn(k, n, device="cuda", dtype=dt)
                    out = torch.empty(m, n, device="cuda", dtype=dt)
                    fn = (lambda a=a, b=b, out=out: torch.mm(a, b, out=out))
                w.writerow([m, n, k, name, "%.6e" % graph_time(fn)])
                done += 1
            except Exception as e:  # noqa: BLE001
                M.log("gemm graph failed", name, m, n, k, repr(e)[:200])
        M.log("gemm graph", name, done)
    M.set_tf32(False)


def conv(w, deadline, channels_last=False):
    """The conv sweep; channels_last: the tensors (input, filter, output
    and gradients) in NHWC, as torch.channels_last stores them and as
    NVIDIA's MLPerf and channels-last PyTorch runs train.  The shipped
    fits are of NCHW sweeps (DeepBench's, and this one's conv_graph.csv),
    and the H100 profile of a channels-last ResNet-50 step (profile.txt)
    spent about 17 ms in convolutions where those fits give 31.1: the
    layouts need fits apart, and only the tensor-core types differ."""
    torch.backends.cudnn.benchmark = True
    cb = torch.ops.aten.convolution_backward
    kinds = [("fp16", torch.float16, False), ("tf32", torch.float32, True),
             ("fp32", torch.float32, False), ("bf16", torch.bfloat16, False)]
    if channels_last:
        kinds = [k for k in kinds if k[0] != "fp32"]
    fmt = torch.channels_last if channels_last else torch.contiguous_format
    for name, dt, tf32 in kinds:
        M.set_tf32(tf32)
        done = 0
        for (n, c, h, wd, k, r, s, sh, sw, ph, pw) in M.conv_shapes():
            if M.elapsed() > deadline:
                M.log("conv graph: budget spent in", name)
                break
            try:
                x = torch.randn(n, c, h, wd, device="cuda", dtype=dt
                                ).to(memory_format=fmt)
                wt = torch.randn(k, c, r, s, device="cuda", dtype=dt
                                 ).to(memory_format=fmt)
                y = F.conv2d(x, wt, stride=(sh, sw), padding=(ph, pw))
                gy = torch.randn_like(y).to(memory_format=fmt)
                args = (gy, x, wt, None, [sh, sw], [ph, pw], [1, 1], False,
                        [0, 0], 1)
                for pname, fn in (
                        ("fwd", lambda: F.conv2d(x, wt, stride=(sh, sw),
                                                 padding=(ph, pw))),
                        ("bwd_data", lambda: cb(*args, [True, False, False])),
                        ("bwd_filter", lambda: cb(*args,
                                                  [False, True, False]))):
                    w.writerow([n, c, h, wd, k, r, s, sh, sw, ph, pw, pname,
                                name, "%.6e" % graph_time(fn, 1e-3, 100)])
                done += 1
            except Exception as e:  # noqa: BLE001
                M.log("conv graph failed", name, (n, c, h, wd, k, r, s),
                      repr(e)[:200])
        M.log("conv graph", name, done)
    M.set_tf32(False)


def launches(w):
    """Kernels one eager training step launches (the profiler's CUDA
    kernel events), and its wall time on inputs so small that the device
    waits for the host: the stack's host time per launch."""
    from torch.profiler import profile, ProfilerActivity
    cases = [("resnet50", "fp16", 1, 32, True), ("resnet50", "tf32", 1, 32,
                                                  False),
             ("bert-large", "fp16", 1, 8, False),
             ("bert-large", "tf32", 1, 8, False),
             ("gpt2", "bf16", 1, 8, False)]
    for (name, prec, bs, size, cl) in cases:
        try:
            if name == "resnet50":
                model, batch, opt = M.resnet50_case(bs, cl)
                import torchvision  # noqa: F401
                inputs = None

                def batch2(bs=bs, size=size, cl=cl):
                    x = torch.randn(bs, 3, size, size, device="cuda")
                    if cl:
                        x = x.to(memory_format=torch.channels_last)
                    return (x, torch.randint(0, 1000, (bs,), device="cuda"))
                batch = batch2
            elif name == "bert-large":
                model, batch, opt, _ = M.hf_case("bert", bs, size, 24, 1024,
                                                 16)
            else:
                model, batch, opt, _ = M.hf_case("gpt2", bs, size, 12, 768,
                                                 12)
            mean, med, sd, wall = M.step_time(model, batch, opt, prec, 3, 10)
            ac, tf32, scaled = M.PREC[prec]
            scaler = torch.amp.GradScaler("cuda") if scaled else None
            inputs = batch()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                opt.zero_grad(set_to_none=True)
                if ac is not None:
                    with torch.autocast("cuda", dtype=ac):
                        loss = model(*inputs)
                else:
                    loss = model(*inputs)
                if scaler:
                    scaler.scale(loss).backward()
                    scaler.step(opt)
                    scaler.update()
                else:
                    loss.backward()
                    opt.step()
                torch.cuda.synchronize()
            kern = sum(1 for e in prof.events()
                       if e.device_type == torch.autograd.DeviceType.CUDA)
            w.writerow([name, prec, bs, size, int(cl), kern, "%.6e" % mean,
                        "%.6e" % wall])
            M.log("launches", name, prec, bs, size, kern, "kernels,",
                  "%.2f ms" % (mean * 1e3), "%.2f us/kernel" % (
                      mean / max(kern, 1) * 1e6))
        except Exception:  # noqa: BLE001
            M.log("launches failed", name, traceback.format_exc()[-800:])
        model = opt = batch = None
        torch.cuda.empty_cache()


CONV_HEAD = ["n", "c", "h", "w", "k", "r", "s", "stride_h", "stride_w",
             "pad_h", "pad_w", "pass", "dtype", "time_s"]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    M.LOG = open(os.path.join(out, "log.txt"), "w")
    M.log("start, budget %.0f s" % BUDGET)
    for fname, head, fn in (
            ("launches.csv", ["model", "precision", "batch", "seq_or_image",
                              "channels_last", "kernels_per_step",
                              "step_s_mean", "wall_s_per_step"],
             lambda w: launches(w)),
            ("gemm_graph.csv", ["m", "n", "k", "dtype", "time_s"],
             lambda w: gemm(w, 0.25 * BUDGET)),
            ("conv_graph.csv", CONV_HEAD,
             lambda w: conv(w, (0.6 if NHWC else 0.95) * BUDGET)),
            ("conv_graph_nhwc.csv", CONV_HEAD,
             lambda w: conv(w, 0.95 * BUDGET, channels_last=True))):
        if fname == "conv_graph_nhwc.csv" and not NHWC:
            continue
        try:
            with open(os.path.join(out, fname), "w", newline="") as f:
                w = csv.writer(f)
                w.writerow(head)
                fn(w)
        except Exception:  # noqa: BLE001
            M.log(fname, "FAILED", traceback.format_exc()[-1500:])
    M.log("done")


if __name__ == "__main__":
    main()
