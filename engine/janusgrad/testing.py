"""janusgrad's property-testing kit: hypothesis strategies for tensors and one assertion.

- ``shapes``, ``broadcastable_shapes``, ``tensors``, ``tensor_pairs`` draw tensors of any
  tensor class (each frontend binds its own class and dtype names, see
  ``torchlike.testing`` / ``paddlelike.testing``): shapes include 0-d, pairs broadcast,
  elements lie in a domain and may keep away from given points (kinks, poles), and the
  requires-grad flag is drawn or fixed.
- ``assert_gradients(fn, *tensors, order=2)`` checks the first (and second) derivatives of
  ``fn`` with respect to every input that requires grad against central finite
  differences, element by element, and on failure says which output, which input, which
  element, what finite differences expect and what autograd gave.

hypothesis is imported only when a strategy is built, never when the engine is imported.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from janusgrad.array import backend
from janusgrad.array.backend import device_of, float64, from_host, host, to_host
from janusgrad.core.mode import enable_grad
from janusgrad.core.tensor import Tensor
from janusgrad.transforms.functional import grads_of

# Finite differences and comparisons are host (numpy) work; ``fn`` runs on the inputs'
# device: perturbed copies and seeds are moved there, results come back with to_host.


# ---------------------------------------------------------------- strategies
def shapes(min_dims: int = 0, max_dims: int = 3, min_side: int = 1, max_side: int = 4):
    """Shapes from 0-d (``()``) up to ``max_dims`` axes."""
    from hypothesis.extra import numpy as hnp
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def broadcastable_shapes(num_shapes: int = 2, min_dims: int = 0, max_dims: int = 3,
                         min_side: int = 1, max_side: int = 4):
    """Tuples of ``num_shapes`` shapes that broadcast together (sizes of 1 and missing axes)."""
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp
    return hnp.mutually_broadcastable_shapes(
        num_shapes=num_shapes, min_dims=min_dims, max_dims=max_dims, min_side=min_side,
        max_side=max_side).map(lambda bs: tuple(bs.input_shapes)) | st.just(((),) * num_shapes)


def _elements(dtype, low: float, high: float, away_from: Sequence[float], margin: float):
    from hypothesis import strategies as st
    width = 32 if dtype.itemsize == 4 else 64
    base = st.floats(low, high, allow_nan=False, allow_infinity=False, width=width)
    if away_from:
        base = base.filter(lambda v: all(abs(v - p) >= margin for p in away_from))
    return base


def arrays(shape, dtype=backend.float64, low: float = -3.0, high: float = 3.0,
           away_from: Sequence[float] = (), margin: float = 0.1):
    """Arrays of ``shape`` with finite elements in [low, high], at least ``margin`` away
    from every point of ``away_from``: four draws in five have pairwise distinct values
    (uniform from a drawn seed), the fifth is hypothesis' own (constant, zero and tied
    arrays, on purpose)."""
    from hypothesis import strategies as st
    from hypothesis.extra import numpy as hnp
    dt = host.dtype(dtype)
    special = hnp.arrays(dt, shape, elements=_elements(dt, low, high, away_from, margin))

    def spread(seed):
        a = host.random.default_rng(seed).uniform(low, high, shape)
        for p in away_from:
            near = host.abs(a - p) < margin
            a = host.where(near, p + host.where(a >= p, 1.01, -1.01) * margin, a)
        a = a.astype(dt)
        ok = bool(host.all((a >= low) & (a <= high))) and all(
            bool(host.all(host.abs(a.astype(float64) - p) >= margin)) for p in away_from)
        return a if ok else None

    @st.composite
    def draw_array(draw):
        if draw(st.integers(0, 4)):
            a = spread(draw(st.integers(0, 2**32 - 1)))
            if a is not None:
                return a
        return draw(special)

    return draw_array()


def _flag(requires_grad):
    from hypothesis import strategies as st
    return st.booleans() if requires_grad is None else st.just(bool(requires_grad))


def _one_of(values):
    from hypothesis import strategies as st
    values = list(values)
    return st.sampled_from(values) if len(values) > 1 else st.just(values[0])


def make(cls, array, requires_grad: bool = False):
    """A leaf tensor of ``cls`` over ``array``."""
    t = cls.wrap(array)
    if requires_grad and array.dtype.kind == "f":
        t.set_requires_grad(True)
    return t


def tensors(cls, shape=None, dtypes=(backend.float64,), low: float = -3.0, high: float = 3.0,
            away_from: Sequence[float] = (), margin: float = 0.1, requires_grad=None,
            min_dims: int = 0, max_dims: int = 3, max_side: int = 4):
    """Tensors of class ``cls``: ``shape`` fixed or drawn (0-d included), dtype drawn from
    ``dtypes``, elements in [low, high] away from ``away_from``, requires-grad drawn
    (None) or fixed."""
    from hypothesis import strategies as st

    @st.composite
    def draw_tensor(draw):
        s = draw(shapes(min_dims, max_dims, 1, max_side)) if shape is None else tuple(shape)
        dt = draw(_one_of(dtypes))
        arr = draw(arrays(s, dt, low, high, away_from, margin))
        return make(cls, arr, draw(_flag(requires_grad)))

    return draw_tensor()


def tensor_pairs(cls, dtypes=(backend.float64,), low: float = -3.0, high: float = 3.0,
                 away_from: Sequence[float] = (), margin: float = 0.1, requires_grad=None,
                 num: int = 2, max_dims: int = 3, max_side: int = 4):
    """Tuples of ``num`` tensors with mutually broadcastable shapes (same dtype)."""
    from hypothesis import strategies as st

    @st.composite
    def draw_pair(draw):
        ss = draw(broadcastable_shapes(num, 0, max_dims, 1, max_side))
        dt = draw(_one_of(dtypes))
        return tuple(make(cls, draw(arrays(s, dt, low, high, away_from, margin)),
                          draw(_flag(requires_grad))) for s in ss)

    return draw_pair()


# ---------------------------------------------------------------- the assertion
class GradientMismatch(AssertionError):
    """autograd and finite differences disagree; the message says where."""


def _defaults(dtype, eps, atol, rtol):
    low = dtype.itemsize <= 4
    return (eps if eps is not None else (1e-3 if low else 1e-6),
            atol if atol is not None else (1e-2 if low else 1e-5),
            rtol if rtol is not None else (1e-2 if low else 1e-3))


def _outputs(x) -> tuple:
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _element(shape, flat_index: int):
    return tuple(int(i) for i in host.unravel_index(flat_index, shape)) if shape else ()


def _report(order: str, of: str, col_shape, in_idx: int, in_shape, expected, got,
            atol: float, rtol: float) -> GradientMismatch:
    """Where (``of`` at an element, input ``in_idx`` at an element) and by how much."""
    bad = ~(host.abs(expected - got) <= atol + rtol * host.abs(expected))
    rows, cols = host.nonzero(bad)
    k = int(host.argmax(host.where(bad, host.abs(expected - got), -1.0)))
    r, c = divmod(k, expected.shape[1])
    in_shape = tuple(in_shape)

    def where(rr, cc):
        return (f"d {of}{list(_element(col_shape, cc))} / "
                f"d input {in_idx}{list(_element(in_shape, rr))}")

    lines = [
        f"{order} derivative mismatch: {of} with respect to input {in_idx} "
        f"(shape {in_shape}): {len(rows)} of {expected.size} entries differ",
        f"  worst: {where(r, c)}",
        f"    expected (finite differences): {float(expected[r, c])!r}",
        f"    got (autograd):                {float(got[r, c])!r}",
        f"    |difference| {abs(float(expected[r, c] - got[r, c])):.3g} > "
        f"atol {atol:g} + rtol {rtol:g} * |expected|",
    ]
    if len(rows) > 1:
        lines.append("  other mismatches:")
        for rr, cc in list(zip(rows.tolist(), cols.tolist()))[:6]:
            if (rr, cc) != (r, c):
                lines.append(f"    {where(rr, cc)}: expected {float(expected[rr, cc]):.6g}, "
                             f"got {float(got[rr, cc]):.6g}")
    return GradientMismatch("\n".join(lines))


def _copies(tensors):
    return [make(type(t), t.array.copy(), t.requires_grad)  # on t's device
            if isinstance(t, Tensor) else t for t in tensors]


def _to_host64(a):
    """A float64 numpy array of ``a``'s values (a new one)."""
    return to_host(a).astype(float64)


