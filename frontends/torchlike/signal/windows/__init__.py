"""torch.signal.windows: windows as torch computes them (janusgrad.ops.stats.window); the
keyword-only parameters and their defaults are torch's."""
from __future__ import annotations

from janusgrad.host.dropin import module_getattr
from janusgrad.ops import stats as _MS

from ... import _dtypes
from ..._creation import _dev, _finish
from ..._tensor import Tensor as _Tensor


def _make(kind, M, sym, dtype, layout, device, requires_grad, **params):
    if layout is not None and str(layout).rsplit(".", 1)[-1] != "strided":
        raise ValueError(f"{kind} is implemented for strided tensors only, got: {layout}")
    dt = _dtypes.get_default_dtype() if dtype is None else dtype
    if str(dt).rsplit(".", 1)[-1] not in ("float32", "float64"):
        raise ValueError(f"{kind} expects float32 or float64 dtypes, got: {dt}")
    return _finish(_MS.window(_Tensor, kind, M, sym, _dtypes.to_np(dt), device=_dev(device),
                              **params), requires_grad)


def _simple(kind):
    def window(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
        return _make(kind, M, sym, dtype, layout, device, requires_grad)
    window.__name__ = window.__qualname__ = kind
    return window


hamming = _simple("hamming")
hann = _simple("hann")
bartlett = _simple("bartlett")
blackman = _simple("blackman")
cosine = _simple("cosine")
nuttall = _simple("nuttall")


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=None, device=None,
                requires_grad=False):
    return _make("exponential", M, sym, dtype, layout, device, requires_grad, center=center,
                 tau=tau)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None,
             requires_grad=False):
    return _make("gaussian", M, sym, dtype, layout, device, requires_grad, std=std)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None,
           requires_grad=False):
    return _make("kaiser", M, sym, dtype, layout, device, requires_grad, beta=beta)


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None,
                   requires_grad=False):
    return _make("general_cosine", M, sym, dtype, layout, device, requires_grad, a=a)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None,
                    requires_grad=False):
    return _make("general_hamming", M, sym, dtype, layout, device, requires_grad, alpha=alpha)


__getattr__ = module_getattr("torchlike", "torch.signal.windows")

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]
