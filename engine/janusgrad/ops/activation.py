"""Elementwise activations as ops with rules, and the activations built from other ops.

Each parametrised activation is one record: a forward on arrays (the array module from the
input: ``xp_of``) and a derivative written once over the rule namespace ``np``, with its
parameters kept as the node's attrs.  Their kinks follow torch's kernels (hardtanh's
gradient is 0 on its bounds, threshold passes it only above the threshold, hard/softshrink
stop it on [-lambd, lambd]); paddle agrees away from those points.

glu, prelu, rrelu and softmin are composites of engine ops (no rule).
"""
from __future__ import annotations

from janusgrad.array.backend import as_array, default_float, host, onto_device_of, xp_of
from janusgrad.core.tensor import record
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R
from janusgrad.ops import shape as S
from janusgrad.ops.creation import default_generator
from janusgrad.ops.elementwise import _sigmoid_fwd
from janusgrad.ops.rules import rule_arrays, rule_tensors
from janusgrad.ops.testing import array, small_shape, unary

SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _def_act(name, fwd, rule, uses=("x", "attrs"), float_only=True):
    """An activation ``op(x, *params)``: ``fwd(a, *params)`` on arrays, ``rule(np, g,
    ...)`` on the operands ``uses`` (``attrs``: the params as a tuple of floats)."""
    opdef = defop(name, fresh=True, rule=rule, uses=uses)
    save_in, save_out = "x" in uses, "out" in uses

    def op(x, *params):
        a = x.array
        if a.dtype.kind != "f" and (float_only or any(
                isinstance(p, float) and not p.is_integer() for p in params)):
            a = a.astype(default_float)
        out = fwd(a, *params)
        if out.dtype != a.dtype:
            out = out.astype(a.dtype)
        attrs = tuple(params)
        return record(opdef, as_array(out), (x,), (x,) if save_in else (), attrs, save_out)

    op.__name__ = name
    return op


# ---------------------------------------------------------------- the elu family
def _elu_fwd(a, alpha, scale, input_scale):
    xp = xp_of(a)
    neg = xp.expm1(xp.minimum(a, 0) * input_scale) * (alpha * scale)
    return xp.where(a > 0, a * scale, neg)


def _elu_rule(np, g, x, attrs):
    alpha, scale, input_scale = attrs
    slope = np.exp(x * input_scale) * (alpha * scale * input_scale)
    return np.where(np.greater(x, 0.0), g * scale, g * slope)


_elu = _def_act("elu", _elu_fwd, _elu_rule)


def elu(x, alpha=1.0, scale=1.0, input_scale=1.0):
    """scale * x above 0, scale * alpha * (exp(input_scale * x) - 1) at and below 0."""
    return _elu(x, float(alpha), float(scale), float(input_scale))


def selu(x, scale=SELU_SCALE, alpha=SELU_ALPHA):
    return _elu(x, float(alpha), float(scale), 1.0)


def celu(x, alpha=1.0):
    """max(0, x) + min(0, alpha (exp(x / alpha) - 1))."""
    return _elu(x, float(alpha), 1.0, 1.0 / float(alpha))


# ---------------------------------------------------------------- hard (piecewise linear)
def _hardtanh_fwd(a, lo, hi):
    return xp_of(a).clip(a, lo, hi)


def _hardtanh_rule(np, g, x, attrs):
    lo, hi = attrs
    inside = np.logical_and(np.greater(x, lo), np.less(x, hi))
    return np.where(inside, g, g * 0.0)


_hardtanh = _def_act("hardtanh", _hardtanh_fwd, _hardtanh_rule, float_only=False)


def hardtanh(x, min_val=-1.0, max_val=1.0):
    """x clamped to [min_val, max_val]; the gradient is 0 on the bounds (torch's)."""
    return _hardtanh(x, min_val, max_val)


def relu6(x):
    return _hardtanh(x, 0.0, 6.0)


def _hardsigmoid_fwd(a, slope, offset):
    return xp_of(a).clip(a * slope + offset, 0.0, 1.0)


def _hardsigmoid_rule(np, g, x, attrs):
    slope, offset = attrs
    v = x * slope + offset
    inside = np.logical_and(np.greater(v, 0.0), np.less(v, 1.0))
    return np.where(inside, g * slope, g * 0.0)