def _value_arrays(fn, tensors, kwargs):
    with enable_grad():  # fn may differentiate internally (a jacobian, a vjp)
        outs = _outputs(fn(*tensors, **kwargs))
    return [_to_host64(o.array) for o in outs]


def _perturbed(tensors, i, k, delta, upcast=True):
    """Copies with element k of input i moved by delta; low-precision float inputs are
    upcast to float64 (when ``upcast``) so the differences keep their digits."""
    ts = []
    for j, t in enumerate(tensors):
        if isinstance(t, Tensor) and (j == i or (upcast and t.array.dtype.kind == "f")):
            arr = to_host(t.array).astype(float64 if upcast else t.array.dtype)  # a copy
            if j == i:
                arr.reshape(-1)[k] += delta
            t = make(type(t), from_host(arr, device_of(t.array)), t.requires_grad)
        ts.append(t)
    return ts


def _can_upcast(fn, tensors, kwargs) -> bool:
    """Whether ``fn`` runs on float64 copies of the inputs (else differences stay native)."""
    if all(t.array.dtype == float64 for t in tensors if isinstance(t, Tensor)):
        return False
    try:
        _value_arrays(fn, _perturbed(tensors, -1, 0, 0.0), kwargs)
    except Exception:
        return False
    return True


def assert_gradients(fn: Callable, *tensors, order: int = 2, eps: float | None = None,
                     atol: float | None = None, rtol: float | None = None, seed: int = 0,
                     **kwargs) -> None:
    """Check ``fn``'s derivatives w.r.t. the inputs that require grad against finite
    differences: first order always, second order when ``order >= 2``.

    ``fn`` takes the tensors (and ``kwargs``) and returns a tensor or a tuple of tensors.
    Second order is checked on ``grad{i}(x) = d<fn(x), u>/d input i`` for a fixed random
    ``u`` (the report names it ``grad{i}``).
    Tolerances default by the inputs' precision (float64: atol 1e-5, rtol 1e-3; float32:
    1e-2 both); differences are taken in float64 (eps 1e-6) on upcast copies of lower
    precision inputs, unless ``fn`` refuses float64 (then natively, eps 1e-3).
    Raises ``GradientMismatch`` (an AssertionError) naming output, input and element.
    """
    diff = [i for i, t in enumerate(tensors) if isinstance(t, Tensor) and t.requires_grad]
    if not diff:
        raise ValueError("assert_gradients: no input requires grad; nothing to check")
    up = _can_upcast(fn, tensors, kwargs)
    _, atol, rtol = _defaults(tensors[diff[0]].array.dtype, eps, atol, rtol)
    eps = eps if eps is not None else (1e-6 if up else _defaults(
        tensors[diff[0]].array.dtype, None, None, None)[0])
    _check_first(fn, tensors, diff, eps, atol, rtol, kwargs, up)
    if order >= 2:
        _check_second(fn, tensors, diff, eps, atol, rtol, seed, kwargs, up)


