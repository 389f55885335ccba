"""Recurrent layers: Elman RNN (tanh/relu), GRU and LSTM, cell and sequence, multi-layer and
bidirectional, in the gate layout both frameworks share (LSTM i,f,g,o; GRU r,z,n with
n = tanh(W_in x + b_in + r * (W_hn h + b_hn)); h' = (1 - z) * n + z * h).

A layer of a sequence runs as: one matrix product for the input projection of the whole
sequence (``x @ W_ih^T + b``, engine ops), then ONE recorded op per direction
(``rnn_sequence``) whose forward loops over time on bare arrays (one matmul per step for
``h @ W_hh^T`` and a few in-place ufuncs) and keeps the gate activations; its fast backward
runs back-propagation through time on arrays and takes ``dW_hh`` as one matrix product over the
whole sequence.  Its recording backward (create_graph) recomputes the same layer from engine
ops (``sequence_composite``) and differentiates that, so derivatives of any order hold.

The op's output packs what a layer hands on: ``Y[t]`` is h after step t (in time order) and,
for the LSTM, ``Y[T]`` is the final cell state.
"""
from __future__ import annotations

from janusgrad.array.backend import host, xp_of
from janusgrad.core.autograd import grad
from janusgrad.core.mode import restore_grad, set_grad
from janusgrad.core.tensor import record
from janusgrad.nn.functional import dropout as _dropout
from janusgrad.nn.functional import linear
from janusgrad.ops import defop, spec
from janusgrad.ops import elementwise as E
from janusgrad.ops import shape as S
from janusgrad.ops.manip import select

GATES = {"rnn_tanh": 1, "rnn_relu": 1, "gru": 3, "lstm": 4}


# ---------------------------------------------------------------- one step, engine ops
def _act(z, mode):
    return E.relu(z) if mode == "rnn_relu" else E.tanh(z)


def lstm_pointwise(z, c):
    """The LSTM's gates from the pre-activations ``z`` [..., 4H] (i, f, g, o): (h', c')."""
    n = c.array.shape[-1]
    s = E.sigmoid(z)
    g = E.tanh(S.narrow(z, -1, 2 * n, n))
    c2 = E.add(E.mul(S.narrow(s, -1, n, n), c), E.mul(S.narrow(s, -1, 0, n), g))
    return E.mul(S.narrow(s, -1, 3 * n, n), E.tanh(c2)), c2


def gru_pointwise(gx, gh, h):
    """The GRU's new state from the input part ``gx`` and hidden part ``gh`` [..., 3H]."""
    n = h.array.shape[-1]
    rz = E.sigmoid(E.add(S.narrow(gx, -1, 0, 2 * n), S.narrow(gh, -1, 0, 2 * n)))
    r, z = S.narrow(rz, -1, 0, n), S.narrow(rz, -1, n, n)
    cand = E.tanh(E.add(S.narrow(gx, -1, 2 * n, n), E.mul(r, S.narrow(gh, -1, 2 * n, n))))
    return E.add(cand, E.mul(z, E.sub(h, cand)))


def rnn_cell(x, h, w_ih, w_hh, b_ih=None, b_hh=None, nonlinearity: str = "tanh"):
    """h' = act(x W_ih^T + b_ih + h W_hh^T + b_hh)."""
    z = E.add(linear(x, w_ih, b_ih), linear(h, w_hh, b_hh))
    return E.relu(z) if nonlinearity == "relu" else E.tanh(z)


def gru_cell(x, h, w_ih, w_hh, b_ih=None, b_hh=None):
    return gru_pointwise(linear(x, w_ih, b_ih), linear(h, w_hh, b_hh), h)


def lstm_cell(x, h, c, w_ih, w_hh, b_ih=None, b_hh=None, w_hr=None):
    """One LSTM step: (h', c'); ``w_hr`` [P, H] projects h' (torch's proj_size)."""
    z = E.add(linear(x, w_ih, b_ih), linear(h, w_hh, b_hh))
    h2, c2 = lstm_pointwise(z, c)
    return (h2 if w_hr is None else linear(h2, w_hr)), c2


