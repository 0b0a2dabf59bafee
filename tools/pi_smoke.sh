#!/usr/bin/env bash
# make pi-smoke: the companion on a Debian bookworm arm64 root under qemu-user, installed as on a Raspberry Pi
# (apt's python3-opencv and python3-numpy, the rest with pip --no-deps). The Raspberry Pi archive is not reachable
# here, so picamera2 and lgpio are not in it: this checks the arm64 builds of OpenCV, numpy and pygame-ce, not the
# Pi's hardware. Slow (everything arm64 runs emulated): not part of CI.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${PI_ROOT:-build/pi-root}
SUDO=$(test "$(id -u)" = 0 || echo sudo)
PYTHON=${PYTHON:-.venv/bin/python}

step() { printf '\n== %s\n' "$*"; }
timed() {  # timed NAME COMMAND...: run in the arm64 root, print how long it took
    local name=$1 start end
    shift
    start=$(date +%s.%N)
    $SUDO chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        PIP_CERT=/etc/ssl/certs/host-ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 \
        SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy PYGAME_HIDE_SUPPORT_PROMPT=1 "$@"
    end=$(date +%s.%N)
    printf '%s: %.1f s\n' "$name" "$(echo "$end - $start" | bc)" | tee -a "$ROOT/opt/smoke-times.txt"
}

step "qemu-user and debootstrap"
command -v debootstrap >/dev/null && test -x /usr/bin/qemu-aarch64-static && command -v update-binfmts >/dev/null || \
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq qemu-user-static debootstrap binfmt-support bc; }
command -v bc >/dev/null || $SUDO apt-get install -y -qq bc
test -e /proc/sys/fs/binfmt_misc/register || $SUDO mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
$SUDO update-binfmts --enable qemu-aarch64 >/dev/null 2>&1 || true
test -e /proc/sys/fs/binfmt_misc/qemu-aarch64 || { echo "pi-smoke: cannot register qemu-aarch64 with binfmt_misc"; exit 2; }

if ! test -x "$ROOT/usr/bin/python3" || ! test -e "$ROOT/.smoke-root-ready"; then
    step "Debian bookworm arm64 root in $ROOT (the same apt packages as on the Pi)"
    $SUDO rm -rf "$ROOT"
    mkdir -p "$(dirname "$ROOT")"
    $SUDO debootstrap --arch=arm64 --variant=minbase \
        --include=python3,python3-venv,python3-pip,python3-opencv,python3-numpy,ca-certificates bookworm "$ROOT"
    $SUDO touch "$ROOT/.smoke-root-ready"
fi

step "the program, installed as on a Pi"
$SUDO rm -rf "$ROOT/opt/companion"
$SUDO mkdir -p "$ROOT/opt/companion"
tar -cf - --exclude=./.venv --exclude=./.venv-pi --exclude=./.git --exclude=./build --exclude='*.db' \
    --exclude=./companion.toml --exclude=__pycache__ --exclude='*.egg-info' . | $SUDO tar -xf - -C "$ROOT/opt/companion"
$SUDO cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
# pip in the root trusts what this machine trusts (a network's own TLS proxy, say)
$SUDO cp /etc/ssl/certs/ca-certificates.crt "$ROOT/etc/ssl/certs/host-ca-certificates.crt"
$SUDO rm -f "$ROOT/opt/smoke-times.txt"
mountpoint -q "$ROOT/proc" || $SUDO mount -t proc proc "$ROOT/proc"
trap '$SUDO umount "$ROOT/proc" 2>/dev/null || true' EXIT
timed "venv and pip (--no-deps)" /bin/sh -c 'cd /opt/companion && rm -rf .venv &&
    python3 -m venv --system-site-packages .venv &&
    .venv/bin/python -m pip install --quiet --no-deps -e . &&
    .venv/bin/python -m pip install --quiet "pygame-ce>=2.4" "platformdirs>=3" "threadpoolctl>=3.1" "gpiozero==2.0.1"'
$SUDO chroot "$ROOT" /opt/companion/.venv/bin/python -c \
    'import cv2, numpy, platform; print("arm64 root:", platform.machine(), "OpenCV", cv2.__version__, "numpy", numpy.__version__)'

step "companion score"
timed "companion score" /opt/companion/.venv/bin/companion score 5H 5C 5S JD 5D

step "companion read on one photo (rendered by the project's own scene maker)"
"$PYTHON" -c 'import cv2, sys
from companion.vision.synth import render_scene
frame, _ = render_scene(["5H", "JD", "KS"], rng=1, table="wood", effects=False)
cv2.imwrite(sys.argv[1], frame)' /tmp/companion-smoke.png
$SUDO cp /tmp/companion-smoke.png "$ROOT/opt/smoke.png"
timed "companion read" /opt/companion/.venv/bin/companion read /opt/smoke.png | tee /tmp/companion-smoke-read.txt
for card in 5H JD KS; do
    grep -q "$card" /tmp/companion-smoke-read.txt || { echo "pi-smoke: $card not read"; exit 1; }
done

step "the headless demo game (scripted reader: the whole pipeline, board and store)"
timed "companion run --demo --headless" /bin/sh -c 'cd /tmp && /opt/companion/.venv/bin/companion run --demo \
    --headless --reader scripted >/tmp/demo.json'

step "times"
cat "$ROOT/opt/smoke-times.txt"
echo "pi-smoke: passed"
