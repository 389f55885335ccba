"""torch OpInfo op -> paddle API: the table the paddle half of the suite runs (issue 15 §1).

A torch sample (``input, *args, **kwargs``) is first bound to torch's own parameter names
(the signature ``torch.overrides.get_testing_overrides()`` gives, or the OpInfo wrapper's),
then renamed to paddle's (``RENAMES``, then the row's own ``rename``), then an adapter (where
the layouts differ) may rewrite the arguments; what paddle's signature does not take is
dropped when it holds torch's default and makes the sample unmappable otherwise.

A row's target is a dotted path under ``paddle`` (``concat``, ``nn.functional.softmax``,
``linalg.norm``) or ``Tensor.NAME`` (called as a method on the first argument). Ops without an
explicit row map to the same path in paddle (``special.X`` to ``paddle.X``) when real paddle has
it and the op is not in ``UNMAPPED`` (paddle's name exists but means something else, or the
op's samples cannot be expressed in paddle). ``rows()`` is the resulting table.

The sample then runs through real paddle (the oracle) and paddlelike with the same call; a
sample real paddle refuses while torch took it is a defect of the mapping, skipped and counted,
and an op none of whose samples maps counts as unmapped.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from .core import UP_TO_SIGN, SkipSample

# torch parameter name -> paddle parameter name, for every row
RENAMES = {
    "input": "x", "self": "x", "other": "y", "dim": "axis", "dims": "axis", "tensors": "x",
    "tensor": "x", "mat1": "x", "mat2": "y", "vec": "y", "exponent": "y", "dim0": "axis0",
    "dim1": "axis1", "dim2": "axis2", "start_dim": "start_axis", "end_dim": "stop_axis",
    "A": "x", "B": "y", "index": "index", "keepdim": "keepdim", "dtype": "dtype",
    "split_size_or_sections": "num_or_sections", "size": "shape", "target": "label",
    "mat": "x", "batch1": "x", "batch2": "y", "tensor1": "x", "tensor2": "y", "ord": "p",
}


@dataclass(frozen=True)
class Row:
    target: str                      # path under paddle, or Tensor.NAME
    rename: dict = field(default_factory=dict)  # torch name -> paddle name, before RENAMES
    adapt: object = None             # (named torch args) -> named paddle args (numpy-free)
    fixed: dict = field(default_factory=dict)
    attr: bool = False               # Tensor.NAME is a property (T, mT), not a method


def _perm_transpose(a):
    x, d0, d1 = a.pop("x"), a.pop("axis0"), a.pop("axis1")
    n = x.dim()
    perm = list(range(n))
    if n:
        perm[d0 % n], perm[d1 % n] = perm[d1 % n], perm[d0 % n]
    return {"x": x, "perm": perm}


def _linear(a):
    # torch's weight is [out, in]; paddle's is [in, out]
    w = a["weight"]
    a["weight"] = w.detach().t().contiguous().requires_grad_(w.requires_grad)
    return a


def _einsum(a):
    return ("__args__", [a["equation"], *a["x"]])


def _varargs(key):
    def adapt(a):
        v = a.pop(key)
        if len(v) == 1 and isinstance(v[0], (list, tuple)):
            v = v[0]
        if a.get("indexing") in ("ij", None):
            a.pop("indexing", None)
        if a:
            raise SkipSample(f"keywords {sorted(a)}")
        return ("__args__", list(v))
    return adapt


def _split(a):
    s, x = a.get("num_or_sections"), a["x"]
    if isinstance(s, int):
        n = x.shape[a.get("axis", 0)]
        if s <= 0:
            raise SkipSample("split size 0")
        a["num_or_sections"] = [s] * (n // s) + ([n % s] if n % s else [])
    return a


def _tensor_split(a):
    # torch's indices may be a tensor (0-d: a number of sections); paddle takes ints only
    for k in ("indices_or_sections", "tensor_indices_or_sections", "sections", "indices"):
        if k in a:
            v = a.pop(k)
            a["num_or_indices"] = v.tolist() if hasattr(v, "tolist") else v
    return a


def _scatter(reduce=None):
    def adapt(a):
        if "value" in a:
            a["values"] = a.pop("value")
        elif "src" in a:
            a["values"] = a.pop("src")
        if reduce:
            a["reduce"] = reduce
        elif a.get("reduce") == "multiply":
            a["reduce"] = "mul"
        a["broadcast"] = False
        return a
    return adapt


def _clamp_side(side):
    def adapt(a):
        if "y" in a:
            a[side] = a.pop("y")
        return a
    return adapt


def _reduce_only(a):
    # torch.max(x, other) is paddle.maximum's (a row of its own); paddle.max reduces only
    if "y" in a:
        raise SkipSample("binary form")
    return a


def _dtype_cast(dt):
    return lambda a: {"x": a["x"], "dtype": dt}


def _batched(ndim):
    # (norm part) paddle's dropout2d/3d take batched input only: add the batch axis
    def adapt(a):
        x = a["x"]
        if x.dim() == ndim - 1:
            a["x"] = x.detach().unsqueeze(0).requires_grad_(x.requires_grad)
        return a
    return adapt
def _flat_affine(a):
    # paddle's layer_norm takes the weight and bias flattened to 1-D
    for k in ("weight", "bias"):
        w = a.get(k)
        if w is not None:
            a[k] = w.detach().reshape(-1).requires_grad_(w.requires_grad)
    return a


def _sdpa_layout(a):
    # torch's (B, H, L, D) -> paddle's (B, L, H, D); torch's 3-D (B, L, D) has one head
    # (paddle reads a 3-D input as unbatched [L, H, D])
    if a.get("dropout_p", 0.0):
        raise SkipSample("random dropout")
    for k in ("query", "key", "value"):
        t = a[k].detach()
        t = t.transpose(1, 2) if t.dim() == 4 else t.unsqueeze(2)
        a[k] = t.contiguous().requires_grad_(a[k].requires_grad)
    return a


ROWS = {
    "max": Row("max", adapt=_reduce_only), "min": Row("min", adapt=_reduce_only),
    "T": Row("Tensor.T", attr=True), "mT": Row("Tensor.mT", attr=True),
    "cat": Row("concat"), "concat": Row("concat"), "concatenate": Row("concat"),
    "clamp": Row("clip"), "clip": Row("clip"),
    "clamp_min": Row("clip", adapt=_clamp_side("min")),
    "clamp_max": Row("clip", adapt=_clamp_side("max")),
    "transpose": Row("transpose", adapt=_perm_transpose),
    "swapaxes": Row("transpose", adapt=_perm_transpose),
    "swapdims": Row("transpose", adapt=_perm_transpose),
    "gather": Row("take_along_axis", {"input": "arr", "index": "indices"}),
    "take_along_dim": Row("take_along_axis", {"input": "arr"}),
    "scatter": Row("put_along_axis", {"input": "arr", "index": "indices"}, adapt=_scatter()),
    "scatter_add": Row("put_along_axis", {"input": "arr", "index": "indices"},
                       adapt=_scatter("add")),
    "scatter_reduce": Row("put_along_axis", {"input": "arr", "index": "indices"},
                          adapt=_scatter()),
    "diag": Row("diag", {"diagonal": "offset"}),
    "diag_embed": Row("diag_embed", {"input": "input", "dim1": "dim1", "dim2": "dim2"}),
    "movedim": Row("moveaxis"), "moveaxis": Row("moveaxis"),
    "einsum": Row("einsum", adapt=_einsum),
    "meshgrid": Row("meshgrid", adapt=_varargs("x")),
    "broadcast_tensors": Row("broadcast_tensors", {"tensors": "input"}),
    "block_diag": Row("block_diag", {"tensors": "inputs"}),
    "atleast_1d": Row("atleast_1d", adapt=_varargs("x")),
    "atleast_2d": Row("atleast_2d", adapt=_varargs("x")),
    "atleast_3d": Row("atleast_3d", adapt=_varargs("x")),
    "tensor_split": Row("tensor_split", adapt=_tensor_split),
    "split": Row("split", adapt=_split), "unsafe_split": Row("split", adapt=_split),
    "split_with_sizes": Row("split", {"split_sizes": "num_or_sections"}),
    "unsafe_chunk": Row("chunk"),
    "softmax": Row("nn.functional.softmax"), "log_softmax": Row("nn.functional.log_softmax"),
    "special.softmax": Row("nn.functional.softmax"),
    "special.log_softmax": Row("nn.functional.log_softmax"),
    "special.expit": Row("nn.functional.sigmoid"), "sigmoid": Row("nn.functional.sigmoid"),
    "special.gammaln": Row("lgamma"), "special.psi": Row("digamma"),
    "special.multigammaln": Row("multigammaln"), "mvlgamma": Row("multigammaln"),
    "polygamma": Row("polygamma"), "special.polygamma": Row("polygamma"),
    "trapz": Row("trapezoid"), "trapezoid": Row("trapezoid"),
    "cumulative_trapezoid": Row("cumulative_trapezoid"),
    "histc": Row("histogram", {"input": "input"}),
    "svd": Row("linalg.svd"), "qr": Row("linalg.qr"), "lu": Row("linalg.lu"),
    "pinverse": Row("linalg.pinv"), "matrix_exp": Row("linalg.matrix_exp"),
    "cholesky_solve": Row("linalg.cholesky_solve"), "lu_unpack": Row("linalg.lu_unpack"),
    "triangular_solve": Row("linalg.triangular_solve", {"input": "y", "A": "x"}),
    "linalg.solve_triangular": Row("linalg.triangular_solve"),
    "corrcoef": Row("linalg.corrcoef"), "cov": Row("linalg.cov"),
    "linalg.matrix_norm": Row("linalg.matrix_norm"),
    "linalg.vector_norm": Row("linalg.vector_norm"),
    "nn.functional.huber_loss": Row("nn.functional.smooth_l1_loss"),
    "nn.functional.multilabel_soft_margin_loss": Row(
        "nn.functional.multi_label_soft_margin_loss"),
    "nn.functional.conv_transpose1d": Row("nn.functional.conv1d_transpose"),
    "nn.functional.conv_transpose2d": Row("nn.functional.conv2d_transpose"),
    "nn.functional.conv_transpose3d": Row("nn.functional.conv3d_transpose"),
    "nn.functional.linear": Row("nn.functional.linear", adapt=_linear),
    "nn.functional.embedding": Row("nn.functional.embedding", {"idx": "x"}),
    "nn.functional.one_hot": Row("nn.functional.one_hot"),
    "nn.functional.cross_entropy": Row("nn.functional.cross_entropy", {"input": "input"}),
    "nn.functional.nll_loss": Row("nn.functional.nll_loss", {"input": "input"}),
    "where": Row("where", {"condition": "condition"}),
    "masked_select": Row("masked_select", {"mask": "mask"}),
    "bool": Row("cast", adapt=_dtype_cast("bool")),
    "double": Row("cast", adapt=_dtype_cast("float64")),
    "float": Row("cast", adapt=_dtype_cast("float32")),
    "int": Row("cast", adapt=_dtype_cast("int32")),
    "long": Row("cast", adapt=_dtype_cast("int64")),
    "half": Row("cast", adapt=_dtype_cast("float16")),
    "short": Row("cast", adapt=_dtype_cast("int16")),
    "byte": Row("cast", adapt=_dtype_cast("uint8")),
    "char": Row("cast", adapt=_dtype_cast("int8")),
    "bfloat16": Row("cast", adapt=_dtype_cast("bfloat16")),
    "true_divide": Row("divide"), "div": Row("divide"), "mul": Row("multiply"),
    "sub": Row("subtract"), "floor_divide": Row("floor_divide"),
    "remainder": Row("remainder"), "ge": Row("greater_equal"), "gt": Row("greater_than"),
    "le": Row("less_equal"), "lt": Row("less_than"), "eq": Row("equal"),
    "ne": Row("not_equal"), "greater_equal": Row("greater_equal"),
    "greater": Row("greater_than"), "less": Row("less_than"),
    "less_equal": Row("less_equal"), "not_equal": Row("not_equal"),
    "maximum": Row("maximum"), "minimum": Row("minimum"), "absolute": Row("abs"),
    "negative": Row("neg"), "arccos": Row("acos"), "arcsin": Row("asin"),
    "arctan": Row("atan"), "arccosh": Row("acosh"), "arcsinh": Row("asinh"),
    "arctanh": Row("atanh"), "arctan2": Row("atan2"), "fix": Row("trunc"),
    "special.erfinv": Row("erfinv"), "special.i0": Row("i0"), "special.i0e": Row("i0e"),
    "special.i1": Row("i1"), "special.i1e": Row("i1e"), "special.logit": Row("logit"),
    "special.expm1": Row("expm1"), "special.log1p": Row("log1p"), "special.sinc": Row("sinc"),
    "special.round": Row("round"), "special.logsumexp": Row("logsumexp"),
    "special.digamma": Row("digamma"), "special.erf": Row("erf"),
    # -- norm part: torch's unbatched (C, spatial...) forms take a batch axis in paddle
    "nn.functional.group_norm": Row("nn.functional.group_norm", {"eps": "epsilon"}),
    "nn.functional.dropout2d": Row("nn.functional.dropout2d", adapt=_batched(4)),
    "nn.functional.dropout3d": Row("nn.functional.dropout3d", adapt=_batched(5)),
    # ---- layer norm / attention (attn)
    "nn.functional.layer_norm": Row("nn.functional.layer_norm", {"eps": "epsilon"},
                                    adapt=_flat_affine),
    "nn.functional.scaled_dot_product_attention": Row(
        "nn.functional.scaled_dot_product_attention", adapt=_sdpa_layout),
}


# ---- part pool: pooling, padding, resampling (paddle batches only: unbatched samples get
# a batch axis; torch's count_include_pad is paddle's ``not exclusive``; torch's pad list is
# read from the last axis, which paddle does with pad_from_left_axis=False)
def _pool_adapt(nd, avg=False):
    def adapt(a):
        x = a["x"]
        if x.dim() == nd - 1:
            a["x"] = x.detach().unsqueeze(0).requires_grad_(x.requires_grad)
        dil = a.pop("dilation", 1)
        if any(e != 1 for e in (dil if isinstance(dil, (list, tuple)) else [dil])):
            raise SkipSample("dilation (paddle's pools have none)")
        if avg:
            a["exclusive"] = not a.pop("count_include_pad", True)
        if "return_indices" in a:
            a["return_mask"] = a.pop("return_indices")
        return a
    return adapt


def _pad_adapt(a):
    if a.get("value") is None:
        a.pop("value", None)
    a["pad_from_left_axis"] = False
    return a


_SIZE = {"size": "size"}


def _interp_adapt(a):
    if a.get("mode") == "nearest-exact":
        raise SkipSample("paddle has no nearest-exact")
    if a.get("align_corners") is None:
        a.pop("align_corners", None)
    return a


# ---- activations and losses family: paddle's names, and the layouts that differ
def _bilinear(a):
    # paddle's bias is [1, out] (torch's [out])
    b = a.get("bias")
    if b is not None:
        a["bias"] = b.detach().reshape(1, -1).requires_grad_(b.requires_grad)
    return a


def _default_distance(a):
    # torch's samples pass nn.PairwiseDistance() itself: paddle's default is that distance
    f = a.get("distance_function")
    if f is not None:
        if type(f).__name__ != "PairwiseDistance" or (f.norm, f.eps, f.keepdim) != (
                2.0, 1e-6, False):
            raise SkipSample("a torch distance function")
        a["distance_function"] = None
    a["input"] = a.pop("anchor")
    return a


ROWS.update({
    **{f"nn.functional.max_pool{d}d": Row(f"nn.functional.max_pool{d}d",
                                          adapt=_pool_adapt(d + 2)) for d in (1, 2, 3)},
    **{f"nn.functional.avg_pool{d}d": Row(f"nn.functional.avg_pool{d}d",
                                          adapt=_pool_adapt(d + 2, True)) for d in (1, 2, 3)},
    **{f"nn.functional.adaptive_{k}_pool{d}d": Row(f"nn.functional.adaptive_{k}_pool{d}d",
                                                   adapt=_pool_adapt(d + 2))
       for d in (1, 2, 3) for k in ("avg", "max")},
    "nn.functional.pad": Row("nn.functional.pad", adapt=_pad_adapt),
    "constant_pad_nd": Row("nn.functional.pad", adapt=_pad_adapt),
    "nn.functional.interpolate": Row("nn.functional.interpolate", _SIZE, adapt=_interp_adapt),
    "nn.functional.upsample_nearest": Row("nn.functional.interpolate", _SIZE, adapt=_interp_adapt,
                                          fixed={"mode": "nearest"}),
    "nn.functional.upsample_bilinear": Row("nn.functional.interpolate", _SIZE, adapt=_interp_adapt,
                                           fixed={"mode": "bilinear", "align_corners": True}),
    "nn.functional.threshold": Row("nn.functional.thresholded_relu"),
    "nn.functional.multilabel_margin_loss": Row("nn.functional.multi_label_margin_loss"),
    "nn.functional.bilinear": Row("nn.functional.bilinear", {"input1": "x1", "input2": "x2"},
                                  adapt=_bilinear),
    "nn.functional.triplet_margin_with_distance_loss": Row(
        "nn.functional.triplet_margin_with_distance_loss", adapt=_default_distance),
})


# ---- math/stat family (janusgrad.ops.stats, janusgrad.ops.linalg_lu)
def _lu_solve(a):
    # torch's (LU, pivots, B, left, adjoint) as paddle's (b, lu, pivots, trans)
    if not a.pop("left", True):
        raise SkipSample("left=False")
    trans = "T" if a.pop("adjoint", False) else "N"
    return {"b": a.pop("y"), "lu": a.pop("LU"), "pivots": a.pop("pivots"), "trans": trans}


ROWS.update({
    "linalg.vander": Row("vander", {"N": "n"}, fixed={"increasing": True}),
    "cholesky_inverse": Row("linalg.cholesky_inverse"),
    "linalg.lu_factor": Row("linalg.lu"),
    "linalg.lu_solve": Row("linalg.lu_solve", adapt=_lu_solve),
})


# same-named paddle APIs that are not the torch op's counterpart (different semantics), or
# whose samples cannot be put in paddle's terms
UNMAPPED = {
    "select", "index_add", "index_put", "index_fill", "index_reduce", "put", "take",
    "masked_scatter", "resize_", "resize_as_", "zero_", "to", "item", "fill",
    "nn.functional.pad", "nn.functional.interpolate", "nn.functional.grid_sample",
    "nn.functional.unfold", "nn.functional.fold", "sparse.mm", "sparse.sampled_addmm",
    "to_sparse", "stft", "istft", "normal", "bernoulli", "multinomial", "empty",
    "empty_like", "new_empty", "unfold", "view_as_complex", "view_as_real", "polar",
    "complex", "as_strided", "as_strided_scatter", "nn.functional.embedding_bag",
    "nn.functional.ctc_loss", "nn.functional.scaled_dot_product_attention",
    "nn.functional.multi_head_attention_forward", "cdouble", "cfloat",
    "chalf", "conj", "imag", "real", "angle",
}


# scatters family: paddle 3.3's own scatter_reduce takes torch's arguments (all reductions,
# include_self)
ROWS.update({"scatter_reduce": Row("scatter_reduce")})

@cache
def _paddle():
    import paddle
    return paddle


def target_exists(path):
    obj = _paddle()
    for part in path.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


@cache
def rows():
    """{torch op name: Row} for every selected op that has a counterpart in real paddle."""
    from .core import select, torch_public
    out = {}
    for name in select():
        row = ROWS.get(name)
        if row is None:
            if name in UNMAPPED or name.startswith(("_", "masked.", "signal.", "torch.")):
                continue
            kind, _ = torch_public(name)
            path = name[len("special."):] if name.startswith("special.") else name
            row = Row(path if kind == "function" else f"Tensor.{path}")
        if target_exists(row.target):
            out[name] = row
    return out


# ------------------------------------------------------------------ running a sample
@cache
def _overrides():
    import torch
    return torch.overrides.get_testing_overrides()


_SIGS = {}


def _schema_signatures(aten):
    """inspect.Signatures of aten's overloads of ``aten`` (``self`` named ``input``)."""
    import inspect

    import torch
    out = []
    try:
        schemas = torch._C._jit_get_schemas_for_operator(f"aten::{aten}")
    except RuntimeError:
        return out
    for sc in schemas:
        params = []
        try:
            for a in sc.arguments:
                if a.name == "out":
                    continue
                kind = (inspect.Parameter.KEYWORD_ONLY if a.kwarg_only
                        else inspect.Parameter.POSITIONAL_OR_KEYWORD)
                default = a.default_value if a.has_default_value() else inspect.Parameter.empty
                params.append(inspect.Parameter("input" if a.name == "self" else a.name,
                                                kind, default=default))
            out.append(inspect.Signature(params))
        except (ValueError, TypeError):
            continue
    return out