_hardsigmoid = _def_act("hardsigmoid", _hardsigmoid_fwd, _hardsigmoid_rule)


def _hardsigmoid6_fwd(a):
    # torch's form, relu6(x + 3) / 6 (rounds as torch does)
    return xp_of(a).clip(a + 3.0, 0.0, 6.0) / 6.0


_hardsigmoid6 = _def_act("hardsigmoid6", _hardsigmoid6_fwd, lambda np, g, x: np.where(
    np.logical_and(np.greater(x, -3.0), np.less(x, 3.0)), g * (1.0 / 6.0), g * 0.0), "x")


def hardsigmoid(x, slope=None, offset=0.5):
    """clip(slope x + offset, 0, 1); slope None: torch's relu6(x + 3) / 6."""
    if slope is None:
        return _hardsigmoid6(x)
    return _hardsigmoid(x, float(slope), float(offset))


def _hardswish_fwd(a):
    return a * xp_of(a).clip(a + 3.0, 0.0, 6.0) / 6.0


def _hardswish_rule(np, g, x):
    # torch's and paddle's: 0 up to -3, x / 3 + 1/2 between, 1 from 3 on
    mid = np.where(np.less(x, 3.0), g * (x * (1.0 / 3.0) + 0.5), g)
    return np.where(np.less_equal(x, -3.0), g * 0.0, mid)


hardswish = _def_act("hardswish", _hardswish_fwd, _hardswish_rule, "x")


def _shrink_rule(np, g, x, attrs):
    lambd, open_ = attrs[0], len(attrs) > 1 and attrs[1]
    if open_:  # (-lambd, lambd) is dead, its bounds pass
        dead = np.logical_and(np.greater(x, -lambd), np.less(x, lambd))
    else:
        dead = np.logical_and(np.greater_equal(x, -lambd), np.less_equal(x, lambd))
    return np.where(dead, g * 0.0, g)


def _hardshrink_fwd(a, lambd, open_):
    if open_:
        return xp_of(a).where((a > -lambd) & (a < lambd), 0.0, a)
    return xp_of(a).where((a >= -lambd) & (a <= lambd), 0.0, a)


def _softshrink_fwd(a, lambd):
    xp = xp_of(a)
    return xp.where(a > lambd, a - lambd, xp.where(a < -lambd, a + lambd, 0.0))


_hardshrink = _def_act("hardshrink", _hardshrink_fwd, _shrink_rule)
_softshrink = _def_act("softshrink", _softshrink_fwd, _shrink_rule)


def hardshrink(x, lambd=0.5, keep_bounds=False):
    """x where |x| > lambd, else 0; ``keep_bounds``: x where |x| >= lambd (paddle's)."""
    return _hardshrink(x, float(lambd), bool(keep_bounds))


def softshrink(x, lambd=0.5):
    """x - lambd above lambd, x + lambd below -lambd, else 0."""
    return _softshrink(x, float(lambd))


def _threshold_fwd(a, threshold, value):
    xp = xp_of(a)
    return xp.where(a > threshold, a, xp.asarray(value).astype(a.dtype))


_threshold = _def_act("threshold", _threshold_fwd, lambda np, g, x, attrs: np.where(
    np.greater(x, attrs[0]), g, g * 0.0), float_only=False)


def threshold(x, threshold, value):
    """x where x > threshold, else value (the dtype of x: integers stay integers)."""
    return _threshold(x, threshold, value)


# ---------------------------------------------------------------- smooth
def _softsign_fwd(a):
    return a / (xp_of(a).abs(a) + 1.0)


softsign = _def_act("softsign", _softsign_fwd,
                    lambda np, g, x: g / np.square(np.abs(x) + 1.0), "x")


def _tanhshrink_fwd(a):
    return a - xp_of(a).tanh(a)


# tanh(x) = x - out, so the derivative 1 - (1 - tanh^2) is (x - out)^2
tanhshrink = _def_act("tanhshrink", _tanhshrink_fwd,
                      lambda np, g, x, out: g * np.square(x - out), ("x", "out"))


