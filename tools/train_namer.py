"""Train the index namer and export it to companion/vision/models/namer.onnx (needs the `train` extra).

    python -m tools.index_samples synthetic build/namer/synth1.npz --seed 1 --scenes 1500
    python -m tools.index_samples cardcounter build/namer/cc-fit.npz
    nice -n 19 python -m tools.train_namer build/namer/synth1.npz build/namer/cc-fit.npz [--epochs 12]

A small convolutional network (about 120k weights) names an upright index box cut to 32x48 (``namer.index_crop``)
as one of the 52 cards or ``-`` (not an index). The samples are the boxes the runtime's own glyph search proposes
(``tools/index_samples.py``): synthetic scenes of the training decks and the FIT part of cardcounter's train part,
whose cuts count three times (there are fewer of them and they are the real photos). Seeded (numpy and torch seed
21), one thread, Adam (lr 2e-3, 5e-4 for the last quarter), batches of 128 with each cut's brightness, contrast
and noise varied; a checkpoint each epoch in build/namer/ (an interrupted run resumes from it). The ONNX file is
written by the legacy exporter (opset 11), so that OpenCV 4.6's dnn module reads it, and checked against torch's
own outputs with cv2.dnn.
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
    print("train_namer: needs torch (pip install -e '.[train]')", file=sys.stderr)
    raise SystemExit(2) from None

from companion.vision import namer

ROOT = Path(__file__).resolve().parents[1]
CKPT = ROOT / "build" / "namer" / "checkpoint.pt"
OUT = ROOT / "companion" / "vision" / "models" / "namer.onnx"
SEED = 21
#: cardcounter's cuts are repeated this many times in each epoch.
REAL_WEIGHT = 3


class NamerNet(nn.Module):
    """Three 3x3 conv blocks (16, 32, 64 channels, each halving the cut), then 128 hidden units, then a class."""

    def __init__(self) -> None:
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU(),
                                 nn.MaxPool2d(2))

        self.features = nn.Sequential(block(3, 16), block(16, 32), block(32, 64))
        self.head = nn.Sequential(nn.Flatten(), nn.Dropout(0.2),
                                  nn.Linear(64 * (namer.CROP_H // 8) * (namer.CROP_W // 8), 128), nn.ReLU(),
                                  nn.Linear(128, len(namer.CLASSES)))

    def forward(self, x):
        return self.head(self.features(x))


def varied(x: np.ndarray, rng) -> np.ndarray:
    """A batch of cuts with each one's contrast, brightness and noise changed a little (and some blurred)."""
    n = len(x)
    x = x * rng.uniform(0.7, 1.3, (n, 1, 1, 1)) + rng.normal(0, 0.15, (n, 1, 1, 1))
    x = x + rng.normal(0, 1, x.shape) * rng.uniform(0, 0.15, (n, 1, 1, 1))
    return x.astype(np.float32)


def load(paths: list[Path]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for p in paths:
        d = np.load(p)
        k = REAL_WEIGHT if "cc" in p.name else 1
        xs += [d["x"]] * k
        ys += [d["y"]] * k
        print(f"{p}: {len(d['y'])} cuts ({int((d['y'] == len(namer.CODES)).sum())} not an index) x{k}")
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64)


def export(model: nn.Module, out: Path) -> None:
    model.eval()
    x = torch.zeros(1, 3, namer.CROP_H, namer.CROP_W)
    torch.onnx.export(model, (x,), str(out), opset_version=11, dynamo=False, input_names=["cuts"],
                      output_names=["logits"], dynamic_axes={"cuts": {0: "n"}, "logits": {0: "n"}})
    import cv2

    net = cv2.dnn.readNetFromONNX(str(out))
    x = torch.from_numpy(np.random.default_rng(0).normal(0, 1, (5, 3, namer.CROP_H, namer.CROP_W)).astype(np.float32))
    with torch.no_grad():
        ref = model(x).numpy()
    net.setInput(x.numpy())
    got = net.forward()
    print(f"onnx check: max |cv2.dnn - torch| = {np.abs(got - ref).max():.2e}")
    assert np.abs(got - ref).max() < 1e-3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("samples", type=Path, nargs="+")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--ckpt", type=Path, default=CKPT)
    a = ap.parse_args(argv)
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    rng = np.random.default_rng(SEED)
    model = NamerNet()
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    epoch = 0
    if a.ckpt.exists():
        ck = torch.load(a.ckpt, weights_only=False)
        if ck.get("samples") != [p.name for p in a.samples]:
            print(f"train_namer: {a.ckpt} was trained on {ck.get('samples')}; give another --ckpt to start afresh",
                  file=sys.stderr)
            return 2
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        epoch = ck["epoch"]
        rng = np.random.default_rng([SEED, epoch])
        print(f"resumed after epoch {epoch}")
    x, y = load(a.samples)
    print(f"{len(y)} cuts; {sum(p.numel() for p in model.parameters())} weights")
    t0 = time.time()
    while epoch < a.epochs:
        model.train()
        for g in opt.param_groups:
            g["lr"] = 2e-3 if epoch < 0.75 * a.epochs else 5e-4
        order = rng.permutation(len(y))
        lost, right = [], 0
        for k in range(0, len(order), 128):
            i = order[k:k + 128]
            xb = torch.from_numpy(varied(x[i].astype(np.float32), rng))
            yb = torch.from_numpy(y[i])
            out = model(xb)
            loss = nn.functional.cross_entropy(out, yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
            lost.append(float(loss))
            right += int((out.argmax(1) == yb).sum())
        epoch += 1
        print(f"epoch {epoch} loss {np.mean(lost):.4f} train right {right / len(y):.4f} {time.time() - t0:.0f}s",
              flush=True)
        a.ckpt.parent.mkdir(parents=True, exist_ok=True)
        torch.save({"model": model.state_dict(), "opt": opt.state_dict(), "epoch": epoch,
                    "samples": [p.name for p in a.samples]}, a.ckpt)
    export(model, a.out)
    print(f"wrote {a.out} ({a.out.stat().st_size / 1024:.0f} KiB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
