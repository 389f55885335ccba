"""Issue 16's d2l criterion: the model classes of the English edition's ``d2l`` package
(1.0.3, downloaded at test time by test_d2l_import's fixture, never vendored) build and
train a step on synthetic data under ``python -m torchlike``, as they do under real torch.

tests/d2l_models_step.py trains each model for one step the book's way (``d2l.Trainer``),
first under real torch, which saves the initial ``state_dict`` (``torch.save``), then under
the runner, which loads that file into the same model: the two losses (before and after
the step), every gradient the optimizer stepped on and the whole ``state_dict`` after
training (parameters, BatchNorm's running statistics) must agree within the float32 error
that each run makes on this very input: both runs train each model again in float64, and
tests/tolerance.py's ``assert_within_reference_error`` bounds the float32 difference by
the two float32 errors (a fixed error model does not hold through a deep model: the
rounding of real torch's own result moves with the kernels it picks by CPU).  Without
real torch the runner's run alone is checked (finite losses, every parameter stepped on a
gradient).  A class whose layer the dialect lacks is skipped, naming the layer, and runs
as soon as the layer lands in ``torchlike.nn``.  Marked ``differential``: .ci/run reruns
it under other kernels of real torch's and numpy's.
"""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import torchlike.nn
from tests.test_d2l_import import d2l_dir  # noqa: F401 - the fixture (downloads d2l 1.0.3)
from tests.tolerance import assert_within_reference_error

pytestmark = pytest.mark.differential  # (real torch runs in a subprocess: conftest can't see it)

REPO = Path(__file__).resolve().parent.parent
STEP = Path(__file__).resolve().parent / "d2l_models_step.py"

# each case: the torch.nn layers its model builds (the skip names those torchlike lacks)
CASES = {
    "LeNet": ("LazyConv2d", "AvgPool2d", "LazyLinear", "Sigmoid"),
    "BNLeNet": ("LazyConv2d", "LazyBatchNorm2d", "LazyBatchNorm1d", "AvgPool2d"),
    "ResNet": ("LazyConv2d", "LazyBatchNorm2d", "MaxPool2d", "AdaptiveAvgPool2d"),
    "Residual": ("LazyConv2d", "LazyBatchNorm2d", "AdaptiveAvgPool2d"),
    "resnet18": ("Conv2d", "BatchNorm2d", "LazyConv2d", "LazyBatchNorm2d",
                 "AdaptiveAvgPool2d"),
    "RNNLMScratch": ("LazyLinear",),
    "RNNLM": ("RNN", "LazyLinear"),
    "GRU": ("GRU", "LazyLinear"),
    "LSTM": ("LSTM", "LazyLinear"),
    "Seq2SeqEncoder": ("Embedding", "GRU"),
    "DotProductAttention": ("Embedding", "Dropout"),
    "AdditiveAttention": ("Embedding", "LazyLinear", "Dropout"),
    "MultiHeadAttention": ("Embedding", "LazyLinear", "Dropout"),
    "PositionalEncoding": ("Embedding", "Dropout"),
    "PositionWiseFFN": ("Embedding", "LazyLinear", "ReLU"),
    "AddNorm": ("Embedding", "LayerNorm"),
    "TransformerEncoderBlock": ("Embedding", "LazyLinear", "LayerNorm"),
    "TransformerEncoder": ("Embedding", "LazyLinear", "LayerNorm"),
}
# the most terms one value of these models sums (a conv's im2col rows times the batch,
# through a few layers): sets the tolerance of the float64 runs' agreement
TERMS = 4096


def _lacking(case: str) -> list[str]:
    return [layer for layer in CASES[case] if not hasattr(torchlike.nn, layer)]


def _real_torch() -> bool:
    spec = importlib.util.find_spec("torch")
    return spec is not None and "torchlike" not in (spec.origin or "")


@pytest.fixture(scope="module")
def steps(d2l_dir, tmp_path_factory):  # noqa: F811 - the imported fixture
    """Runs every case the dialect can build, under real torch (when installed) then under
    the runner; returns (folder of results, whether real torch ran)."""
    out = tmp_path_factory.mktemp("d2l_steps")
    cases = ",".join(c for c in CASES if not _lacking(c))
    env = {**os.environ, "PYTHONPATH": str(REPO), "MPLBACKEND": "Agg",
           "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    real = _real_torch()
    runs = ([[sys.executable, str(STEP), "torch"]] if real else []) + \
        [[sys.executable, "-m", "torchlike", str(STEP), "torchlike"]]
    for argv in runs:
        p = subprocess.run([*argv, str(out), str(d2l_dir), cases], capture_output=True,
                           text=True, env=env, cwd=out, timeout=300)
        assert p.returncode == 0 and "done" in p.stdout, p.stderr[-3000:]
    return out, real


def _result(out: Path, mode: str, case: str) -> dict:
    err = out / f"{mode}_{case}.err"
    assert not err.exists(), f"{case} failed under {mode}:\n{err.read_text()}"
    with np.load(out / f"{mode}_{case}.npz") as z:
        return {k: z[k] for k in z.files}


def _close(ours, theirs, key, what, scale=None):
    assert_within_reference_error(ours[0][key], theirs[0][key], ours[1][key], theirs[1][key],
                                  n=TERMS, scale=scale, err_msg=what)


@pytest.mark.parametrize("case", list(CASES))
def test_d2l_model_trains_a_step_as_under_real_torch(case, steps):
    if _lacking(case):
        pytest.skip(f"torchlike.nn lacks {', '.join(_lacking(case))} (d2l.{case} builds it)")
    out, real = steps
    ours = _result(out, "torchlike", case)
    params = [k[len("state|"):] for k in ours if k.startswith("state|")]
    grads = {k[len("grad|"):]: v for k, v in ours.items() if k.startswith("grad|")}
    assert len(ours["loss"]) == 2 and np.isfinite(ours["loss"]).all(), ours["loss"]
    assert grads and all(np.isfinite(g).all() for g in grads.values())
    assert set(grads) <= set(params)
    if not real:
        return
    theirs = _result(out, "torch", case)
    assert sorted(ours) == sorted(theirs), set(ours) ^ set(theirs)
    ours, theirs = (ours, _result(out, "torchlike_f64", case)), \
        (theirs, _result(out, "torch_f64", case))
    _close(ours, theirs, "loss", f"{case}: the losses")
    # a gradient that is zero in exact arithmetic (a conv bias before BatchNorm) is
    # rounding noise of the model's larger gradients: all are held to the largest's scale
    gscale = max(np.abs(v).max() for k, v in theirs[1].items() if k.startswith("grad|"))
    for key, value in theirs[0].items():
        if key.startswith("grad|"):
            _close(ours, theirs, key, f"{case}: {key}", gscale)
        elif key.startswith("state|"):
            if value.dtype.kind in "fc":
                _close(ours, theirs, key, f"{case}: {key}")
            else:
                np.testing.assert_array_equal(ours[0][key], value, err_msg=f"{case}: {key}")