# ---------------------------------------------------------------- a direction, engine ops
def sequence_composite(mode, xw, h, c, w_hh, b_hh=None, reverse=False, w_hr=None, mask=None):
    """One direction of one layer from engine ops: (outputs [T, B, H] in time order, h_T,
    c_T).  ``xw`` is the input projection with its biases (GRU: b_ih only).  ``mask``
    [T, B, 1] (1 inside each sequence's length, 0 past it): a masked step keeps the state
    and outputs zeros (paddle's ``sequence_length``)."""
    steps = xw.array.shape[0]
    outs = [None] * steps
    for t in (range(steps - 1, -1, -1) if reverse else range(steps)):
        xt = select(xw, 0, t)
        h_old, c_old = h, c
        if mode == "lstm":
            h, c = lstm_pointwise(E.add(xt, linear(h, w_hh)), c)
            if w_hr is not None:
                h = linear(h, w_hr)
        elif mode == "gru":
            h = gru_pointwise(xt, linear(h, w_hh, b_hh), h)
        else:
            h = _act(E.add(xt, linear(h, w_hh)), mode)
        if mask is not None:
            m = select(mask, 0, t)
            outs[t] = E.mul(h, m)
            h = E.add(h_old, E.mul(m, E.sub(h, h_old)))
            if c is not None:
                c = E.add(c_old, E.mul(m, E.sub(c, c_old)))
        else:
            outs[t] = h
    return S.stack(outs, 0), h, c


def _packed_composite(mode, reverse, xw, h, c, w_hh, b_hh):
    if mode == "lstm" and c is None:
        c = _zeros_state(h, *h.array.shape)
    out, _, c = sequence_composite(mode, xw, h, c, w_hh, b_hh, reverse)
    return S.concatenate([out, S.unsqueeze(c, 0)], 0) if mode == "lstm" else out


# ---------------------------------------------------------------- a direction, fused op
def _sigmoid_(xp, a):
    """sigmoid in place, as 0.5 tanh(a/2) + 0.5 (no overflow either way)."""
    a *= 0.5
    xp.tanh(a, out=a)
    a *= 0.5
    a += 0.5
    return a


def _lstm_forward(xp, xw, h0, c0, w_hh):
    """The LSTM on arrays.  The gate activations live gate-major, ``acts[t]`` [4, B, H]
    (i, f, g, o), so that every elementwise op runs on contiguous memory (a ufunc on a
    [B, H] column slice of a [B, 4H] block costs about what it costs on the whole block):
    one batched matmul ``h @ W_k^T`` per step writes the four blocks, the input projection is
    added through a transposed view, and the three sigmoids and the tanh are ONE tanh over
    the whole block (sigmoid(z) = 0.5 tanh(z / 2) + 0.5; the i, f, o blocks scaled by 1/2
    before and after, g by 1)."""
    steps, batch, _ = xw.shape
    n = h0.shape[-1]
    dt = xw.dtype
    wg = xp.ascontiguousarray(w_hh.reshape(4, n, n).transpose(0, 2, 1))  # [4, H_in, H_out]
    half = xp.full((4, 1, 1), 0.5, dtype=dt)
    half[2] = 1.0
    shift = xp.full((4, 1, 1), 0.5, dtype=dt)
    shift[2] = 0.0
    acts = xp.empty((steps, 4, batch, n), dtype=dt)
    cs = xp.empty((steps + 1, batch, n), dtype=dt)  # cs[0] = c0, cs[t + 1] = c after step t
    cs[0] = c0
    tcs = xp.empty((steps, batch, n), dtype=dt)  # tanh(c after step t)
    hs = xp.empty((steps, batch, n), dtype=dt)
    tmp = xp.empty((batch, n), dtype=dt)
    h = h0
    for t in range(steps):
        a = acts[t]
        xp.matmul(h, wg, out=a)
        a += xw[t].reshape(batch, 4, n).transpose(1, 0, 2)
        a *= half
        xp.tanh(a, out=a)
        a *= half
        a += shift
        c = cs[t + 1]
        xp.multiply(a[1], cs[t], out=c)
        xp.multiply(a[0], a[2], out=tmp)
        c += tmp
        xp.tanh(c, out=tcs[t])
        xp.multiply(a[3], tcs[t], out=hs[t])
        h = hs[t]
    return hs, cs[steps], (acts, cs, tcs)