def torch_signatures(op):
    """Signatures torch's call of ``op`` may bind its sample to, the likeliest first: the
    OpInfo wrapper's, the one torch.overrides gives, then aten's overloads."""
    if id(op) in _SIGS:
        return _SIGS[id(op)]
    import inspect
    import types

    import torch

    from .core import torch_public
    kind, obj = torch_public(op.name)
    sigs = []
    fn = op.op
    if isinstance(fn, types.FunctionType) and fn is not obj:
        s = inspect.signature(fn)
        if not any(p.kind == p.VAR_POSITIONAL for p in s.parameters.values()):
            sigs.append(s)
    last = op.name.rsplit(".", 1)[-1]
    f = _overrides().get(obj if kind == "function" else getattr(torch.Tensor, op.name))
    if f is None:
        f = _overrides().get(getattr(torch.Tensor, last, None))
    for g in (f, obj):
        try:
            sigs.append(inspect.signature(g))
        except (TypeError, ValueError):
            pass
    for aten in dict.fromkeys((op.aten_name, last, f"{op.name.split('.')[0]}_{last}")):
        if aten:
            sigs += _schema_signatures(aten)
    _SIGS[id(op)] = sigs
    return sigs


def _bind(op, s):
    kwargs = s.kwargs
    if kwargs.get("requires_grad") is False and "requires_grad" not in {
            n for sig in torch_signatures(op) for n in sig.parameters}:
        # a factory's requires_grad=False is its default, which torch.overrides' signatures
        # (eye, randn ...) leave out
        kwargs = {k: v for k, v in kwargs.items() if k != "requires_grad"}
    for sig in torch_signatures(op):
        if "names" in sig.parameters:
            continue
        try:
            return sig, sig.bind(s.input, *s.args, **kwargs)
        except TypeError:
            continue
    raise SkipSample("no torch signature binds the sample")


