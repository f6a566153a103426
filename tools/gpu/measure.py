#!/usr/bin/env python3
"""measure.py -- record kernel, memory and training-step measurements of one
NVIDIA GPU with PyTorch, for dlsim's calibration and validation data.

Run on the machine with the GPU, from the repository root:

    python3 tools/gpu/measure.py OUTDIR [--budget-s SECONDS]

It writes, in OUTDIR:

  env.json          the software and hardware it ran on (torch, CUDA, cuDNN,
                    cuBLAS, driver, GPU name, clocks, nvidia-smi -q)
  gemm.csv          m,n,k,dtype,time_s  (dlsim calibrate import gemm-csv):
                    the DeepBench training GEMM shapes of
                    data/calibration/deepbench_gemm.csv (each distinct M,N,K,
                    as C = A B, no transposes) and square sizes, in fp32
                    (TF32 off), tf32, fp16, bf16 and fp8 (e4m3, torch._scaled_mm)
  conv.csv          n,c,h,w,k,r,s,stride_h,stride_w,pad_h,pad_w,pass,dtype,time_s
                    (dlsim calibrate import conv-csv): the DeepBench training
                    convolution shapes of data/calibration/deepbench_conv.csv,
                    forward, backward-data and backward-filter, cuDNN with
                    torch.backends.cudnn.benchmark on (as training scripts run)
  stream_<N>.txt    STREAM 5.10's table for arrays of N float64 elements, the
                    four kernels run as PyTorch tensor operations (dlsim
                    calibrate import stream)
  dispatch.csv      host time per operation of PyTorch's eager mode, from
                    loops of tiny operations whose kernels finish sooner than
                    the host issues them
  train.csv         training-step times of torchvision ResNet-50 and Hugging
                    Face BERT-Large (masked LM) and GPT-2 on synthetic data,
                    several batch sizes and precisions, with peak memory
  log.txt           what ran, what failed and why

Each time is the mean over a timed loop bracketed by CUDA events after warm-up
iterations (the first of which lets cuDNN's benchmark mode pick algorithms).
Nothing is fitted here: the raw times are the record.  Sections stop early when
the time budget runs out, and say so in the log.
"""
import csv
import json
import math
import os
import platform
import subprocess
import sys
import time
import traceback

import torch
import torch.nn.functional as F

T0 = time.time()
OUT = sys.argv[1] if len(sys.argv) > 1 else "out"
BUDGET = 420.0
if "--budget-s" in sys.argv:
    BUDGET = float(sys.argv[sys.argv.index("--budget-s") + 1])
os.makedirs(OUT, exist_ok=True)
LOG = open(os.path.join(OUT, "log.txt"), "w")


def log(*a):
    msg = "[%6.1f s] " % (time.time() - T0) + " ".join(str(x) for x in a)
    print(msg, flush=True)
    LOG.write(msg + "\n")
    LOG.flush()


def elapsed():
    return time.time() - T0


def set_tf32(on):
    torch.backends.cuda.matmul.allow_tf32 = on
    torch.backends.cudnn.allow_tf32 = on


def time_call(fn, min_s=0.02, max_reps=50):
    """Mean seconds of fn() on the GPU: two warm-ups, then a timed loop long
    enough to be measured (about min_s, 3 to max_reps calls)."""
    fn()
    fn()
    torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    a.record()
    fn()
    b.record()
    b.synchronize()
    one = max(a.elapsed_time(b) * 1e-3, 1e-7)
    reps = int(min(max_reps, max(3, min_s / one)))
    a.record()
    for _ in range(reps):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) * 1e-3 / reps