def _lstm_backward(xp, g_h, g_c, c0, w_hh, cache, dz, dh):
    """BPTT of _lstm_forward: fills ``dz`` [T, B, 4H] (the pre-activation gradients, in the
    weights' layout), leaves dL/dh0 in ``dh``; returns dL/dc0.  Each step works in a
    contiguous gate-major scratch block and copies it into ``dz[t]`` once (a transposed
    copy), whose one matrix product with W_hh gives the next dh."""
    acts, cs, tcs = cache
    steps, batch, n = g_h.shape
    dt = g_h.dtype
    dc = xp.zeros_like(c0) if g_c is None else g_c.copy()
    d = xp.empty((4, batch, n), dtype=dt)
    u = xp.empty((batch, n), dtype=dt)
    for t in range(steps - 1, -1, -1):
        i, f, g, o = acts[t]
        tc = tcs[t]
        dh += g_h[t]
        xp.subtract(1.0, o, out=u)  # do = dh tanh(c) o (1 - o)
        u *= o
        xp.multiply(dh, tc, out=d[3])
        d[3] *= u
        xp.multiply(tc, tc, out=u)  # dc += dh o (1 - tanh(c)^2)
        xp.subtract(1.0, u, out=u)
        u *= o
        u *= dh
        dc += u
        xp.subtract(1.0, i, out=u)  # di = dc g i (1 - i)
        u *= i
        xp.multiply(dc, g, out=d[0])
        d[0] *= u
        xp.subtract(1.0, f, out=u)  # df = dc c_prev f (1 - f)
        u *= f
        xp.multiply(dc, cs[t], out=d[1])
        d[1] *= u
        xp.multiply(g, g, out=u)  # dg = dc i (1 - g^2)
        xp.subtract(1.0, u, out=u)
        u *= i
        xp.multiply(dc, u, out=d[2])
        dc *= f
        zt = dz[t]
        zt.reshape(batch, 4, n)[...] = d.transpose(1, 0, 2)
        xp.matmul(zt, w_hh, out=dh)
    return dc


def _forward_arrays(mode, xw, h0, c0, w_hh, b_hh):
    """The layer on arrays in processing order: (hs [T, B, H], c_T, cache for backward)."""
    xp = xp_of(xw)
    if mode == "lstm":
        return _lstm_forward(xp, xw, h0, c0, w_hh)
    steps, batch, _ = xw.shape
    n = h0.shape[-1]
    wt = xp.ascontiguousarray(w_hh.T)  # (a transposed view multiplies at half speed)
    hs = xp.empty((steps, batch, n), dtype=xw.dtype)
    h = h0
    if mode == "gru":
        acts = xp.empty((steps, batch, 3 * n), dtype=xw.dtype)  # r, z, n
        ghn = xp.empty((steps, batch, n), dtype=xw.dtype)
        for t in range(steps):
            gh = xp.matmul(h, wt)
            if b_hh is not None:
                gh += b_hh
            a = acts[t]
            xp.add(xw[t, :, :2 * n], gh[:, :2 * n], out=a[:, :2 * n])
            _sigmoid_(xp, a[:, :2 * n])
            ghn[t] = gh[:, 2 * n:]
            cand = a[:, 2 * n:]
            xp.multiply(a[:, :n], gh[:, 2 * n:], out=cand)
            cand += xw[t, :, 2 * n:]
            xp.tanh(cand, out=cand)
            ht = hs[t]
            xp.subtract(h, cand, out=ht)
            ht *= a[:, n:2 * n]
            ht += cand
            h = ht
        return hs, None, (acts, ghn)
    for t in range(steps):
        ht = hs[t]
        xp.matmul(h, wt, out=ht)
        ht += xw[t]
        if mode == "rnn_relu":
            xp.maximum(ht, 0.0, out=ht)
        else:
            xp.tanh(ht, out=ht)
        h = ht
    return hs, None, ()


