"""Run a rendered program on the real framework and on our dialect, step by step, and
compare after every step: each value's shape, dtype, values (tolerances scaled to the
magnitude, tests/tolerance.py), requires_grad / stop_gradient, is_leaf, every leaf's
.grad (None vs a tensor included), the results of grad(); when the real framework raises,
the exception type and the step."""
from __future__ import annotations

import re
import warnings

import numpy as np

from tests.tolerance import kernel_tolerance

from .program import render, script


def _describe(t, dialect):
    if dialect == "torch":
        # (force: torch's abs leaves a ZeroTensor .grad after a backward through a
        # create_graph gradient, which plain numpy() refuses; janusgrad gives zeros)
        arr = t.detach().numpy(force=True)
        flag = bool(t.requires_grad)
    else:
        arr = t.numpy()
        flag = bool(t.stop_gradient)
    return {"shape": tuple(t.shape), "dtype": str(t.dtype).split(".")[-1], "flag": flag,
            "leaf": bool(t.is_leaf), "value": np.array(arr)}


def _state(ns, dialect):
    """What the program has made so far, as plain data."""
    out = {}
    for name, v in ns.items():
        if not re.fullmatch(r"v\d+", name):
            continue
        d = _describe(v, dialect)
        out[name] = d
        if d["leaf"]:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                g = v.grad
            out[name + ".grad"] = None if g is None else _describe(g, dialect)
    gs = ns.get("gs")
    if gs is not None:
        for k, g in enumerate(gs):
            out[f"gs[{k}]"] = None if g is None else _describe(g, dialect)
    return out


def execute(steps, dialect: str, module):
    """[(line, state or exception)] until the first exception."""
    ns = {"np": np, dialect: module}
    trace = []
    for line in render(steps, dialect):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(line, ns)  # noqa: S102 - the program is our own generated text
        except Exception as e:  # noqa: BLE001 - the exception is what is compared
            trace.append((line, e))
            break
        trace.append((line, _state(ns, dialect)))
    return trace


def _close(a, b):
    if a.dtype.kind not in "fc":
        return np.array_equal(a, b)
    if a.shape != b.shape:
        return False
    with np.errstate(all="ignore"):
        if not np.array_equal(np.isnan(a), np.isnan(b)):
            return False
        fin = ~np.isnan(b)
        # float32 rounding whatever the result's dtype: a float64 result of a program may
        # hold float32 values computed by two kernels (float32 tanh, then promoted)
        atol, rtol = kernel_tolerance(b[fin], k=256.0, dtype=np.float32)
        # a small result may be the difference of terms near the data's size (0.1-2 here:
        # two backwards summed into one .grad), and carries their rounding
        atol = max(atol, 256.0 * float(np.finfo(np.float32).eps) * 0.1)
        return bool(np.all(np.abs(a[fin].astype(np.float64) - b[fin]) <=
                           atol + rtol * np.abs(b[fin])))


def compare(real, ours):
    """The first difference between two traces, as text, or None."""
    for k, ((line, want), (_, got)) in enumerate(zip(real, ours)):
        if isinstance(want, Exception) or isinstance(got, Exception):
            if type(want).__name__ != type(got).__name__ or not isinstance(want, Exception):
                return (f"step {k} `{line}`: real gives {_show(want)}, "
                        f"ours gives {_show(got)}")
            return None
        for name in sorted(set(want) | set(got)):
            w, g = want.get(name, "absent"), got.get(name, "absent")
            if (w is None) != (g is None) or isinstance(w, str) or isinstance(g, str):
                if w != g:
                    return f"step {k} `{line}`: {name} is {_show(w)} in real, {_show(g)} here"
                continue
            if w is None:
                continue
            for key in ("shape", "dtype", "flag", "leaf"):
                if w[key] != g[key]:
                    return (f"step {k} `{line}`: {name}.{key} is {w[key]!r} in real, "
                            f"{g[key]!r} here")
            if not _close(g["value"], w["value"]):
                return (f"step {k} `{line}`: {name} values differ:\nreal {w['value']!r}\n"
                        f"ours {g['value']!r}")
    if len(real) != len(ours):
        return f"traces of different lengths: {len(real)} vs {len(ours)}"
    return None


def _show(x):
    if isinstance(x, Exception):
        return f"{type(x).__name__}: {str(x).strip()[:300]}"
    if isinstance(x, dict) and "value" in x:
        return f"tensor{x['shape']} {x['dtype']}"
    return repr(x)


def check(steps, dialect, real, ours):
    """Run both; on a difference raise AssertionError with both dialects' repro."""
    diff = compare(execute(steps, dialect, real), execute(steps, dialect, ours))
    if diff is not None:
        like = "torchlike" if dialect == "torch" else "paddlelike"
        raise AssertionError(
            f"{diff}\n\n--- repro (runs on real {dialect}; on ours: python -m {like} "
            f"repro.py) ---\n{script(steps, dialect)}")