def _silu_fwd(a):
    return a * _sigmoid_fwd(a)


def _silu_rule(np, g, x):
    s = np.sigmoid(x)
    return g * (s * (x * (1.0 - s) + 1.0))


silu = _def_act("silu", _silu_fwd, _silu_rule, "x")


def _tanh_softplus(np, s):
    """tanh(softplus(x)) from s = sigmoid(x): with q = 1 - s, (1 - q^2) / (1 + q^2)."""
    q = 1.0 - s
    return s * (2.0 - s) / (np.square(q) + 1.0)


def _mish_fwd(a):
    xp = xp_of(a)
    sp = xp.logaddexp(0.0, a)
    return a * xp.tanh(sp)


def _mish_rule(np, g, x):
    s = np.sigmoid(x)
    t = _tanh_softplus(np, s)
    return g * (t + x * s * (1.0 - np.square(t)))


mish = _def_act("mish", _mish_fwd, _mish_rule, "x")


def _logsigmoid_fwd(a):
    xp = xp_of(a)
    return xp.minimum(a, 0.0) - xp.log1p(xp.exp(-xp.abs(a)))


logsigmoid = _def_act("logsigmoid", _logsigmoid_fwd,
                      lambda np, g, x: g * np.sigmoid(-x), "x")


# ---------------------------------------------------------------- composites
def glu(x, axis=-1):
    """a * sigmoid(b) of the two halves of ``x`` along ``axis``."""
    n = x.array.shape[axis] // 2
    a, b = S.split(x, [n, n], axis)
    return E.mul(a, E.sigmoid(b))


def prelu(x, weight, channel_axis=1):
    """x above 0, weight * x elsewhere; ``weight`` has one value or one per channel (the
    input's ``channel_axis``; a 1-d input has its channels on axis 0)."""
    w = weight
    nd = x.array.ndim
    if weight.array.size != 1 and nd >= 2:
        shape = [1] * nd
        shape[channel_axis % nd] = weight.array.size
        w = S.reshape(weight, tuple(shape))
    elif weight.array.ndim and weight.array.size == 1 and nd < weight.array.ndim:
        w = S.reshape(weight, ())
    return E.where_(E.gt(x, 0.0), x, E.mul(w, x))


def leaky(x, slope, zero_passes=False):
    """x above 0 (from 0 on: ``zero_passes``, paddle's rrelu), slope * x elsewhere."""
    return E.where_((E.ge if zero_passes else E.gt)(x, 0.0), x, E.mul(x, slope))


def rrelu(x, lower=1.0 / 8.0, upper=1.0 / 3.0, training=False, generator=None,
          zero_passes=False):
    """leaky relu with slope (lower + upper) / 2 in evaluation; in training each negative
    element gets its own slope drawn uniformly from [lower, upper]."""
    if not training:
        return leaky(x, (lower + upper) / 2.0, zero_passes)
    gen = default_generator if generator is None else generator
    a = x.array
    slopes = gen.rng.uniform(lower, upper, a.shape)
    w = type(x).wrap(onto_device_of(slopes.astype(a.dtype), a))
    return E.where_(E.gt(x, 0.0), x, E.mul(x, w))


def softmin(x, axis):
    return R.softmax(E.neg(x), axis)


# ---------------------------------------------------------------- rule namespaces
@rule_arrays
def activation_arrays(xp) -> dict:
    """The names this family's rules use besides numpy's (engine.ops.rules), on arrays."""
    return {"sigmoid": _sigmoid_fwd}


@rule_tensors
def activation_tensors() -> dict:
    return {"sigmoid": E.sigmoid}


# ---------------------------------------------------------------- specs
def _sig_ref(a):
    return 1.0 / (1.0 + host.exp(-a))


def _elu_ref(a, alpha=1.0, scale=1.0, input_scale=1.0):
    return host.where(a > 0, scale * a, scale * alpha * (host.exp(a * input_scale) - 1.0))


_K0 = (0.0,)
spec("elu", elu, unary(avoid=_K0), ref=_elu_ref)
spec("elu_alpha", lambda x: elu(x, 0.7, 1.3, 0.5), unary(avoid=_K0),
     ref=lambda a: _elu_ref(a, 0.7, 1.3, 0.5))