def _backward_arrays(mode, g_h, g_c, xw, h0, c0, w_hh, hs, cache, need):
    """Back-propagation through time on arrays (processing order): the gradients of
    (xw, h0, c0, w_hh, b_hh); ``need`` says which are wanted."""
    xp = xp_of(g_h)
    steps, batch, n = hs.shape
    k = GATES[mode] * n
    dz = xp.empty((steps, batch, k), dtype=g_h.dtype)  # pre-activation gradients
    dh = xp.zeros_like(h0)
    if mode == "lstm":
        dc = _lstm_backward(xp, g_h, g_c, c0, w_hh, cache, dz, dh)
        dxw, dgh = dz, dz
    elif mode == "gru":
        acts, ghn = cache
        dgh = xp.empty_like(dz)
        for t in range(steps - 1, -1, -1):
            a, d, e = acts[t], dz[t], dgh[t]
            dh += g_h[t]
            r, z, cand = a[:, :n], a[:, n:2 * n], a[:, 2 * n:]
            hp = hs[t - 1] if t else h0
            dan = dh * (1.0 - z) * (1.0 - cand * cand)
            d[:, 2 * n:] = dan
            xp.multiply(dan, r, out=e[:, 2 * n:])
            xp.multiply(dan, ghn[t], out=d[:, :n])
            d[:, :n] *= r * (1.0 - r)
            xp.multiply(dh, hp - cand, out=d[:, n:2 * n])
            d[:, n:2 * n] *= z * (1.0 - z)
            e[:, :2 * n] = d[:, :2 * n]
            dh *= z
            dh += xp.matmul(e, w_hh)
        dxw = dz
    else:
        for t in range(steps - 1, -1, -1):
            d = dz[t]
            xp.add(dh, g_h[t], out=d)
            if mode == "rnn_relu":
                d *= hs[t] > 0
            else:
                d *= 1.0 - hs[t] * hs[t]
            dh = xp.matmul(d, w_hh)
        dxw, dgh = dz, dz
    gw = gb = None
    if need[3] or need[4]:
        flat = dgh.reshape(steps * batch, k)
        if need[3]:
            prev = xp.concatenate([h0[None], hs[:-1]], 0).reshape(steps * batch, n)
            gw = flat.T @ prev
        if need[4]:
            gb = flat.sum(0)
    if mode == "lstm":
        dc0 = dc
    else:
        dc0 = None
    return (dxw if need[0] else None, dh if need[1] else None,
            dc0 if need[2] else None, gw, gb)


def _sequence_arrays(n, g):
    xw, h0, c0, w_hh, b_hh, cache = n.saved
    mode, reverse = n.attrs
    xp = xp_of(g)
    arrs = [t.array if t is not None else None for t in (xw, h0, c0, w_hh, b_hh)]
    for a in arrs:
        if a is not None and (type(a) is not type(g) or a.dtype != g.dtype):
            return None  # (the recording form promotes)
    hs, acts = cache
    steps = hs.shape[0]
    g_h = g[:steps]
    g_c = g[steps] if mode == "lstm" else None
    xwa = arrs[0]
    if reverse:
        g_h, xwa = g_h[::-1], xwa[::-1]
    g_h = xp.ascontiguousarray(g_h)
    need = [p is not None for p in n.parents]
    h0a = arrs[1]
    c0a = arrs[2] if arrs[2] is not None else (xp.zeros_like(h0a) if mode == "lstm" else None)
    grads = list(_backward_arrays(mode, g_h, g_c, xwa, h0a, c0a, arrs[3], hs, acts, need))
    if grads[0] is not None and reverse:
        grads[0] = xp.ascontiguousarray(grads[0][::-1])
    return grads


def _sequence_vjp(n, g):
    """The recording form: the layer recomputed from engine ops, differentiated."""
    xw, h0, c0, w_hh, b_hh, _ = n.saved
    mode, reverse = n.attrs
    inputs = (xw, h0, c0, w_hh, b_hh)
    prev = set_grad(True)
    try:
        y = _packed_composite(mode, reverse, *inputs)
        want = [t for t, p in zip(inputs, n.parents) if p is not None]
        got = iter(grad([y], want, [g], retain_graph=True, create_graph=True,
                        allow_unused=True))
    finally:
        restore_grad(prev)
    return [next(got) if p is not None else None for p in n.parents]


_sequence = defop("rnn_sequence", vjp=_sequence_vjp)
_sequence.arrays = _sequence_arrays


