"""A layer trained side by side with the real framework's (the norm part's differential
tests in both dialects): outputs, input and parameter gradients and the whole state after
each of several training steps, then the eval-mode output.  Each layer trains in float64
alongside (copies widened before the first step): several steps compound rounding, so the
float32 results are held to the float32 error each framework makes on these very inputs
(tests/tolerance.py's ``assert_within_reference_error``)."""
from __future__ import annotations

import copy

import numpy as np

from .tolerance import assert_kernels_close, assert_within_reference_error


def _np(t):
    return np.asarray(t.detach().numpy())


def _wide(mod):
    mod = copy.deepcopy(mod)
    mod.double()  # (torch's Module and paddle's Layer alike)
    return mod


def _close(ours, ref, n, what, wide_grads: bool = True) -> None:
    """``ours`` / ``ref``: (float32 result, float64 result) of each framework."""
    assert ours[0].dtype == ref[0].dtype, (what, ours[0].dtype, ref[0].dtype)
    if wide_grads or not what.endswith("grad"):
        assert_within_reference_error(ours[0], ref[0], ours[1], ref[1], n=n, err_msg=what)
    else:
        assert_kernels_close(ours[0], ref[0], n=n, k=64, err_msg=what)


def train_side_by_side(ref_mod, our_mod, shape, ref_leaf, our_leaf, rng, n: int = 3,
                       wide_grads: bool = True) -> None:
    """``ref_leaf(x, grad)`` / ``our_leaf(x, grad)``: a tensor of numpy array x in each
    framework (requiring grad when ``grad``).  ``wide_grads`` False: the reference's
    float64 gradients are not float64-accurate (paddle's LocalResponseNorm), so the
    gradients keep a fixed float32 tolerance."""
    refs, ours = (ref_mod, _wide(ref_mod)), (our_mod, _wide(our_mod))
    for _ in range(n):
        x = rng.standard_normal(shape).astype("float32") * 2 + 0.5
        w = None
        got = {}  # what -> ([ours f32, ours f64], [ref f32, ref f64])
        for side, (mods, leaf) in enumerate(((ours, our_leaf), (refs, ref_leaf))):
            for wide, mod in enumerate(mods):
                xt = leaf(x.astype("float64") if wide else x, True)
                y = mod(xt)
                if w is None:
                    w = rng.standard_normal(tuple(y.shape)).astype("float32")
                (y * leaf(w.astype("float64") if wide else w, False)).sum().backward()
                found = {"output": _np(y), "input grad": xt.grad.numpy()}
                for name, p in mod.named_parameters():
                    found[f"{name} grad"] = None if p.grad is None else p.grad.numpy()
                for k, v in mod.state_dict().items():
                    found[k] = np.asarray(v.numpy())
                for k, v in found.items():
                    got.setdefault(k, ([None, None], [None, None]))[side][wide] = v
        for what, (o, r) in got.items():
            if r[0] is None or o[0] is None:
                assert r[0] is None and o[0] is None, what  # (a grad: both None or neither)
            else:
                _close(o, r, x.size, what, wide_grads)
    x = rng.standard_normal(shape).astype("float32")
    evals = []
    for mods, leaf in ((ours, our_leaf), (refs, ref_leaf)):
        for mod in mods:
            mod.eval()
        evals.append([_np(mods[0](leaf(x, False))),
                      _np(mods[1](leaf(x.astype("float64"), False)))])
    _close(*evals, x.size, "eval output")