spec("selu", selu, unary(avoid=_K0), ref=lambda a: _elu_ref(a, SELU_ALPHA, SELU_SCALE))
spec("celu", lambda x: celu(x, 1.5), unary(avoid=_K0),
     ref=lambda a: _elu_ref(a, 1.5, 1.0, 1 / 1.5))
spec("hardtanh", lambda x: hardtanh(x, -0.5, 1.2), unary(avoid=(-0.5, 1.2)),
     ref=lambda a: host.clip(a, -0.5, 1.2))
spec("relu6", relu6, unary(-8.0, 8.0, avoid=(0.0, 6.0)), ref=lambda a: host.clip(a, 0.0, 6.0))
spec("hardsigmoid", hardsigmoid, unary(-4.0, 4.0, avoid=(-3.0, 3.0)),
     ref=lambda a: host.clip(a + 3.0, 0.0, 6.0) / 6.0)
spec("hardsigmoid_slope", lambda x: hardsigmoid(x, 0.2, 0.4), unary(-4.0, 4.0,
     avoid=(-2.0, 3.0)), ref=lambda a: host.clip(0.2 * a + 0.4, 0.0, 1.0))
spec("hardswish", hardswish, unary(-4.0, 4.0, avoid=(-3.0, 3.0)),
     ref=lambda a: a * host.clip(a + 3.0, 0.0, 6.0) / 6.0)
spec("hardshrink", lambda x: hardshrink(x, 0.5), unary(avoid=(-0.5, 0.5)),
     ref=lambda a: host.where(host.abs(a) > 0.5, a, 0.0))
spec("hardshrink_keep_bounds", lambda x: hardshrink(x, 0.5, True), unary(avoid=(-0.5, 0.5)),
     ref=lambda a: host.where(host.abs(a) >= 0.5, a, 0.0))
spec("softshrink", lambda x: softshrink(x, 0.5), unary(avoid=(-0.5, 0.5)),
     ref=lambda a: host.where(a > 0.5, a - 0.5, host.where(a < -0.5, a + 0.5, 0.0)))
spec("threshold", lambda x: threshold(x, 0.3, -1.5), unary(avoid=(0.3,)),
     ref=lambda a: host.where(a > 0.3, a, -1.5))
spec("softsign", softsign, unary(avoid=_K0), ref=lambda a: a / (1 + host.abs(a)))
spec("tanhshrink", tanhshrink, unary(), ref=lambda a: a - host.tanh(a))
spec("silu", silu, unary(-5.0, 5.0), ref=lambda a: a * _sig_ref(a))
spec("mish", mish, unary(-5.0, 5.0), ref=lambda a: a * host.tanh(host.log1p(host.exp(a))))
spec("logsigmoid", logsigmoid, unary(-5.0, 5.0), ref=lambda a: host.log(_sig_ref(a)))


def _make_glu(draw, st, hnp):
    shape = list(small_shape(draw, hnp, 1, 3))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    shape[axis] *= 2
    return [array(draw, st, hnp, tuple(shape))], {"axis": axis}


def _glu_ref(a, axis):
    x, y = host.split(a, 2, axis)
    return x * _sig_ref(y)


spec("glu", glu, _make_glu, ref=_glu_ref)


def _make_prelu(draw, st, hnp):
    shape = small_shape(draw, hnp, 2, 3)
    return [array(draw, st, hnp, shape, avoid=_K0),
            array(draw, st, hnp, (shape[1],), 0.0, 0.5)], {}


def _prelu_ref(a, w):
    w = w.reshape((1, -1) + (1,) * (a.ndim - 2))
    return host.where(a > 0, a, w * a)


spec("prelu", prelu, _make_prelu, ref=_prelu_ref)
spec("rrelu_eval", lambda x: rrelu(x, 0.1, 0.3), unary(avoid=_K0),
     ref=lambda a: host.where(a > 0, a, 0.2 * a))
spec("softmin", lambda x: softmin(x, -1), unary(),
     ref=lambda a: host.exp(-a) / host.exp(-a).sum(-1, keepdims=True) if a.ndim else
     host.ones_like(a))


