"""A layer trained side by side with the real framework's (the norm part's differential
tests in both dialects): outputs, input and parameter gradients and the whole state after
each of several training steps, then the eval-mode output."""
from __future__ import annotations

import numpy as np

from .tolerance import assert_kernels_close


def _np(t):
    return t.detach().numpy()


def train_side_by_side(ref_mod, our_mod, shape, ref_leaf, our_leaf, rng, n: int = 3) -> None:
    """``ref_leaf(x, grad)`` / ``our_leaf(x, grad)``: a tensor of numpy array x in each
    framework (requiring grad when ``grad``)."""
    for _ in range(n):
        x = rng.standard_normal(shape).astype("float32") * 2 + 0.5
        xr, xo = ref_leaf(x, True), our_leaf(x, True)
        yr, yo = ref_mod(xr), our_mod(xo)
        w = rng.standard_normal(tuple(yr.shape)).astype("float32")
        (yr * ref_leaf(w, False)).sum().backward()
        (yo * our_leaf(w, False)).sum().backward()
        assert_kernels_close(_np(yo), _np(yr), n=x.size, k=64)
        assert_kernels_close(xo.grad.numpy(), xr.grad.numpy(), n=x.size, k=64)
        for (nr, pr), (no, po) in zip(ref_mod.named_parameters(), our_mod.named_parameters()):
            assert nr == no
            if pr.grad is None:
                assert po.grad is None, nr
            else:
                assert_kernels_close(po.grad.numpy(), pr.grad.numpy(), n=x.size, k=64)
        ours = our_mod.state_dict()
        for k, v in ref_mod.state_dict().items():
            assert ours[k].numpy().dtype == np.asarray(v.numpy()).dtype, k
            assert_kernels_close(ours[k].numpy(), v.numpy(), n=x.size, k=64)
    ref_mod.eval()
    our_mod.eval()
    x = rng.standard_normal(shape).astype("float32")
    assert_kernels_close(_np(our_mod(our_leaf(x, False))), _np(ref_mod(ref_leaf(x, False))),
                         n=x.size, k=64)
