"""Python-scalar (and 0-d tensor) arguments in promotion, against real torch and paddle
(issue 14 §4): a float scalar makes an integer or bool tensor the default float dtype
(torch.clamp(int64, min=0.0, max=1.0) is float32), an int scalar keeps it, a 0-d tensor
bound ranks as a zero-dim operand; masked_fill keeps the tensor's dtype.  Every op here
that takes a scalar, over bool / int32 / int64 / float32 / float64 tensors."""
from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
paddle = pytest.importorskip("paddle")
import paddlelike  # noqa: E402
import torchlike  # noqa: E402

DTYPES = ["bool", "int32", "int64", "float32", "float64"]

TORCH_CASES = {
    "clamp_ff": lambda m, t, z, zi: m.clamp(t, 0.5, 1.5),
    "clamp_ii": lambda m, t, z, zi: m.clamp(t, 0, 1),
    "clamp_if": lambda m, t, z, zi: m.clamp(t, min=0, max=1.5),
    "clamp_min": lambda m, t, z, zi: m.clamp_min(t, 0.5),
    "clamp_max": lambda m, t, z, zi: m.clamp_max(t, 0.5),
    "clip": lambda m, t, z, zi: m.clip(t, 0.5),
    "Tensor.clamp": lambda m, t, z, zi: t.clamp(min=0.5),
    "Tensor.clamp_": lambda m, t, z, zi: t.clone().clamp_(min=0, max=1),
    "clamp_0d_float": lambda m, t, z, zi: m.clamp(t, z),
    "clamp_0d_int": lambda m, t, z, zi: m.clamp(t, zi),
    "masked_fill_f": lambda m, t, z, zi: t.masked_fill(t > 0, 0.5),
    "masked_fill_i": lambda m, t, z, zi: t.masked_fill(t > 0, 3),
    "where_scalar": lambda m, t, z, zi: m.where(t > 0, t, 0.5),
    "where_0d": lambda m, t, z, zi: m.where(t > 0, t, z),
    "add": lambda m, t, z, zi: m.add(t, 0.5), "mul": lambda m, t, z, zi: t * 0.5,
    "rsub": lambda m, t, z, zi: 1.5 - t if t.dtype != m.bool else t,
    "div": lambda m, t, z, zi: t / 2, "rdiv": lambda m, t, z, zi: 2 / (t + 1),
    "pow": lambda m, t, z, zi: t ** 2.0, "pow_int": lambda m, t, z, zi: t ** 2,
    "rpow": lambda m, t, z, zi: 2.0 ** t, "floordiv": lambda m, t, z, zi: t // 2.0,
    "remainder": lambda m, t, z, zi: m.remainder(t, 1.5),
    "maximum_0d": lambda m, t, z, zi: m.maximum(t, z),
    "mul_0d": lambda m, t, z, zi: t * z, "add_0d_int": lambda m, t, z, zi: t + zi,
    "eq": lambda m, t, z, zi: t == 0.5,
}


def _outcome(f, *args):
    try:
        r = f(*args)
    except Exception as e:  # noqa: BLE001 - the type is what is compared
        return type(e).__name__
    return str(r.dtype).split(".")[-1], r.tolist()


@pytest.mark.parametrize("case", sorted(TORCH_CASES))
def test_scalar_arguments_promote_as_in_torch(case):
    f = TORCH_CASES[case]
    for dt in DTYPES:
        out = []
        for m in (torch, torchlike):
            t = m.tensor([0, 1, 2]).to(getattr(m, dt))
            z, zi = m.tensor(0.5, dtype=m.float64), m.tensor(1)
            out.append(_outcome(f, m, t, z, zi))
        assert out[1] == out[0], (dt, out)


@pytest.mark.parametrize("lo,hi", [(0.5, 1.5), (0, 1), ("t", "t")])
def test_paddle_clip_promotes_as_in_paddle(lo, hi):
    for dt in ["int32", "int64", "float32", "float64"]:
        out = []
        for m in (paddle, paddlelike):
            t = m.to_tensor([0, 1, 2]).astype(dt)
            a, b = (m.to_tensor(0.5), m.to_tensor(1.5)) if lo == "t" else (lo, hi)
            out.append(_outcome(m.clip, t, a, b))
        assert out[1] == out[0], (dt, out)