def _check_first(fn, tensors, diff, eps, atol, rtol, kwargs, up):
    ts = _copies(tensors)
    with enable_grad():
        outs = _outputs(fn(*ts, **kwargs))
    inputs = [ts[i] for i in diff]
    for o_idx, out in enumerate(outs):
        if not isinstance(out, Tensor) or out.array.dtype.kind != "f":
            continue
        n_out = out.array.size
        got = [host.zeros((ts[i].array.size, n_out)) for i in diff]
        for j in range(n_out):
            seed = _one_hot(out, j)
            for g_arr, g in zip(got, grads_of((out,), inputs, (seed,), retain_graph=True)):
                if g is not None:
                    g_arr[:, j] = _to_host64(g.array).reshape(-1)
        for pos, i in enumerate(diff):
            expected = host.zeros_like(got[pos])
            for k in range(ts[i].array.size):
                plus = _value_arrays(fn, _perturbed(ts, i, k, eps, up), kwargs)[o_idx]
                minus = _value_arrays(fn, _perturbed(ts, i, k, -eps, up), kwargs)[o_idx]
                expected[k] = ((plus - minus) / (2 * eps)).reshape(-1)
            if not host.all(host.abs(expected - got[pos]) <= atol + rtol * host.abs(expected)):
                raise _report("first", f"output {o_idx}", out.array.shape, i,
                              ts[i].array.shape, expected, got[pos], atol, rtol)


def _one_hot(t: Tensor, j: int) -> Tensor:
    """A seed of ``t``'s class, shape and dtype on ``t``'s device: 1 at flat index j."""
    a = host.zeros(t.array.shape, dtype=t.array.dtype)
    a.reshape(-1)[j] = 1
    return type(t).wrap(from_host(a, device_of(t.array)))


def _first_grads(fn, tensors, diff, us, kwargs, create_graph=False):
    """Gradients of sum_o <out_o, u_o> w.r.t. the diff inputs (arrays, or tensors)."""
    with enable_grad():
        outs = _outputs(fn(*tensors, **kwargs))
        pairs = [(o, u) for o, u in zip(outs, us) if isinstance(o, Tensor) and u is not None]
        seeds = tuple(type(o).wrap(from_host(u.astype(o.array.dtype), device_of(o.array)))
                      for o, u in pairs)
        grads = grads_of(tuple(o for o, _ in pairs), [tensors[i] for i in diff], seeds,
                         create_graph=create_graph)
    if create_graph:
        return grads
    return [host.zeros(tensors[i].array.shape) if g is None
            else _to_host64(g.array) for g, i in zip(grads, diff)]


