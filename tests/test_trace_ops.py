"""Trace and replay against eager over the whole op table: the same bits.

For every spec (janusgrad.ops.SPECS): the op is compiled (janusgrad.transforms.trace), traced on one
draw of its inputs, then replayed on *other values of the same shapes*; the replay's
outputs and the gradients its node sends back must equal an eager run on those values bit
for bit (same kernels, same order).  Replaying on new values is what finds a value the
trace kept as a constant where eager computes it from the inputs.  Ops that draw random
numbers must break (run eagerly) instead, with the same results as eager.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from janusgrad import SPECS, Tensor
from janusgrad.core import autograd
from janusgrad.transforms import trace

from .test_ops import _draw_case, _grad_args

# ops whose output's shape or Python-level arguments may come from input values: they break
# (a Python value read from a tensor) and run eagerly, or replay correctly (the numpy call
# itself sizes its output)
# ... and ops whose engine code branches on values (a zero in a product, a singular matrix,
# a norm choosing a Pade order, a padded window that wins a max, ...)
DATA_DEPENDENT = {"nonzero", "bincount", "histc", "masked_argmax", "masked_argmin",
                  "chebyshev_polynomial_t", "hermite_polynomial_h", "laguerre_polynomial_l",
                  "legendre_polynomial_p", "prod", "cumprod", "masked_prod", "masked_cumprod",
                  "linalg_solve_triangular", "linalg_solve_triangular_right_unit",
                  "linalg_cholesky_solve", "linalg_cholesky_inverse", "linalg_lu_solve",
                  "linalg_lu_solve_adjoint", "linalg_matrix_exp", "frexp_mantissa",
                  "scatter_reduce", "index_reduce", "nn.max_pool1d", "nn.max_pool2d",
                  "nn.max_pool3d", "nn.adaptive_max_pool1d", "nn.adaptive_max_pool2d",
                  "nn.adaptive_max_pool3d"}
# ops whose result may be a view of their input: a function returning a view of what it
# reads breaks (the view's shared version counter is eager bookkeeping a replay lacks)
VIEWS = {"reshape", "transpose", "squeeze", "unsqueeze", "flatten", "unflatten", "select",
         "narrow", "diagonal", "movedim", "moveaxis", "getitem", "expand", "broadcast_to",
         "atleast_1d", "atleast_2d", "atleast_3d", "einsum", "linalg_slogdet",
         "linalg_slogdet_sign", "nn.pixel_unshuffle", "nn.pixel_shuffle", "sum_to", "nn.pad"}
RANDOM = {"dropout", "alpha_dropout", "feature_alpha_dropout", "dropout_nd", "bernoulli",
          "multinomial", "rrelu", "randn_like", "rand_like", "randint_like", "normal",
          "poisson", "masked_random"}


def _perturbed(a: np.ndarray, rng) -> np.ndarray:
    """Other values of the same shape and dtype, in the same domain (same signs, about the
    same size): floats scaled by 1 +- 1%, everything else as it was (indices, masks)."""
    if a.dtype.kind != "f":
        return a.copy()
    return np.asarray(a * (1.0 + 0.01 * rng.uniform(-1.0, 1.0, a.shape)), a.dtype)


def _tensors(arrays, grad_args):
    return [Tensor(np.array(a), requires_grad=(i in grad_args and a.dtype.kind == "f"))
            for i, a in enumerate(arrays)]


def _outputs(out) -> list:
    if isinstance(out, Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [o for x in out for o in _outputs(x)]
    return []


def _run(fn, arrays, grad_args, seeds):
    """Outputs and input gradients (arrays) of ``fn`` on fresh tensors of ``arrays``."""
    ts = _tensors(arrays, grad_args)
    outs = _outputs(fn(*ts))
    diff = [o for o in outs if o.requires_grad]
    if diff:
        autograd.backward(diff, [Tensor(seeds(o)) for o in diff])
    return ([o.array.copy() for o in outs],
            [None if t.grad is None else t.grad.array.copy() for t in ts])


def _same(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)


@pytest.mark.parametrize("spec", SPECS, ids=[s.name for s in SPECS])
def test_replay_equals_eager_bit_for_bit(spec):
    compared = []

    @settings(max_examples=6, deadline=None)
    @given(_draw_case(spec))
    def run(case):
        arrays, kwargs, seed = case
        rng = np.random.default_rng(seed)
        grad_args = _grad_args(spec, arrays) if spec.differentiable else ()
        other = [_perturbed(a, rng) for a in arrays]
        seed_values = {}

        def seeds(o):  # one fixed random cotangent per output shape
            key = (o.array.shape, o.array.dtype.str)
            if key not in seed_values:
                seed_values[key] = rng.standard_normal(o.array.shape).astype(o.array.dtype)
            return seed_values[key]

        def fn(*ts):
            return spec.fn(*ts, **kwargs)

        compiled = trace.compiled(fn)
        try:
            _run(fn, arrays, grad_args, seeds)
        except Exception as e:  # noqa: BLE001 - the op refuses this draw: compiled too
            with pytest.raises(type(e)):
                _run(compiled, arrays, grad_args, seeds)
            return
        _run(compiled, arrays, grad_args, seeds)  # the trace (and a first replay)
        got = _run(compiled, other, grad_args, seeds)
        want = _run(fn, other, grad_args, seeds)
        breaks = compiled.stats["breaks"]
        if spec.name in RANDOM:
            assert breaks == ["random numbers"], breaks
        elif spec.name in DATA_DEPENDENT:
            assert all("value" in c for c in breaks), breaks  # (or a replay, checked below)
        elif spec.name in VIEWS:
            assert all("view" in c for c in breaks), breaks
        else:
            assert compiled.stats["replays"] == 1, compiled.stats
        for g, w in zip(got[0], want[0]):
            assert _same(g, w), (g, w)
        for g, w in zip(got[1], want[1]):
            assert (g is None) == (w is None)
            if g is not None:
                assert _same(g, w), (g, w)
        compared.append(spec.name)

    run()
    assert compared, "every draw was refused: nothing was compared"