def sequence(mode, xw, h0, c0=None, w_hh=None, b_hh=None, reverse=False):
    """One direction of one layer as one recorded op: ``Y`` [T(+1), B, H] (see the module
    docstring).  ``xw`` [T, B, G*H] is the input projection with the biases folded in
    (the GRU keeps ``b_hh`` apart: its n gate needs it inside r * (...))."""
    xa = xw.array
    h0a = h0.array
    c0a = None
    if mode == "lstm":
        c0a = c0.array if c0 is not None else xp_of(h0a).zeros_like(h0a)
    wa = w_hh.array
    ba = b_hh.array if b_hh is not None else None
    dts = {a.dtype for a in (xa, h0a, c0a, wa, ba) if a is not None}
    if len(dts) > 1:  # mixed dtypes: the engine's promotion, op by op
        return _packed_composite(mode, reverse, xw, h0, c0, w_hh, b_hh)
    hs, c_last, acts = _forward_arrays(mode, xa[::-1] if reverse else xa, h0a, c0a, wa, ba)
    y = hs[::-1] if reverse else hs
    if mode == "lstm":
        y = xp_of(hs).concatenate([y, c_last[None]], 0)
    else:  # (a new array: the cache keeps hs)
        y = y.copy()
    return record(_sequence, y, (xw, h0, c0, w_hh, b_hh),
                  saved=(xw, h0, c0, w_hh, b_hh, (hs, acts)), attrs=(mode, reverse))


# ---------------------------------------------------------------- multi-layer
def run_direction(mode, x, h, c, weights, reverse=False, mask=None):
    """One direction of one layer over time-major ``x``: (outputs [T, B, Hout], h_T, c_T
    (None unless LSTM)); ``h``, ``c`` [B, .] may be None (zeros); ``weights`` as in rnn;
    ``mask`` as in sequence_composite (see length_mask)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    steps, batch = x.array.shape[:2]
    hidden = w_hh.array.shape[0] // GATES[mode]
    if h is None:
        h = _zeros_state(x, batch, hidden if w_hr is None else w_hr.array.shape[0])
    if mode == "lstm" and c is None:
        c = _zeros_state(x, batch, hidden)
    if mode == "gru":
        bias, bh = b_ih, b_hh
    else:
        bias = b_ih if b_hh is None else (b_hh if b_ih is None else E.add(b_ih, b_hh))
        bh = None
    # the input projection as ONE matrix product over [T*B, I] (on a 3-D x, matmul would run
    # T products, and its weight gradient T products summed after)
    xw = S.reshape(linear(S.reshape(x, (steps * batch, x.array.shape[2])), w_ih, bias),
                   (steps, batch, -1))
    if w_hr is not None or mask is not None:
        return sequence_composite(mode, xw, h, c, w_hh, bh, reverse, w_hr, mask)
    y = sequence(mode, xw, h, c, w_hh, bh, reverse)
    out = S.narrow(y, 0, 0, steps) if mode == "lstm" else y
    return out, select(y, 0, 0 if reverse else steps - 1), \
        (select(y, 0, steps) if mode == "lstm" else None)


def length_mask(x, lengths):
    """[T, B, 1] of x's dtype: 1 where t < lengths[b] (``lengths``: an int tensor [B])."""
    a, n = x.array, lengths.array
    xp = xp_of(a)
    m = xp.arange(a.shape[0])[:, None] < n.reshape(1, -1)
    return type(x).wrap(m.astype(a.dtype)[:, :, None])


def _zeros_state(like, batch, size):
    a = like.array
    return type(like).wrap(xp_of(a).zeros((batch, size), dtype=a.dtype))