@cache
def _paddle_params(target):
    import inspect
    obj = _paddle()
    for part in target.split("."):
        obj = getattr(obj, part)
    try:
        ps = inspect.signature(obj).parameters
    except (TypeError, ValueError):
        return None
    if any(p.kind == p.VAR_KEYWORD for p in ps.values()):
        return None
    return tuple(ps)


def paddle_call(op, s, row):
    """(args, kwargs) in torch values of paddle's call for sample ``s``.

    Without an adapter, each bound torch argument takes the paddle parameter of its own name,
    else of its renamed name (``row.rename``, then ``RENAMES``), else the paddle parameter at
    its position; one left over is dropped when it holds torch's default (or None, or the CPU
    device) and makes the sample unmappable otherwise."""
    sig, ba = _bind(op, s)
    bound = []  # (torch name, value, position or None, default)
    positional = [n for n, p in sig.parameters.items()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    for k, v in ba.arguments.items():
        p = sig.parameters[k]
        items = v.items() if p.kind == p.VAR_KEYWORD else [(k, v)]
        for k2, v2 in items:
            p2 = sig.parameters.get(k2)
            d = p2.default if p2 is not None and p2.default is not p2.empty else _NOTHING
            bound.append((k2, v2, positional.index(k2) if k2 in positional else None, d))
    if row.adapt is not None:
        named = {row.rename.get(k, RENAMES.get(k, k)): v for k, v, _, _ in bound}
        named.update(row.fixed)
        try:
            named = row.adapt(named)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
            raise SkipSample(f"adapter: {type(e).__name__}: {e}") from None
        if isinstance(named, tuple) and named[0] == "__args__":
            return list(named[1]), {}
        bound = [(k, v, None, _NOTHING) for k, v in named.items()]
    if row.target.startswith("Tensor."):
        return [v for _, v, _, _ in bound], dict(row.fixed)
    params = _paddle_params(row.target)
    if params is None:
        return [], {row.rename.get(k, RENAMES.get(k, k)): v for k, v, _, _ in bound}
    free = [n for n in params if n not in ("name", "out")]
    out, left = {}, []
    for k, v, pos, d in bound:             # 1: paddle's parameter of torch's own name
        if k in free and k not in out and k not in row.rename:
            out[k] = v
        else:
            left.append((k, v, pos, d))
    rest = []
    for k, v, pos, d in left:              # 2: of the renamed name
        new = row.rename.get(k, RENAMES.get(k, k))
        if new in free and new not in out:
            out[new] = v
        else:
            rest.append((k, v, pos, d))
    for k, v, pos, d in rest:              # 3: at the same position
        if pos is not None and pos < len(free) and free[pos] not in out:
            out[free[pos]] = v
        elif v is None or _is_default(v, d) or (k == "device" and str(v) == "cpu"):
            continue
        else:
            raise SkipSample(f"paddle's {row.target} has no parameter for torch's {k}")
    out.update(row.fixed)
    return [], out


_NOTHING = object()


def _is_default(v, d):
    if d is _NOTHING:
        return False
    try:
        return bool(v == d) and type(v) is type(d)
    except Exception:  # noqa: BLE001 - tensors and the like are no default
        return False


class PConverter:
    """torch sample values -> one paddle-dialect side's (tensors once each)."""

    def __init__(self, side):
        import torch
        self.torch, self.side, self.memo = torch, side, {}

    def __call__(self, x):
        torch = self.torch
        if isinstance(x, torch.Tensor):
            if id(x) not in self.memo:
                a = x.detach().numpy().copy()
                self.memo[id(x)] = self.side.tensor(a, x.requires_grad)
            return self.memo[id(x)]
        if isinstance(x, torch.Size):
            return list(x)
        if isinstance(x, (list, tuple)):
            return type(x)(self(v) for v in x) if type(x) in (list, tuple) else list(
                self(v) for v in x)
        if isinstance(x, dict):
            return {k: self(v) for k, v in x.items()}
        if isinstance(x, torch.dtype):
            return str(x).rsplit(".", 1)[-1]
        if isinstance(x, (torch.memory_format, torch.layout, torch.Generator, torch.device)):
            raise SkipSample(f"torch-only value {x!r}")
        return x


def _resolve(side, row, args):
    target = row.target
    if target.startswith("Tensor."):
        name = target[len("Tensor."):]
        try:
            if row.attr:
                v = getattr(args[0], name)
                return (lambda: v), ()
            return getattr(args[0], name), args[1:]
        except (AttributeError, NotImplementedError):
            from .core import Missing
            raise Missing(f"paddle.{target}") from None
    from .core import frontend_path
    return frontend_path(side.m, target, "paddle"), args


def check_paddle_sample(op, s, row, ref, sub):
    """None when paddlelike matches real paddle on sample ``s`` (SkipSample when paddle
    cannot take it), else (category, detail)."""
    import warnings

    from .core import _walk, check_grads, is_random, run_pair
    args, kwargs = paddle_call(op, s, row)
    tensors = [v for v in _walk((args, kwargs)) if hasattr(v, "requires_grad")]
    cr, cs = PConverter(ref), PConverter(sub)
    rargs, rkw = cr(args), cr(kwargs)
    sargs, skw = cs(args), cs(kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn, ra = _resolve(ref, row, rargs)
            exp, exc = fn(*ra, **rkw), None
        except Exception as e:  # noqa: BLE001 - paddle's exception is the expectation
            exp, exc = None, e
        if exc is not None:
            try:
                op.op(s.input, *s.args, **s.kwargs)
            except Exception:  # noqa: BLE001 - torch refuses it too: paddle's error stands
                pass
            else:
                raise SkipSample(f"paddle refuses: {type(exc).__name__}")

    def ref_call():
        if exc is not None:
            raise exc
        return exp

    def sub_call():
        fn, sa = _resolve(sub, row, sargs)
        return fn(*sa, **skw)

    rnd = is_random(op)
    exp, got, bad, ended = run_pair(ref_call, sub_call, ref, sub, "paddle", rnd)
    if bad and bad[0] == "value" and op.name in UP_TO_SIGN:  # (see core.UP_TO_SIGN)
        from .core import compare
        bad = compare(s.output_process_fn_grad(tuple(exp)), s.output_process_fn_grad(tuple(got)),
                      ref, sub)
    if bad or ended or rnd:
        return bad
    grads = [t for t in tensors if t.requires_grad and t.dtype.is_floating_point]
    ref_ins = [cr.memo[id(t)] for t in grads if id(t) in cr.memo]
    sub_ins = [cs.memo[id(t)] for t in grads if id(t) in cs.memo]
    return check_grads(exp, got, ref_ins, sub_ins, ref, sub)


@cache
def paddle_sides():
    from .core import PaddleSide
    return PaddleSide("paddle"), PaddleSide("paddlelike")


def run_paddle(name, cap=None):
    """Outcome of paddlelike against real paddle on the torch op ``name``'s samples."""
    from .core import CAP, run_name, select
    row = rows()[name]
    ref, sub = paddle_sides()
    return run_name(select()[name],
                    lambda op, s, first: check_paddle_sample(op, s, row, ref, sub),
                    cap or CAP)