# ---------------------------------------------------------------- env
def record_env():
    p = torch.cuda.get_device_properties(0)
    env = {
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "script": "tools/gpu/measure.py",
        "python": platform.python_version(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "cudnn": torch.backends.cudnn.version(),
        "cublas_lt": None,
        "gpu": p.name,
        "sm_count": p.multi_processor_count,
        "memory_bytes": p.total_memory,
        "capability": "%d.%d" % (p.major, p.minor),
        "host_cpu": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
    }
    try:
        import transformers
        env["transformers"] = transformers.__version__
    except Exception as e:  # noqa: BLE001
        env["transformers"] = "unavailable: %s" % e
    try:
        import torchvision
        env["torchvision"] = torchvision.__version__
    except Exception as e:  # noqa: BLE001
        env["torchvision"] = "unavailable: %s" % e
    for q in ("driver_version", "clocks.max.sm", "clocks.max.mem",
              "power.limit", "ecc.mode.current", "clocks.applications.graphics"):
        try:
            env["nvidia-smi " + q] = subprocess.run(
                ["nvidia-smi", "--query-gpu=" + q, "--format=csv,noheader"],
                capture_output=True, text=True, timeout=20).stdout.strip()
        except Exception as e:  # noqa: BLE001
            env["nvidia-smi " + q] = "failed: %s" % e
    try:
        q = subprocess.run(["nvidia-smi", "-q"], capture_output=True,
                           text=True, timeout=30).stdout
        open(os.path.join(OUT, "nvidia-smi-q.txt"), "w").write(q)
    except Exception as e:  # noqa: BLE001
        log("nvidia-smi -q failed:", e)
    json.dump(env, open(os.path.join(OUT, "env.json"), "w"), indent=1)
    log("env", json.dumps(env))


def smi_clocks(tag):
    try:
        s = subprocess.run(
            ["nvidia-smi", "--query-gpu=clocks.sm,clocks.mem,power.draw,"
             "temperature.gpu,clocks_throttle_reasons.active",
             "--format=csv,noheader"], capture_output=True, text=True,
            timeout=20).stdout.strip()
        log("clocks", tag, s)
    except Exception as e:  # noqa: BLE001
        log("clocks", tag, "failed", e)


# ---------------------------------------------------------------- STREAM
def stream(n):
    """STREAM 5.10's four kernels on float64 tensors of n elements, NTIMES
    10, the first iteration left out of the statistics as stream.c does."""
    dev = "cuda"
    a = torch.full((n,), 1.0, dtype=torch.float64, device=dev)
    b = torch.full((n,), 2.0, dtype=torch.float64, device=dev)
    c = torch.zeros((n,), dtype=torch.float64, device=dev)
    s = 3.0
    a.mul_(2.0)   # stream.c: a[j] = 2.0E0 * a[j] before the loop
    ops = [
        ("Copy:", 2, lambda: c.copy_(a)),
        ("Scale:", 2, lambda: torch.mul(c, s, out=b)),
        ("Add:", 3, lambda: torch.add(a, b, out=c)),
        ("Triad:", 3, lambda: torch.add(b, c, alpha=s, out=a)),
    ]
    times = [[] for _ in ops]
    ev = [torch.cuda.Event(enable_timing=True) for _ in range(2)]
    for _ in range(10):
        for j, (_, _, op) in enumerate(ops):
            ev[0].record()
            op()
            ev[1].record()
            ev[1].synchronize()
            times[j].append(ev[0].elapsed_time(ev[1]) * 1e-3)
    # stream.c's checkSTREAMresults: the scalars after NTIMES iterations
    aj, bj, cj = 2.0, 2.0, 0.0
    aj = 2.0 * 1.0
    for _ in range(10):
        cj = aj
        bj = s * cj
        cj = aj + bj
        aj = bj + s * cj
    ok = all(abs(float(t[0]) - v) / abs(v) < 1e-13 and
             abs(float(t[-1]) - v) / abs(v) < 1e-13
             for t, v in ((a, aj), (b, bj), (c, cj)))
    lines = [
        "-------------------------------------------------------------",
        "STREAM version $Revision: 5.10 $ (the four kernels as PyTorch "
        "CUDA tensor operations, float64; dlsim tools/gpu/measure.py)",
        "-------------------------------------------------------------",
        "This system uses 8 bytes per array element.",
        "-------------------------------------------------------------",
        "Array size = %d (elements), Offset = 0 (elements)" % n,
        "Memory per array = %.1f MiB (= %.1f GiB)." % (
            8.0 * n / 2**20, 8.0 * n / 2**30),
        "Total memory required = %.1f MiB (= %.1f GiB)." % (
            24.0 * n / 2**20, 24.0 * n / 2**30),
        "Each kernel will be executed 10 times.",
        "-------------------------------------------------------------",
        "Function    Best Rate MB/s  Avg time     Min time     Max time",
    ]
    for j, (label, arrays, _) in enumerate(ops):
        t = times[j][1:]
        mn, mx, avg = min(t), max(t), sum(t) / len(t)
        lines.append("%-12s%11.1f  %11.9f  %11.9f  %11.9f" % (
            label, 1e-6 * arrays * 8 * n / mn, avg, mn, mx))
    lines.append("-------------------------------------------------------------")
    lines.append("Solution Validates: avg error less than 1.000000e-13 on all "
                 "three arrays" if ok else "Failed Validation on array c[]")
    lines.append("-------------------------------------------------------------")
    del a, b, c
    torch.cuda.empty_cache()
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- GEMM
def gemm_shapes():
    shapes = set()
    with open("data/calibration/deepbench_gemm.csv") as f:
        for r in csv.DictReader(f):
            shapes.add((int(r["M"]), int(r["N"]), int(r["K"])))
    for s in (512, 1024, 2048, 4096, 8192, 16384):
        shapes.add((s, s, s))
    return sorted(shapes)


def gemm_sweep(w, deadline):
    shapes = gemm_shapes()
    log("gemm: %d shapes" % len(shapes))
    kinds = [("fp32", torch.float32, False), ("tf32", torch.float32, True),
             ("fp16", torch.float16, False), ("bf16", torch.bfloat16, False),
             ("fp8", torch.float8_e4m3fn, False)]
    for name, dt, tf32 in kinds:
        set_tf32(tf32)
        n_done = 0
        for (m, n, k) in shapes:
            if elapsed() > deadline:
                log("gemm: budget spent in", name, "after", n_done)
                break
            if m * k + k * n + m * n > 3 * 2**28:
                continue
            try:
                if name == "fp8":
                    if m % 16 or n % 16 or k % 16:
                        continue
                    a = torch.randn(m, k, device="cuda").to(dt)
                    bt = torch.randn(n, k, device="cuda").to(dt)
                    b = bt.t()   # column-major, as _scaled_mm requires
                    one = torch.ones((), device="cuda")
                    fn = (lambda a=a, b=b, one=one: torch._scaled_mm(
                        a, b, scale_a=one, scale_b=one,
                        out_dtype=torch.bfloat16))
                else:
                    a = torch.randn(m, k, device="cuda", dtype=dt)
                    b = torch.randn(k, n, device="cuda", dtype=dt)
                    fn = (lambda a=a, b=b: torch.mm(a, b))
                t = time_call(fn)
                w.writerow([m, n, k, name, "%.6e" % t])
                n_done += 1
                del a, b
            except Exception as e:  # noqa: BLE001
                log("gemm failed", name, m, n, k, repr(e)[:200])
        log("gemm", name, n_done, "shapes")
    set_tf32(False)
    torch.cuda.empty_cache()


# ---------------------------------------------------------------- conv
def conv_shapes():
    shapes = set()
    with open("data/calibration/deepbench_conv.csv") as f:
        for r in csv.DictReader(f):
            shapes.add(tuple(int(r[k]) for k in (
                "N", "C", "H", "W", "K", "R_filter_h", "S_filter_w",
                "stride_h", "stride_w", "pad_h", "pad_w")))
    return sorted(shapes)


def conv_sweep(w, deadline):
    torch.backends.cudnn.benchmark = True
    shapes = conv_shapes()
    log("conv: %d shapes" % len(shapes))
    kinds = [("fp32", torch.float32, False), ("tf32", torch.float32, True),
             ("fp16", torch.float16, False), ("bf16", torch.bfloat16, False)]
    cb = torch.ops.aten.convolution_backward
    for name, dt, tf32 in kinds:
        set_tf32(tf32)
        n_done = 0
        for (n, c, h, wd, k, r, s, sh, sw, ph, pw) in shapes:
            if elapsed() > deadline:
                log("conv: budget spent in", name, "after", n_done)
                break
            try:
                x = torch.randn(n, c, h, wd, device="cuda", dtype=dt)
                wt = torch.randn(k, c, r, s, device="cuda", dtype=dt)
                y = F.conv2d(x, wt, stride=(sh, sw), padding=(ph, pw))
                gy = torch.randn_like(y)
                args = (gy, x, wt, None, [sh, sw], [ph, pw], [1, 1], False,
                        [0, 0], 1)
                passes = [
                    ("fwd", lambda: F.conv2d(x, wt, stride=(sh, sw),
                                             padding=(ph, pw))),
                    ("bwd_data", lambda: cb(*args, [True, False, False])),
                    ("bwd_filter", lambda: cb(*args, [False, True, False])),
                ]
                for pname, fn in passes:
                    t = time_call(fn, min_s=0.01, max_reps=20)
                    w.writerow([n, c, h, wd, k, r, s, sh, sw, ph, pw, pname,
                                name, "%.6e" % t])
                n_done += 1
                del x, wt, y, gy
            except Exception as e:  # noqa: BLE001
                log("conv failed", name, (n, c, h, wd, k, r, s), repr(e)[:200])
        log("conv", name, n_done, "shapes")
    set_tf32(False)
    torch.cuda.empty_cache()


# ---------------------------------------------------------------- dispatch
def dispatch(w):
    """Host seconds per operation in eager mode: 2,000 operations on tiny
    tensors issued without a synchronisation, then one; their kernels take
    a few microseconds, so the loop's wall time is the host's."""
    x = torch.randn(64, device="cuda")
    lin = torch.nn.Linear(64, 64, device="cuda")
    xi = torch.randn(8, 64, device="cuda", requires_grad=True)
    cases = [
        ("add", 1, lambda: x.add(x)),
        ("relu", 1, lambda: torch.relu(x)),
        ("linear_fwd", 1, lambda: lin(xi)),
        ("linear_fwd_bwd", 1, lambda: lin(xi).sum().backward()),
    ]
    for name, _, fn in cases:
        for _ in range(50):
            fn()
        torch.cuda.synchronize()
        best = 1e9
        for _ in range(5):
            t0 = time.perf_counter()
            for _ in range(2000):
                fn()
            torch.cuda.synchronize()
            best = min(best, (time.perf_counter() - t0) / 2000)
        w.writerow([name, "%.4e" % best])
        log("dispatch", name, "%.2f us" % (best * 1e6))


# ---------------------------------------------------------------- training
PREC = {
    # name: (autocast dtype or None, tf32, GradScaler)
    "fp32": (None, False, False),
    "tf32": (None, True, False),
    "fp16": (torch.float16, False, True),
    "bf16": (torch.bfloat16, False, False),
}


def step_time(model, batch_fn, opt, prec, warmup, iters):
    ac, tf32, scaled = PREC[prec]
    set_tf32(tf32)
    scaler = torch.amp.GradScaler("cuda") if scaled else None
    inputs = batch_fn()

    def step():
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

    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    a = torch.cuda.Event(enable_timing=True)
    b = torch.cuda.Event(enable_timing=True)
    per = []
    t0 = time.perf_counter()
    for _ in range(iters):
        a.record()
        step()
        b.record()
        b.synchronize()
        per.append(a.elapsed_time(b) * 1e-3)
    wall = (time.perf_counter() - t0) / iters
    per.sort()
    mean = sum(per) / len(per)
    sd = math.sqrt(sum((p - mean) ** 2 for p in per) / max(1, len(per) - 1))
    return mean, per[len(per) // 2], sd, wall


def resnet50_case(bs, channels_last):
    import torchvision
    m = torchvision.models.resnet50().cuda()
    if channels_last:
        m = m.to(memory_format=torch.channels_last)
    crit = torch.nn.CrossEntropyLoss()

    class Wrap(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, x, y):
            return crit(self.net(x), y)

    w = Wrap(m)
    opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9,
                          weight_decay=1e-4)

    def batch():
        x = torch.randn(bs, 3, 224, 224, device="cuda")
        if channels_last:
            x = x.to(memory_format=torch.channels_last)
        y = torch.randint(0, 1000, (bs,), device="cuda")
        return (x, y)
    return w, batch, opt


def hf_case(kind, bs, seq, layers, hidden, heads):
    import transformers as T

    class Wrap(torch.nn.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def forward(self, ids):
            return self.net(input_ids=ids, labels=ids).loss

    if kind == "bert":
        cfg = T.BertConfig(vocab_size=30522, hidden_size=hidden,
                           num_hidden_layers=layers,
                           num_attention_heads=heads,
                           intermediate_size=4 * hidden,
                           max_position_embeddings=512)
        vocab = 30522
        cls = T.BertForMaskedLM
    else:
        cfg = T.GPT2Config(vocab_size=50257, n_embd=hidden, n_layer=layers,
                           n_head=heads, n_positions=1024)
        vocab = 50257
        cls = T.GPT2LMHeadModel
    try:
        cfg._attn_implementation = "sdpa"
    except Exception:  # noqa: BLE001
        pass
    with torch.device("cuda"):
        net = cls(cfg)
    net.train()
    attn = getattr(net.config, "_attn_implementation", "?")
    opt = torch.optim.AdamW(net.parameters(), lr=1e-4)

    def batch():
        return (torch.randint(0, vocab, (bs, seq), device="cuda"),)
    return Wrap(net), batch, opt, attn


def training(w, deadline):
    torch.backends.cudnn.benchmark = True
    cases = []
    for prec, cl in (("fp16", True), ("bf16", True), ("tf32", False),
                     ("fp32", False), ("fp16", False)):
        for bs in (32, 64, 128, 256):
            cases.append(("resnet50", prec, bs, 224, cl))
    for prec in ("fp16", "bf16", "tf32"):
        for bs, seq in ((16, 128), (32, 128), (64, 128), (8, 512), (16, 512)):
            cases.append(("bert-large", prec, bs, seq, False))
    for prec in ("bf16", "fp16", "tf32"):
        for bs in (4, 8, 16):
            cases.append(("gpt2", prec, bs, 1024, False))
    for prec in ("bf16",):
        for bs in (4, 8):
            cases.append(("gpt2-medium", prec, bs, 1024, False))
    for (name, prec, bs, seq, cl) in cases:
        if elapsed() > deadline:
            log("train: budget spent before", name, prec, bs)
            w.writerow([name, prec, bs, seq, int(cl), "", "", "", "", "", "",
                        "skipped: time budget"])
            continue
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
        attn = ""
        try:
            if name == "resnet50":
                model, batch, opt = resnet50_case(bs, cl)
                warm, iters = 5, 12
            elif name == "bert-large":
                model, batch, opt, attn = hf_case("bert", bs, seq, 24, 1024, 16)
                warm, iters = 3, 8
            elif name == "gpt2":
                model, batch, opt, attn = hf_case("gpt2", bs, seq, 12, 768, 12)
                warm, iters = 3, 8
            else:
                model, batch, opt, attn = hf_case("gpt2", bs, seq, 24, 1024, 16)
                warm, iters = 3, 8
            mean, med, sd, wall = step_time(model, batch, opt, prec, warm,
                                            iters)
            peak = torch.cuda.max_memory_allocated()
            w.writerow([name, prec, bs, seq, int(cl), "%.6e" % mean,
                        "%.6e" % med, "%.3e" % sd, "%.6e" % wall, peak,
                        attn, ""])
            log("train", name, prec, "bs", bs, "seq", seq, "cl", int(cl),
                "%.2f ms" % (mean * 1e3), "peak %.2f GiB" % (peak / 2**30))
        except torch.cuda.OutOfMemoryError:
            w.writerow([name, prec, bs, seq, int(cl), "", "", "", "", "",
                        attn, "out of memory"])
            log("train", name, prec, bs, "out of memory")
        except Exception as e:  # noqa: BLE001
            w.writerow([name, prec, bs, seq, int(cl), "", "", "", "", "",
                        attn, "failed: " + repr(e)[:160]])
            log("train failed", name, prec, bs, traceback.format_exc()[-600:])
        finally:
            model = opt = batch = None
            torch.cuda.empty_cache()
        smi_clocks(name + " " + prec + " " + str(bs))


def section(name, fn):
    try:
        fn()
    except Exception:  # noqa: BLE001
        log(name, "FAILED", traceback.format_exc()[-1500:])


def main():
    log("start, budget %.0f s" % BUDGET)
    section("env", record_env)

    def do_stream():
        for e in (18, 20, 22, 24, 26, 28):
            txt = stream(2 ** e)
            open(os.path.join(OUT, "stream_%d.txt" % 2 ** e), "w").write(txt)
            log("stream 2^%d" % e, txt.splitlines()[11:15])
    section("stream", do_stream)

    def do_dispatch():
        with open(os.path.join(OUT, "dispatch.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["op", "host_s_per_op"])
            dispatch(w)
    section("dispatch", do_dispatch)

    def do_gemm():
        with open(os.path.join(OUT, "gemm.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["m", "n", "k", "dtype", "time_s"])
            gemm_sweep(w, 0.17 * BUDGET)
    section("gemm", do_gemm)
    smi_clocks("after gemm")

    def do_train():
        with open(os.path.join(OUT, "train.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["model", "precision", "batch", "seq_or_image",
                        "channels_last", "step_s_mean", "step_s_median",
                        "step_s_sd", "wall_s_per_step", "peak_bytes",
                        "attention", "status"])
            training(w, 0.72 * BUDGET)
    section("train", do_train)

    def do_conv():
        with open(os.path.join(OUT, "conv.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["n", "c", "h", "w", "k", "r", "s", "stride_h",
                        "stride_w", "pad_h", "pad_w", "pass", "dtype",
                        "time_s"])
            conv_sweep(w, 0.97 * BUDGET)
    section("conv", do_conv)
    log("done")


if __name__ == "__main__":
    main()