def rnn(mode, x, h0, c0, weights, num_layers: int = 1, bidirectional: bool = False,
        dropout: float = 0.0, training: bool = False, generator=None, lengths=None):
    """A stacked recurrent network over time-major ``x`` [T, B, I].

    ``weights``: per layer and direction (l0, l0 reversed, l1, ...), a tuple (w_ih, w_hh,
    b_ih, b_hh, w_hr) with None for absent biases / projection.  ``h0`` [L*D, B, Hout] and
    ``c0`` [L*D, B, H] (LSTM) may be None (zeros).  Returns (output [T, B, D*Hout], h_n, c_n
    (None unless LSTM)).  ``dropout`` applies to each layer's output but the last.
    ``lengths`` (an int tensor [B]): each sequence's length; steps past it keep the state and
    output zeros (paddle's ``sequence_length``)."""
    dirs = 2 if bidirectional else 1
    mask = None if lengths is None else length_mask(x, lengths)
    layer_in = x
    hn, cn = [], []
    for layer in range(num_layers):
        outs = []
        for d in range(dirs):
            k = layer * dirs + d
            h = select(h0, 0, k) if h0 is not None else None
            c = select(c0, 0, k) if (mode == "lstm" and c0 is not None) else None
            out, h, c = run_direction(mode, layer_in, h, c, weights[k], d == 1, mask)
            outs.append(out)
            hn.append(h)
            cn.append(c)
        layer_in = outs[0] if dirs == 1 else S.concatenate(outs, -1)
        if dropout and training and layer < num_layers - 1:
            layer_in = _dropout(layer_in, dropout, True, generator)
    return layer_in, S.stack(hn, 0), (S.stack(cn, 0) if mode == "lstm" else None)


# ---------------------------------------------------------------- property-test specs
def _make_seq(mode, gate_n):
    def make(draw, st, hnp):
        steps = draw(st.integers(1, 3))
        batch = draw(st.integers(1, 2))
        n = draw(st.integers(1, 3))
        rev = draw(st.booleans())

        def arr(shape):
            return draw(hnp.arrays("float64", shape, elements=st.floats(-1.0, 1.0)))
        arrays = [arr((steps, batch, gate_n * n)), arr((batch, n))]
        if mode == "lstm":
            arrays.append(arr((batch, n)))
        arrays.append(arr((gate_n * n, n)))
        if mode == "gru":
            arrays.append(arr((gate_n * n,)))
        return arrays, {"reverse": rev}
    return make


def _seq_fn(mode):
    def fn(*args, reverse=False):
        xw, h0 = args[0], args[1]
        rest = list(args[2:])
        c0 = rest.pop(0) if mode == "lstm" else None
        w = rest.pop(0)
        b = rest.pop(0) if rest else None
        return sequence(mode, xw, h0, c0, w, b, reverse)
    return fn


def _seq_ref(mode):
    """A naive loop on host arrays (float64), independent of the kernels above."""
    def ref(*args, reverse=False):
        onp = host
        xw, h = args[0], args[1]
        rest = list(args[2:])
        c = rest.pop(0) if mode == "lstm" else None
        w = rest.pop(0)
        b = rest.pop(0) if rest else 0.0
        n = h.shape[-1]
        sig = lambda v: 1.0 / (1.0 + onp.exp(-v))  # noqa: E731
        outs = [None] * xw.shape[0]
        for t in (range(xw.shape[0] - 1, -1, -1) if reverse else range(xw.shape[0])):
            if mode == "lstm":
                z = xw[t] + h @ w.T
                i, f, g, o = sig(z[:, :n]), sig(z[:, n:2 * n]), onp.tanh(z[:, 2 * n:3 * n]), \
                    sig(z[:, 3 * n:])
                c = f * c + i * g
                h = o * onp.tanh(c)
            elif mode == "gru":
                gh = h @ w.T + b
                r = sig(xw[t, :, :n] + gh[:, :n])
                z = sig(xw[t, :, n:2 * n] + gh[:, n:2 * n])
                cand = onp.tanh(xw[t, :, 2 * n:] + r * gh[:, 2 * n:])
                h = (1 - z) * cand + z * h
            elif mode == "rnn_relu":
                h = onp.maximum(xw[t] + h @ w.T, 0.0)
            else:
                h = onp.tanh(xw[t] + h @ w.T)
            outs[t] = h
        y = onp.stack(outs)
        return onp.concatenate([y, c[None]]) if mode == "lstm" else y
    return ref


for _mode in ("rnn_tanh", "lstm", "gru"):
    spec(f"rnn_sequence_{_mode}", _seq_fn(_mode), _make_seq(_mode, GATES[_mode]),
         ref=_seq_ref(_mode), extra={"fused_backward": True})
