#!/usr/bin/env bash
# The GPU checks, in one run on a machine with an NVIDIA GPU and CuPy (under 9 minutes):
#   1. the GPU-marked tests: the op table's property tests on the GPU, the device tests of
#      both frontends and of the layers of issue 16 (tests/test_device_nn_layers.py), the
#      paddle seed printing Place(gpu:0);
#   2. benchmark workloads B, C and G (LeNet-5) on the GPU: torchlike against real torch on
#      CUDA (when a CUDA build of torch is installed), numpy on the host as the gradient
#      reference.
# Usage: scripts/gpu_check.sh [PYTHON]   (default python3; it must import cupy, pytest and
# hypothesis, and janusgrad from this checkout; e.g. after pip install -e '.[test,cuda12]').
# Writes its log to ${OUT:-.}/gpu_check.log; exits non-zero when a check fails.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=${1:-python3}
LOG=${OUT:-.}/gpu_check.log
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 HYPOTHESIS_PROFILE=ci
status=0
exec > >(tee "$LOG") 2>&1
echo "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
"$PY" - <<'PY' || { echo "no usable GPU: nothing checked"; exit 3; }
from janusgrad import backend
import cupy
ok = backend.gpu_available()
print(f"cupy {cupy.__version__}; GPU usable: {ok}; devices: {backend.gpu_count()}")
raise SystemExit(0 if ok else 1)
PY
echo "== GPU-marked tests"
timeout 300 "$PY" -m pytest -q -m gpu -p no:cacheprovider tests/ || status=1
echo "== benchmarks B, C, G and H on the GPU"
timeout 150 "$PY" -m benchmarks --device cuda --workloads B,C --rounds 5 || status=1
timeout 90 "$PY" -m benchmarks --device cuda --workloads G --rounds 3 || status=1
timeout 90 "$PY" -m benchmarks --device cuda --workloads H --rounds 3 || status=1
echo "== done: status $status"
exit $status
