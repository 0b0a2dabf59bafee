"""Train the index-corner detector and export it to companion/vision/models/corners.onnx (needs the `train` extra).

    pip install -e '.[train]'          # torch==2.13.0, CPU build
    nice -n 19 python -m tools.train_detector [--steps 3600] [--out companion/vision/models/corners.onnx]
        [--decks build/decks --ckpt build/detector-decks/checkpoint.pt]

A small fully convolutional network (168k weights) looks at a frame scaled to at most 640 px and gives, at a
quarter of its resolution, two maps: where an index corner (rank over suit) is, and how big it is (its longer
side, as a log). Training is seeded (numpy and torch seed 14), runs on one thread and saves a checkpoint every 250
steps in build/detector/ (an interrupted run resumes from it; a checkpoint keeps its --arch, --decks and --deck-share,
and is resumed only with the same ones, see tools/train_recipe.py). Batches of 12 crops, 256x256: half synthetic scenes
(tools/detector_data.synthetic), half the TRAIN part of cardcounter (tools/cardcounter_split.tsv). Adam, lr 2e-3
then 5e-4 for the last quarter. The ONNX file is written by the legacy exporter (opset 11) so that OpenCV 4.6's
dnn module reads it, and checked against torch's own outputs with cv2.dnn.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the train extra is optional
    print("train_detector: needs torch (pip install -e '.[train]')", file=sys.stderr)
    raise SystemExit(2) from None

from tools import detector_data as D
from tools.train_recipe import clash, recipe

ROOT = Path(__file__).resolve().parents[1]
CKPT = ROOT / "build" / "detector" / "checkpoint.pt"
OUT = ROOT / "companion" / "vision" / "models" / "corners.onnx"
DATA = ROOT.parent / "shared" / "data"
SEED = 14


def block(cin: int, cout: int, stride: int = 1, dil: int = 1, k: int = 3) -> nn.Sequential:
    """A k x k convolution (k = 1: a projection to ``cout`` channels), batch norm and ReLU."""
    return nn.Sequential(nn.Conv2d(cin, cout, k, stride, padding=dil * (k // 2), dilation=dil, bias=False),
                         nn.BatchNorm2d(cout), nn.ReLU(inplace=True))


class CornerNet(nn.Module):
    """Input N x 3 x H x W (BGR / 255, H and W multiples of 16); output N x 2 x H/4 x W/4: heat logit, log size.
    ``arch``: ``"standard"`` (the committed network), or a cheaper variant for the speed asked of a 720p frame:
    ``"lean"`` (about half the multiply-adds: one convolution fewer at 1/4 and 1/8, the join at 1/8 a 1x1
    projection, the join at 1/4 a depthwise 3x3 and a 1x1 projection) or ``"slim"`` (as lean, but the join at 1/4
    the standard 3x3, which sets how sharply the map marks a corner)."""

    ARCHS = ("standard", "lean", "slim")

    def __init__(self, arch: str = "standard") -> None:
        super().__init__()
        if arch not in self.ARCHS:
            raise ValueError(f"no corner network {arch!r}: one of {', '.join(self.ARCHS)}")
        lean = arch != "standard"  # lean and slim share all but the join at 1/4
        self.s2 = block(3, 16, 2)
        if lean:
            self.s4 = block(16, 24, 2)
            self.s8 = nn.Sequential(block(24, 40, 2), block(40, 40, dil=2))
        else:
            self.s4 = nn.Sequential(block(16, 24, 2), block(24, 24))
            self.s8 = nn.Sequential(block(24, 40, 2), block(40, 40), block(40, 40, dil=2))
        self.s16 = nn.Sequential(block(40, 56, 2), block(56, 56, dil=2), block(56, 56, dil=4))
        self.up8 = block(56 + 40, 40, k=1 if lean else 3)
        self.p8 = block(40, 16, k=1)
        if arch == "lean":
            self.up4 = nn.Sequential(nn.Conv2d(16 + 24, 16 + 24, 3, padding=1, groups=16 + 24, bias=False),
                                     nn.BatchNorm2d(16 + 24), nn.ReLU(inplace=True), block(16 + 24, 24, k=1))
        else:
            self.up4 = block(16 + 24, 24)
        self.head = nn.Conv2d(24, 2, 1)

    def forward(self, x):
        a = self.s4(self.s2(x))
        b = self.s8(a)
        c = self.s16(b)
        u = self.up8(torch.cat([nn.functional.interpolate(c, scale_factor=2.0, mode="nearest"), b], 1))
        u = self.up4(torch.cat([nn.functional.interpolate(self.p8(u), scale_factor=2.0, mode="nearest"), a], 1))
        return self.head(u)


def batch(rng, real, n: int = 12, decks=None):
    xs, hs, ss = [], [], []
    for k in range(n):
        if real and k % 2:
            f, h, s = D.real(real[int(rng.integers(len(real)))], rng)
        else:
            f, h, s = D.synthetic(rng, decks=decks)
        xs.append(f)
        hs.append(h)
        ss.append(s)
    x = torch.from_numpy(np.stack(xs).astype(np.float32) / 255).permute(0, 3, 1, 2).contiguous()
    return x, torch.from_numpy(np.stack(hs)), torch.from_numpy(np.stack(ss))


def loss_fn(out, heat, size):
    logit, logsize = out[:, 0], out[:, 1]
    bce = nn.functional.binary_cross_entropy_with_logits(logit, heat, pos_weight=torch.tensor(4.0))
    pos = heat > 0.5
    sl = (nn.functional.smooth_l1_loss(logsize[pos], torch.log(size[pos].clamp(min=2.0)))
          if pos.any() else logsize.sum() * 0)
    return bce + 0.2 * sl, float(bce.detach()), float(sl.detach())


def export(model: nn.Module, out: Path) -> None:
    model.eval()
    x = torch.zeros(1, 3, 256, 320)
    torch.onnx.export(model, (x,), str(out), opset_version=11, dynamo=False, input_names=["frame"],
                      output_names=["maps"], dynamic_axes={"frame": {2: "h", 3: "w"}, "maps": {2: "h4", 3: "w4"}})
    import cv2

    net = cv2.dnn.readNetFromONNX(str(out))
    rng = np.random.default_rng(0)
    for shape in ((256, 320), (368, 640)):
        x = torch.from_numpy(rng.random((1, 3, *shape), np.float32))
        with torch.no_grad():
            ref = model(x).numpy()
        net.setInput(x.numpy())
        got = net.forward()
        print(f"onnx check {shape}: max |cv2.dnn - torch| = {np.abs(got - ref).max():.2e}")
        assert np.abs(got - ref).max() < 1e-3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=3600)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--export-only", action="store_true")
    ap.add_argument("--decks", type=Path, default=None,
                    help="also lay the faces of the SVG decks rendered here (tools.render_decks build/decks)")
    ap.add_argument("--deck-share", type=float, default=D.DECK_SHARE,
                    help=f"with --decks, the share of the faces laid that are the decks' (default {D.DECK_SHARE})")
    ap.add_argument("--arch", choices=CornerNet.ARCHS, default="standard",
                    help="the network: standard (the committed one's), lean or slim (cheaper; see CornerNet)")
    ap.add_argument("--ckpt", type=Path, default=CKPT, help=f"the checkpoint to resume from and save (default {CKPT})")
    a = ap.parse_args(argv)
    D.DECK_SHARE = a.deck_share
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    model = CornerNet(a.arch)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    step = 0
    rng = np.random.default_rng(SEED)
    wanted = recipe(a.decks, a.deck_share, a.arch)
    if a.ckpt.exists():
        ck = torch.load(a.ckpt, weights_only=False)
        problem = clash(ck.get("recipe"), wanted)
        if problem:
            print(f"train_detector: {a.ckpt}: {problem}. Resume with the options it was trained with, or give"
                  f" another --ckpt to start afresh.", file=sys.stderr)
            return 2
        if "recipe" not in ck:
            print(f"note: {a.ckpt} keeps no recipe (made before stop 46): its --arch, --decks and --deck-share"
                  " are not checked against this run's")
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        step = ck["step"]
        rng = np.random.default_rng([SEED, step])  # resumed: a fresh, still seeded, stream of samples
        print(f"resumed at step {step}")
    if not a.export_only:
        real = D.load_cardcounter(a.data) if (a.data / "real-photos" / "cardcounter").is_dir() else []
        decks = D.load_decks(a.decks) if a.decks else None
        print(f"{len(real)} cardcounter train photos; {len(decks or [])} SVG faces and backs;"
              f" {sum(p.numel() for p in model.parameters())} weights")
        model.train()
        t0, run = time.time(), []
        while step < a.steps:
            for g in opt.param_groups:
                g["lr"] = 2e-3 if step < 0.75 * a.steps else 5e-4
            x, heat, size = batch(rng, real, decks=decks)
            loss, bce, sl = loss_fn(model(x), heat, size)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            run.append((bce, sl))
            if step % 50 == 0:
                m = np.mean(run, 0)
                run = []
                print(f"step {step} bce {m[0]:.4f} size {m[1]:.4f} {time.time() - t0:.0f}s", flush=True)
            if step % 250 == 0 or step == a.steps:
                a.ckpt.parent.mkdir(parents=True, exist_ok=True)
                torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "step": step,
                            "recipe": wanted}, a.ckpt)
    export(model, a.out)
    print(f"wrote {a.out} ({a.out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