def _check_second(fn, tensors, diff, eps, atol, rtol, seed, kwargs, up):
    rng = host.random.default_rng(seed)
    outs = _value_arrays(fn, tensors, kwargs)
    us = [rng.standard_normal(o.shape) for o in outs]
    ts = _copies(tensors)
    first = _first_grads(fn, ts, diff, us, kwargs, create_graph=True)
    inputs = [ts[i] for i in diff]
    for a_pos, a in enumerate(diff):  # the gradient w.r.t. input a ...
        g = first[a_pos]
        n_g = ts[a].array.size
        got = [host.zeros((ts[b].array.size, n_g)) for b in diff]
        if g is not None and g.requires_grad:
            for j in range(n_g):
                s = _one_hot(g, j)
                for arr, h in zip(got, grads_of((g,), inputs, (s,), retain_graph=True)):
                    if h is not None:
                        arr[:, j] = _to_host64(h.array).reshape(-1)
        for b_pos, b in enumerate(diff):  # ... differentiated w.r.t. input b
            expected = host.zeros_like(got[b_pos])
            for k in range(ts[b].array.size):
                plus = _first_grads(fn, _perturbed(ts, b, k, eps, up), diff, us, kwargs)[a_pos]
                minus = _first_grads(fn, _perturbed(ts, b, k, -eps, up), diff, us, kwargs)[a_pos]
                expected[k] = ((plus - minus) / (2 * eps)).reshape(-1)
            tol_a, tol_r = atol * 10, rtol * 10  # differences of differences lose digits
            if not host.all(host.abs(expected - got[b_pos])
                            <= tol_a + tol_r * host.abs(expected)):
                raise _report("second", f"grad{a}", ts[a].array.shape, b,
                              ts[b].array.shape, expected, got[b_pos], tol_a, tol_r)

