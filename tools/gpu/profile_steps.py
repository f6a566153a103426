#!/usr/bin/env python3
"""profile_steps.py -- where the device time of one eager training step
goes: torch.profiler's CUDA kernels of one step (after warm-up), summed by
kernel name, for the GPU-bound rows of measure.py's training cases.

    python3 tools/gpu/profile_steps.py OUTDIR
"""
import os
import sys

import torch
from torch.profiler import profile, ProfilerActivity

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure as M  # noqa: E402

CASES = [("gpt2", "bf16", 16, 1024), ("bert-large", "tf32", 64, 128),
         ("resnet50", "fp16", 256, 224), ("gpt2", "tf32", 16, 1024)]


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    M.LOG = open(os.path.join(out, "log_profile.txt"), "w")
    torch.backends.cudnn.benchmark = True
    rep = open(os.path.join(out, "profile.txt"), "w")
    for name, prec, bs, size in CASES:
        if name == "resnet50":
            model, batch, opt = M.resnet50_case(bs, True)
        elif name == "bert-large":
            model, batch, opt, _ = M.hf_case("bert", bs, size, 24, 1024, 16)
        else:
            model, batch, opt, _ = M.hf_case("gpt2", bs, size, 12, 768, 12)
        mean, med, sd, wall = M.step_time(model, batch, opt, prec, 3, 5)
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
        tot = {}
        cnt = {}
        for e in prof.events():
            if e.device_type != torch.autograd.DeviceType.CUDA:
                continue
            k = e.name[:110]
            tot[k] = tot.get(k, 0.0) + e.device_time
            cnt[k] = cnt.get(k, 0) + 1
        s = sum(tot.values())
        rep.write("== %s %s batch %d size %d: step %.2f ms (events), "
                  "kernels %.2f ms in %d launches, peak %.2f GiB\n" % (
                      name, prec, bs, size, mean * 1e3, s * 1e-3,
                      sum(cnt.values()),
                      torch.cuda.max_memory_allocated() / 2**30))
        for k, v in sorted(tot.items(), key=lambda kv: -kv[1])[:40]:
            rep.write("%9.3f ms %5d  %s\n" % (v * 1e-3, cnt[k], k))
        rep.flush()
        M.log("profiled", name, prec, bs)
        model = opt = batch = None
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()


if __name__ == "__main__":
    main()