# ---------------------------------------------------------------- assert_close
# torch.testing.assert_close's comparison and failure messages, host-side (the frontend
# passes its own spelling of shapes and dtypes)
_TOLERANCES = {"float16": (1e-3, 1e-5), "float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7)}


def _close_tolerances(dtype: host.dtype, rtol, atol):
    if (rtol is None) != (atol is None):
        missing = "atol" if atol is None else "rtol"
        raise ValueError(f"Both 'rtol' and 'atol' must be either specified or omitted, "
                         f"but got no {missing}.")
    if rtol is not None:
        return rtol, atol
    return _TOLERANCES.get(dtype.name, (0.0, 0.0))


def _fail(msg, default: str, item: str) -> None:
    if callable(msg):
        text = msg(default)
    elif msg is not None:
        text = msg
    else:
        text = default + (f"\n\nThe failure occurred for item {item}" if item else "")
    raise AssertionError(text)


def _number(v):
    return v.item() if isinstance(v, host.generic) else v


def _compare(actual, expected, scalar: bool, rtol, atol, equal_nan, check_dtype, msg,
             item: str, fmt: dict) -> None:
    a, e = actual, expected
    if a.shape != e.shape:
        _fail(msg, f"The values for attribute 'shape' do not match: {fmt['shape'](a.shape)} "
                   f"!= {fmt['shape'](e.shape)}.", item)
    if check_dtype and a.dtype != e.dtype:
        _fail(msg, f"The values for attribute 'dtype' do not match: "
                   f"{fmt['dtype'](a.dtype)} != {fmt['dtype'](e.dtype)}.", item)
    dtype = host.promote_types(a.dtype, e.dtype)
    rtol, atol = _close_tolerances(dtype, rtol, atol)
    if dtype.kind in "biu":
        a, e, dtype = a.astype(host.int64), e.astype(host.int64), host.dtype(host.int64)
    else:
        a, e = a.astype(dtype), e.astype(dtype)
    with host.errstate(all="ignore"):
        diff = host.abs(a - e)
        close = diff <= atol + rtol * host.abs(e)
        if dtype.kind == "f":
            close |= a == e  # infinities of one sign
            if equal_nan:
                close |= host.isnan(a) & host.isnan(e)
        if close.all():
            return
        rel_dtype = dtype if dtype.kind == "f" else host.float32
        rel = diff.astype(rel_dtype) / host.abs(e).astype(rel_dtype)
    equal = rtol == 0 and atol == 0
    kind = "equal" if equal else "close"
    if scalar:  # torch compares 0-d values as Python numbers
        av, ev = _number(a.reshape(()).item()), _number(e.reshape(()).item())
        d = abs(av - ev)
        r = d / abs(ev) if ev else (float("nan") if d == 0 or d != d else float("inf"))
        text = (f"Scalars are not {kind}!\n\nExpected {ev} but got {av}.\n"
                f"Absolute difference: {d}" + ("" if equal else f" (up to {atol} allowed)")
                + f"\nRelative difference: {r}" + ("" if equal else f" (up to {rtol} allowed)"))
        _fail(msg, text, item)
    n_bad, n = int((~close).sum()), close.size
    i_abs = host.unravel_index(int(host.argmax(host.where(host.isnan(diff), host.inf, diff))
                                 if dtype.kind == "f" else host.argmax(diff)), a.shape)
    i_rel = host.unravel_index(int(host.argmax(host.where(host.isnan(rel), host.inf, rel))),
                               a.shape)
    idx_abs = tuple(int(i) for i in i_abs)
    idx_rel = tuple(int(i) for i in i_rel)
    text = (f"Tensor-likes are not {kind}!\n\n"
            f"Mismatched elements: {n_bad} / {n} ({100 * n_bad / n:.1f}%)\n"
            f"Greatest absolute difference: {diff[idx_abs].item()} at index {idx_abs}"
            + ("" if equal else f" (up to {atol} allowed)") + "\n"
            f"Greatest relative difference: {rel[idx_rel].item()} at index {idx_rel}"
            + ("" if equal else f" (up to {rtol} allowed)"))
    _fail(msg, text, item)


def _leaf(x):
    """(host array, is_scalar) for a tensor, numpy array or Python number; None otherwise."""
    if isinstance(x, Tensor):
        array = to_host(x.array)
        return array, array.ndim == 0
    if isinstance(x, host.ndarray):
        return x, x.ndim == 0
    if isinstance(x, bool | int | float | host.generic):
        return host.asarray(x, dtype=host.float64 if isinstance(x, float) else None), True
    return None


def _walk(actual, expected, item: str, kw) -> None:
    la, le = _leaf(actual), _leaf(expected)
    if la is not None and le is not None:
        scalar = la[1] and le[1]
        check_dtype = kw["check_dtype"] and isinstance(actual, Tensor)
        _compare(la[0], le[0], scalar, kw["rtol"], kw["atol"], kw["equal_nan"], check_dtype,
                 kw["msg"], item, kw)
        return
    if isinstance(actual, Mapping) and isinstance(expected, Mapping):
        if set(actual) != set(expected):
            _fail(kw["msg"], f"The keys of the mappings do not match:\n{sorted(actual)} != "
                             f"{sorted(expected)}", item)
        for k in expected:
            _walk(actual[k], expected[k], f"{item}[{k!r}]", kw)
        return
    if isinstance(actual, Sequence) and isinstance(expected, Sequence) and not isinstance(
            actual, str) and not isinstance(expected, str):
        if len(actual) != len(expected):
            _fail(kw["msg"], f"The length of the sequences mismatch: {len(actual)} != "
                             f"{len(expected)}", item)
        for i, (x, y) in enumerate(zip(actual, expected)):
            _walk(x, y, f"{item}[{i}]", kw)
        return
    if type(actual) is not type(expected) and not (la and le):
        raise TypeError(f"No comparison pair was able to handle inputs of type "
                        f"{type(actual)} and {type(expected)}.")
    if actual != expected:
        _fail(kw["msg"], f"Objects are not equal!\n\nExpected {expected} but got {actual}.",
              item)


def assert_close(actual, expected, *, shape_str=str, dtype_str=str, rtol=None, atol=None,
                 equal_nan=False, check_dtype=True, msg=None) -> None:
    """Raise AssertionError unless ``actual`` and ``expected`` (tensors, numpy arrays,
    numbers, and sequences or mappings of them) are close:
    ``|actual - expected| <= atol + rtol * |expected|`` elementwise (tolerances per dtype
    unless given), with the failure messages of torch.testing.assert_close; ``shape_str``
    and ``dtype_str`` spell a shape and a dtype in them."""
    if (rtol is None) != (atol is None):
        _close_tolerances(host.dtype(host.float64), rtol, atol)
    _walk(actual, expected, "", dict(rtol=rtol, atol=atol, equal_nan=equal_nan,
                                     check_dtype=check_dtype, msg=msg, shape=shape_str,
                                     dtype=dtype_str))


