"""How paddle 3.3.1 words errors, and its autograd policy flags.

The texts, types and ``(at /paddle/...)`` locations are the ones paddle
3.3.1 prints; paddle ends its enforce messages with a newline.  Tensor names
in messages (``generated_tensor_N``) come from a counter of paddle's own and
cannot match paddle's numbering exactly; ours counts errors that need one.
"""
from __future__ import annotations

import itertools

from janusgrad.binding.dialect import Dialect
from janusgrad.binding.surface import NodeNames

from .meta import of_np

# paddle counts the two kinds of names apart: eager_tmp_N for op results (named when a
# message first needs it), generated_tensor_N for tensors made from data
_names = {"eager_tmp_": itertools.count(), "generated_tensor_": itertools.count()}

_HINT_WRAPPERS = (
    "[Hint: Expected node->IsTensorWrappersCleared() != true, but received "
    "node->IsTensorWrappersCleared():1 == true:1.] (at /paddle/paddle/fluid/eager/backward.cc:204)"
)
_BROADCAST_HINT = (
    "x_dims_array[i] == y_dims_array[i] || (x_dims_array[i] <= 1 && x_dims_array[i] != 0) || "
    "(y_dims_array[i] <= 1 && y_dims_array[i] != 0)"
)

# engine op name -> paddle grad node name, where the CamelCase rule does not fit
_NODE_NAMES = {
    "sub": "SubtractGradNode", "mul": "MultiplyGradNode", "div": "DivideGradNode",
    "neg": "ScaleGradNode", "clamp": "ClipGradNode", "broadcast_to": "ExpandGradNode",
    "sum_to": "SumGradNode", "getitem": "SliceGradNode", "setitem": "SetValueWithTensorGradNode",
    "concatenate": "ConcatGradNode", "clone": "AssignGradNode", "norm": "PNormGradNode",
    "log_softmax": "LogSoftmaxGradNode", "logsumexp": "LogsumexpGradNode",
    "floor_divide": "FloorDivideGradNode", "remainder": "RemainderGradNode",
    "index_select": "IndexSelectGradNode", "masked_select": "MaskedSelectGradNode",
    "take_along_axis": "TakeAlongAxisGradNode", "norm2": "PNormGradNode",
    "normp": "PNormGradNode", "amax": "MaxGradNode", "amin": "MinGradNode",
    "std": "SqrtGradNode", "var": "DivideGradNode", "narrow": "SliceGradNode",
    "cast_int": "CastGradNode", "pow": "ElementwisePowGradNode",
}
# binary ops where one input needs no gradient (paddle: a Python number operand)
_ONE_SIDED = {"add": "ScaleGradNode", "sub": "ScaleGradNode", "mul": "ScaleGradNode",
              "div": "DivScaleGradNode", "pow": "PowGradNode"}


# paddle's fused kernels the engine composes of primitives (UnsqueezeGradNode, not the
# ReshapeGradNode of the last primitive), named where the frontend calls them
_AT_CALL = NodeNames()
tag = _AT_CALL.tag


def node_name(node) -> str:
    """paddle's name for the grad node of an engine node (``MultiplyGradNode`` ...).

    paddle records a binary op with a Python number as a scale op, and one with a tensor
    operand (even with stop_gradient) as the op itself; the engine's node keeps the dtype
    of an operand that was a tensor.
    """
    name = _AT_CALL.get(node)
    if name is not None:
        return name
    op = node.op.name
    # a Python number operand (its dtype slot None), not a tensor with stop_gradient
    one_sided = any(p is None and d is None for p, d in zip(node.parents, node.dtypes))
    if one_sided:
        special = _ONE_SIDED.get(op)
        if special is not None:
            return special
    if op == "matmul" and all(s is not None and len(s) == 1 for s in node.shapes):
        return "DotGradNode"
    name = _NODE_NAMES.get(op)
    if name is None:
        name = "".join(part.capitalize() for part in op.split("_")) + "GradNode"
    return name


def _shape(s) -> str:
    return "[" + ", ".join(str(int(d)) for d in s) + "]"


def new_name(prefix: str) -> str:
    """The next of paddle's names with this prefix (``eager_tmp_`` or ``generated_tensor_``)."""
    return f"{prefix}{next(_names[prefix])}"


def tensor_name(tensor=None) -> str:
    """A tensor's name as paddle's messages show it (named now if it had none); a message
    about no tensor of ours names a fresh one."""
    if tensor is not None and hasattr(type(tensor), "name"):
        return tensor.name
    prefix = "eager_tmp_" if tensor is not None and tensor.node is not None else \
        "generated_tensor_"
    return new_name(prefix)


def given_name(tensor) -> str:
    """The name a tensor was given, or "" (paddle's Leaf Var message names no other)."""
    return getattr(tensor, "_name", None) or ""


_CTYPE = {"int64": "int64_t", "int32": "int", "int16": "int16_t", "int8": "int8_t",
          "uint8": "uint8_t", "bool": "bool"}


class EnforceNotMet(Exception):
    """paddle's error for a check its C++ kernels make at run time (paddle.base.core's)."""


class PaddleDialect(Dialect):
    name = "paddle"
    implicit_seed_any_shape = True
    silent_backward_without_grad = True
    strict_promotion = True
    grad_requires_grad = True
    refuse_rerun_without_saved = True
    retain_grad_last = False
    retain_follows_inplace = False
    retained_grad_accumulates = False
    leaf_hooks_in_grad = False
    # paddle copies an operand to the kernel's place (a GPU one wins) instead of failing;
    # the engine does that for 0-d host operands, and raises device_mismatch otherwise
    host_scalars_join_devices = True
    refuse_int_grad_sum = True
    arg_extremes_skip_nan = True
    # paddle's multiply/divide double-grad nodes take both operands (zeros where the
    # gradient does not depend on them); its scale (a number operand) links nothing
    create_graph_links = {"mul": (0, 1), "div": (0, 1)}
    create_graph_grads_require_grad = True

    def op_name(self, op: str) -> str:
        return op

    def int_grad_sum(self, dtype) -> Exception:
        # paddle's gradient accumulator has no integer kernels: where two gradients of an
        # integer tensor with stop_gradient=False meet, its backward fails so
        return NotImplementedError(
            f"(Unimplemented) Gradient accumulation of data type ({_CTYPE.get(str(dtype), dtype)})"
            " on place (Place(cpu)) is not supported in imperative mode (at "
            "/paddle/paddle/fluid/imperative/gradient_accumulator.cc:242)\n")

    def device_mismatch(self, op: str, devices) -> Exception:
        # paddle's own check words it so ("The tensors must be in the same place"); its
        # eager kernels mostly copy operands over instead of raising (see device/__init__)
        places = ", ".join(f"Place({d})" for d in devices)
        return ValueError(f"(InvalidArgument) The tensors must be in the same place, but "
                          f"received {places} in {op}.")

    def released_graph(self, node) -> Exception:
        return SystemError(
            f"(Fatal) The TensorWrappers of {node_name(node)} do not exist. This may be because:\n"
            "You calculate backward twice for the same subgraph without setting "
            "retain_graph=True. Please set retain_graph=True in the first backward/grad call.\n"
            f"\n  {_HINT_WRAPPERS}\n")

    def seed_shape(self, index: int, grad, out) -> Exception:
        return AssertionError(
            f"Tensor shape not match, Tensor of grad_tensor [ {tensor_name(grad)} ] with shape "
            f"paddle.Size({_shape(grad.array.shape)}) mismatch Tensor [ {tensor_name(out)} ] "
            f"with shape paddle.Size({_shape(out.array.shape)})")

    def int_requires_grad(self, dtype) -> Exception:
        # paddle accepts stop_gradient=False on integer tensors; the frontend never asks.
        return RuntimeError("only floating point tensors can require gradients")

    # ---------------------------------------------------------------- autograd (issue 3)
    def saved_modified(self, tensor, node, is_output: bool, version: int,
                       expected: int) -> Exception:
        return RuntimeError(
            "(PermissionDenied) Tensor '' used in gradient computation has been modified by an "
            f"inplace operation. Its version is {version} but the expected version is "
            f"{expected}. Please fix your code to void calling an inplace operator after using "
            "the Tensor which will used in gradient computation.\n  [Hint: Expected "
            "tensor_version == wrapper_version_snapshot, but received "
            f"tensor_version:{version} != wrapper_version_snapshot:{expected}.] (at "
            "/paddle/paddle/fluid/eager/tensor_wrapper.h:268)\n")

    def unused_input(self, index: int) -> Exception:
        return ValueError(
            f"(InvalidArgument) The {index}-th input does not appear in the backward graph. "
            "Please check the input tensor or set allow_unused=True to get None result.\n  "
            "[Hint: Expected allow_unused == true, but received allow_unused:0 != true:1.] "
            "(at /paddle/paddle/fluid/eager/general_grad.h:474)\n")

    def input_without_grad(self, index: int) -> None:
        return None  # paddle: an input with stop_gradient=True is an unused one

    def hook_changed(self, hook, what: str, old, new):
        # paddle takes whatever tensor a hook returns
        if what == "class":
            return TypeError(f"hook returned {type(new).__name__}, not a Tensor")
        return None

    def broadcast(self, a_shape, b_shape, dim: int) -> Exception:
        n = max(len(a_shape), len(b_shape))
        pa = (1,) * (n - len(a_shape)) + tuple(a_shape)
        pb = (1,) * (n - len(b_shape)) + tuple(b_shape)
        # paddle reports the first mismatch from the left of the aligned shapes
        i = next(k for k in range(n) if pa[k] != pb[k] and pa[k] != 1 and pb[k] != 1)
        return ValueError(
            "(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
            f"together with the shape of X = {_shape(a_shape)} and the shape of Y = "
            f"{_shape(b_shape)}. Received [{pa[i]}] in X is not equal to [{pb[i]}] in Y at "
            f"i:{i}.\n  [Hint: Expected {_BROADCAST_HINT} == true, but received "
            f"{_BROADCAST_HINT}:0 != true:1.] (at /paddle/paddle/phi/kernels/funcs/"
            "common_shape.h:72)\n")

    def out_of_memory(self, nbytes: int) -> Exception:
        return MemoryError(
            f"(ResourceExhausted) Fail to alloc memory of {nbytes} size, error code is 12."
            + _hint("error == 0", "error:12 != 0:0",
                    "phi/core/memory/allocation/cpu_allocator.cc:44"))

    def zero_division(self, op: str) -> Exception:
        line = {"floor_divide": 326, "trunc_divide": 1345}.get(op, 978)
        return EnforceNotMet(
            "() InvalidArgumentError: Integer division by zero encountered in (floor/trunc) "
            "divide. Please check the input value. (at /paddle/paddle/phi/kernels/funcs/"
            f"elementwise_functor.h:{line})\n")

    def promotion(self, a, b) -> Exception:
        return TypeError(
            "(InvalidType) Type promotion only support calculations between floating-point "
            "numbers and between complex and real numbers. But got different data type x: "
            f"{of_np(a).name}, y: {of_np(b).name}. (at /paddle/paddle/phi/common/"
            "type_promotion.h:220)\n")

    def inplace_on_leaf(self, view: bool, tensor=None) -> Exception:
        if view:
            cond = ("egr::EagerUtils::IsLeafTensor(tensor) && "
                    "!egr::EagerUtils::autograd_meta(&tensor)->StopGradient()")
            return ValueError(
                f"(InvalidArgument) Leaf Tensor ({given_name(tensor)}) that doesn't stop gradient "
                f"can't use inplace strategy.\n  [Hint: Expected {cond} == false, but received "
                f"{cond}:1 != false:0.] (at /paddle/paddle/fluid/pybind/eager_method.cc:1935)\n")
        cond = "!autograd_meta->StopGradient() && IsLeafTensor(target)"
        return ValueError(
            f"(InvalidArgument) Leaf Var ({given_name(tensor)}) that doesn't stop gradient can't "
            f"use inplace strategy.\n  [Hint: Expected {cond} == false, but received {cond}:1 != "
            "false:0.] (at /paddle/paddle/fluid/eager/utils.cc:277)\n")

    def invalid(self, op: str, message: str, **info) -> Exception:
        if op.startswith("linalg."):
            return _linalg_error(op, message, info)
        if op == "setitem" and "target_shape" in info:
            return ValueError(
                "(InvalidArgument) The shape of tensor assigned value must match the shape of "
                f"target shape: {_shape(info['given_shape'])}, but now shape is "
                f"{_shape(info['target_shape'])}. (at /paddle/paddle/phi/kernels/funcs/"
                "slice_utils.h:79)\n")
        if "negative" in info:  # a factory's shape
            return negative_shape_error(op, info["shape"], info["negative"])
        if op == "transpose" and "index" in info:
            return transpose_error(info)
        if info.get("float_required") and op in _FLOAT_KERNELS:
            return kernel_not_registered(_FLOAT_KERNELS[op], info["dtype"])
        if op == "matmul" and "a_shape" in info:
            return matmul_error(info["a_shape"], info["b_shape"])
        if op == "reshape" and "shape" in info:
            return reshape_error(info.get("in_shape"), info["shape"], info["size"])
        if op == "index" and "index" in info and "size" in info:
            return index_error(info.get("caller"), info["index"], info["size"], info["axis"])
        if op == "axis" and "ndim" in info:
            return axis_error(info.get("caller"), info["axis"], info["ndim"])
        if op == "concatenate" and "dim" in info:
            return concat_error(info["dim"], info["index"], info.get("a_shape"),
                                info.get("b_shape"))
        if op == "stack" and "b_shape" in info:
            a, b = info["a_shape"], info["b_shape"]
            j = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), 0)
            return concat_error(j, info["index"], a, b)
        if op == "broadcast_to" and "in_shape" in info:
            return expand_error(info["in_shape"], info["shape"])
        if op in ("mv", "bmm") and "a_shape" in info:
            return linalg_error(op, info["a_shape"], info["b_shape"])
        return ValueError(f"(InvalidArgument) {message}\n")

    # ---------------------------------------------------------------- to_static's words
    # (paddle's SOT mode logs its fallbacks and cache misses quietly; here they are
    # one-time warnings in its vocabulary)
    def compile_break(self, where: str, cause: str):
        return (f"[SOT] Break graph in {where}: {cause}. Fallback to dygraph for these "
                "inputs.", UserWarning)

    def compile_unsupported(self, where: str, cause: str) -> Exception:
        # paddle's AST mode would transcribe the construct; janusgrad's trace cannot
        return NotImplementedError(
            f"paddle.jit.to_static(full_graph=True) cannot convert {where}: {cause}. "
            "janusgrad converts by tracing and does not transcribe Python control flow on "
            "tensor values, or tensor-to-Python conversions, into static-graph ops (as "
            "paddle's AST mode turns `if tensor:` into paddle.static.nn.cond); use "
            "full_graph=False to fall back to dygraph for these inputs.")

    def compile_limit(self, where: str, limit: int):
        return (f"[SOT] [Cache] Exceed max cache size ({limit}) of {where}, skip it: new "
                "inputs run in dygraph.", UserWarning)


# the kernels paddle names when they refuse an integer dtype
_FLOAT_KERNELS = {"softmax": "softmax", "log_softmax": "log_softmax",
                  "cross_entropy": "cross_entropy_with_softmax"}


def kernel_not_registered(kernel: str, dtype) -> Exception:
    """paddle's error for a kernel that has no CPU version for ``dtype``."""
    dt = of_np(dtype).name
    cond = "kernel_iter == iter->second.end() && kernel_key.backend() == Backend::CPU"
    return RuntimeError(
        f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dt}) of kernel `{kernel}` "
        f"is not registered. Selected wrong DataType `{dt}`. Paddle support following "
        "DataTypes: float64, float32."
        + _hint(f"{cond} != true", f"{cond}:1 == true:1", "phi/core/kernel_factory.cc:317"))


def negative_shape_error(op: str, shape, i: int) -> Exception:
    """A negative size in a factory's shape: the filling factories check it, the random
    ones fail on the tensor it would make."""
    if op in ("zeros", "ones", "empty", "full"):
        return ValueError(
            "(InvalidArgument) Each value of attribute 'shape' is expected to be no less than 0. "
            f"But received: shape[{i}] = {shape[i]}; shape = {_shape(shape)}."
            + _hint("data[i] >= 0", f"data[i]:{shape[i]} < 0:0", "phi/infermeta/nullary.cc:165"))
    return RuntimeError(
        "(PreconditionNotMet) The meta data must be valid when call the mutable data function."
        + _hint("valid() == true", "valid():0 != true:1", "phi/core/dense_tensor.cc:113"))


def transpose_error(info: dict) -> Exception:
    """paddle.transpose's checks of ``perm``: each axis in range, and given once."""
    i, axis = info["index"], info["axis"]
    if info.get("repeated"):
        cond = "++count[formatted_axis[i]]"
        return ValueError(
            f"(InvalidArgument) Each element of axis should be unique. but axis[{i}] is {axis} "
            "appear not only once" + _hint(f"{cond} == 1", f"{cond}:2 != 1:1",
                                           "phi/infermeta/unary.cc:5943"))
    nd = info["ndim"]
    if axis >= 0:
        gap, hint = " ", _hint("axis[i] < x_rank", f"axis[i]:{axis} >= x_rank:{nd}",
                               "phi/infermeta/unary.cc:5921")
    else:
        gap, hint = "  ", _hint("axis[i] >= -x_rank", f"axis[i]:{axis} < -x_rank:{-nd}",
                                "phi/infermeta/unary.cc:5930")
    return ValueError(
        f"(InvalidArgument) The reduce dim index {i} should be in the range [ -dimension(X), "
        f"dimension(X) ){gap}which dimension = {nd}. But received dim index = {axis}." + hint)


def _hint(cond: str, got: str, where: str) -> str:
    return f"\n  [Hint: Expected {cond}, but received {got}.] (at /paddle/paddle/{where})\n"


def axis_error(caller, axis: int, ndim: int) -> Exception:
    """Out-of-range axes, worded per paddle kernel family."""
    if caller in ("softmax", "log_softmax"):
        return ValueError(
            "(InvalidArgument) Attr(axis) value should be in range [-R, R-1], R is the rank of "
            "Input(X)." + _hint("axis < rank_x", f"axis:{axis} >= rank_x:{ndim}",
                                "phi/infermeta/unary.cc:4868"))
    if caller in ("argmax", "argmin"):
        return ValueError(
            f"(InvalidArgument) 'axis'({axis}) must be less than Rank(X)({ndim}) of Input(X)."
            + _hint("int_axis < x_rank", f"int_axis:{axis} >= x_rank:{ndim}",
                    "phi/infermeta/unary.cc:307"))
    if caller in ("concatenate", "stack"):
        cond = "axis >= -rank && axis < rank"
        return ValueError(
            f"(InvalidArgument) The axis is expected to be in range of [-{ndim}, {ndim}), but "
            f"got {axis}" + _hint(f"{cond} == true", f"{cond}:0 != true:1",
                                  "phi/infermeta/multiary.cc:1366"))
    if caller == "cumsum":
        if axis >= 0:
            cond, got, line = "axis < x_dims.size()", f"axis:{axis} >= x_dims.size():{ndim}", 650
        else:
            cond, got, line = ("axis >= -x_dims.size()", f"axis:{axis} < -x_dims.size():{-ndim}",
                               641)
        return IndexError(
            f"(OutOfRange) axis is out of range (expected to be in range of [-{ndim}, {ndim}), "
            f"but got {axis})." + _hint(cond, got, f"phi/infermeta/unary.cc:{line}"))
    return reduce_axis_error(axis, ndim)


def reduce_axis_error(axis: int, ndim: int, lines=(4104, 4114)) -> Exception:
    """Reductions (sum, mean, amax, prod, ...); paddle.max/min report other lines."""
    if axis >= 0:
        cond, got, line = "axis[i] < x_rank", f"axis[i]:{axis} >= x_rank:{ndim}", lines[0]
        gap = " "
    else:
        cond, got, line = "axis[i] >= -x_rank", f"axis[i]:{axis} < -x_rank:{-ndim}", lines[1]
        gap = "  "  # paddle's text has two spaces here
    return ValueError(
        "(InvalidArgument) The reduce dim index 0 should be in the range [ -dimension(X), "
        f"dimension(X) ){gap}which dimension = {ndim}. But received dim index = {axis}."
        + _hint(cond, got, f"phi/infermeta/unary.cc:{line}"))


def norm_axis_error(axis: int, shape) -> Exception:
    cond = "(axis >= -x_rank && axis < x_rank) || x_rank == 0"
    return ValueError(
        "(InvalidArgument) Attr(axis) value should be in range [-R, R-1], R is the rank of "
        f"Input(X). But received axis: {axis}, R: {len(shape)}. Current Input(X)'s shape "
        f"is={_shape(shape)}." + _hint(f"{cond} == true", f"{cond}:0 != true:1",
                                       "phi/infermeta/unary.cc:3793"))


def concat_error(dim: int, index: int, a_shape, b_shape) -> Exception:
    cond = "inputs_dims[0][j] == inputs_dims[i][j]"
    got = (f"inputs_dims[0][j]:{a_shape[dim]} != inputs_dims[i][j]:{b_shape[dim]}"
           if a_shape is not None else "")
    return ValueError(
        f"(InvalidArgument) The {dim}-th dimension of input[0] and input[{index}] is expected "
        f"to be equal.But received input[0]'s shape = {_shape(a_shape)}, input[{index}]'s "
        f"shape = {_shape(b_shape)}." + _hint(cond, got, "phi/kernels/funcs/concat_funcs.h:72"))


def expand_error(in_shape, shape) -> Exception:
    lead = len(shape) - len(in_shape)
    i = next(k for k in range(len(in_shape))
             if in_shape[k] != 1 and in_shape[k] != shape[k + lead])
    a, b = in_shape[i], shape[i + lead]
    return ValueError(
        f"(InvalidArgument) The value ({a}) of the non-singleton dimension does not match the "
        f"corresponding value ({b}) in shape for expand_v2 op."
        + _hint("vec_in_dims[i] == expand_shape[i]",
                f"vec_in_dims[i]:{a} != expand_shape[i]:{b}",
                "phi/kernels/impl/expand_kernel_impl.h:64"))


def linalg_error(op: str, a_shape, b_shape) -> Exception:
    if op == "mv":
        return ValueError(
            "(InvalidArgument) X's second dimension is expected to be equal to Vec's first "
            f"dimension, but received X'shape = {_shape(a_shape)}, Vec's shape = "
            f"{_shape(b_shape)}" + _hint("dim_x[1] == dim_vec[0]",
                                         f"dim_x[1]:{a_shape[-1]} != dim_vec[0]:{b_shape[0]}",
                                         "phi/infermeta/binary.cc:3463"))
    ka, kb = a_shape[-1], b_shape[-2] if len(b_shape) > 1 else b_shape[0]
    # paddle's message really prints the format placeholders and then both numbers
    return ValueError(
        "(InvalidArgument) Input(X)'s width must be equal with Input(Y)'s height in BmmOp,but "
        f"receive X's width: [%s],Y's height: [%s].{ka}{kb}"
        + _hint("x == y", f"x:{ka} != y:{kb}", "phi/infermeta/binary.cc:374"))


def index_error(caller, index: int, size: int, axis: int) -> Exception:
    if caller == "index_select":
        return ValueError(
            f"(InvalidArgument) Variable value (index) of OP(index_select) expected >= -{size} "
            f"and < {size}, but got {index}. Please check input value.\n  [Hint: Expected "
            f"index_data[i] < input_dim[dim], but received index_data[i]:{index} >= "
            f"input_dim[dim]:{size}.] (at /paddle/paddle/phi/kernels/cpu/"
            "index_select_impl.h:96)\n")
    return IndexError(
        f"(OutOfRange) The starting index {index} of slice is out of bounds in tensor "
        f"{axis}-th axis, it should be in the range of [-{size}, {size}). (at "
        "/paddle/paddle/fluid/pybind/slice_utils.h:405)\n")


_LINALG_KERNELS = {"linalg.inv": "inverse", "linalg.det": "determinant",
                   "linalg.slogdet": "slogdeterminant", "linalg.cholesky": "cholesky",
                   "linalg.solve": "solve", "linalg.svd": "svdvals"}


def _linalg_error(op: str, message: str, info: dict) -> Exception:
    """paddle's wording of janusgrad.ops.linalg_factor's facts (the first sentence of paddle's own
    where known; the neutral message otherwise)."""
    if info.get("float_required"):
        dt = str(info["dtype"])
        return RuntimeError(
            f"(NotFound) The kernel with key (CPU, Undefined(AnyLayout), {dt}) of kernel "
            f"`{_LINALG_KERNELS.get(op, op[7:])}` is not registered. Selected wrong DataType "
            f"`{dt}`. Paddle support following DataTypes: float64, complex128, float32, "
            "complex64.\n")
    if info.get("singular"):
        if op == "linalg.cholesky":
            return ValueError("(InvalidArgument) Cholesky decomposition was not successful. "
                              "The 0-th input matrice might not be not be positive definite.")
        return ValueError("(InvalidArgument) Input is not invertible.")
    if "shape" in info and op in ("linalg.det", "linalg.slogdet"):
        return ValueError("(InvalidArgument) the input matrix should be square matrix.")
    return ValueError(f"(InvalidArgument) {message}")


def matmul_error(a_shape, b_shape, transpose_x=False, transpose_y=False) -> Exception:
    """paddle's matmul shape errors: the contracted dims (indexed in the shapes as given,
    before transpose_x/transpose_y), then the batch dims."""
    ia = len(a_shape) - (2 if transpose_x and len(a_shape) > 1 else 1)
    ib = len(b_shape) - (1 if transpose_y or len(b_shape) == 1 else 2)
    ka, kb = a_shape[ia], b_shape[ib]
    if ka != kb:
        return ValueError(
            f"(InvalidArgument) In operator matmul, the [{ia}] dimension of Input(X) must be "
            f"equal to the [{ib}] dimension of Input(Y). But receiving the [{ia}]dimension of "
            f"Input(X) is [{ka}], and the [{ib}] dimension of Input(Y) is [{kb}].\n  [Hint: "
            f"Expected K_lhs == K_rhs, but received K_lhs:{ka} != K_rhs:{kb}.] (at "
            "/paddle/paddle/phi/infermeta/binary.cc:3087)\n")
    xa = list(a_shape[:-2]) if len(a_shape) > 1 else []
    yb = list(b_shape[:-2]) if len(b_shape) > 1 else []
    n = max(len(xa), len(yb))
    xa = [1] * (n - len(xa)) + xa
    yb = [1] * (n - len(yb)) + yb
    i = next((k for k in range(n) if xa[k] != yb[k] and xa[k] > 1 and yb[k] > 1), 0)
    cond = "x_bd_dims[i] == y_bd_dims[i] || x_bd_dims[i] <= 1 || y_bd_dims[i] <= 1"
    return ValueError(
        f"(InvalidArgument) Input(X) and Input(Y) has error dim. X_broadcast's shape[{i}] must "
        f"be equal to Y_broadcast's shape[{i}], or X_broadcast's shape[{i}] <= 1, or "
        f"Y_broadcast's shape[{i}] <= 1, but received X_broadcast's shape[{i}] = "
        f"[{xa[i] if xa else 0}]received Y_broadcast's shape[{i}] = [{yb[i] if yb else 0}].\n"
        f"  [Hint: Expected {cond} == true, but received {cond}:0 != true:1.] (at "
        "/paddle/paddle/phi/kernels/impl/matmul_kernel_impl.h:63)\n")


def reshape_error(in_shape, shape, size) -> Exception:
    """paddle's ReshapeOp errors (fixed shape, or one with a -1 to infer)."""
    cap = 1
    for d in shape:
        if d != -1:
            cap *= d
    in_shape = _shape(in_shape) if in_shape is not None else "?"
    if -1 in shape:
        return ValueError(
            "(InvalidArgument) The 'shape' attribute in ReshapeOp is invalid. The input tensor "
            "X'size must be divisible by known capacity of 'shape'. But received X's shape = "
            f"{in_shape}, X's size = {size}, 'shape' is {_shape(shape)}, known capacity of "
            f"'shape' is {cap}.\n  [Hint: Expected output_shape[unk_dim_idx] * capacity == "
            f"in_size, but received output_shape[unk_dim_idx] * capacity:{cap} != "
            f"in_size:{size}.] (at /paddle/paddle/phi/infermeta/unary.cc:2517)\n")
    return ValueError(
        "(InvalidArgument) The 'shape' in ReshapeOp is invalid. The input tensor X'size must be "
        "equal to the capacity of 'shape'. But received X's shape = "
        f"{in_shape}, X's size = {size}, 'shape' is {_shape(shape)}, the capacity of "
        f"'shape' is {cap}.\n  [Hint: Expected capacity == in_size, but received "
        f"capacity:{cap} != in_size:{size}.] (at /paddle/paddle/phi/infermeta/unary.cc:2536)\n")


DIALECT = PaddleDialect()


def list_required(op: str, arg: str, got: str, line: int) -> Exception:
    """A list-of-tensors argument given nothing, or one tensor (eager_utils' check)."""
    return ValueError(f"(InvalidArgument) {op}(): argument '{arg}' (position 0) must be list of "
                      f"Tensors, but got {got} (at /paddle/paddle/fluid/pybind/eager_utils.cc:"
                      f"{line})\n")


def concat_dtype_error(first, index: int, other) -> Exception:
    """concat of tensors of different dtypes (checked before their shapes)."""
    return ValueError(
        f"(InvalidArgument) The data_type of input tensor in list isn't consistent, the first "
        f"tensor is {of_np(first).name}, but {index}th tensor is {of_np(other).name}. (at "
        "/paddle/paddle/phi/api/lib/kernel_dispatch.cc:133)\n")


def kernel_dtype_error(want, have) -> Exception:
    """A kernel chosen for dtype ``want`` reading a tensor of dtype ``have`` (paddle's
    stack, add_n, matmul and dot refuse mixed dtypes so, after their shape checks)."""
    w, h = of_np(want), of_np(have)
    return ValueError(
        f"(InvalidArgument) The type of data we are trying to retrieve ({w.name}) does not "
        f"match the type of data ({h.name}) currently contained in the container."
        + _hint("dtype() == phi::CppTypeToDataType<T>::Type()",
                f"dtype():{h.code} != phi::CppTypeToDataType<T>::Type():{w.code}",
                "phi/core/dense_tensor.cc:153"))


def add_n_shape_error(index: int, first, other) -> Exception:
    dims = ", ".join(map(str, first))
    return ValueError(
        f"(InvalidArgument) The input tensor X of AddNOp must have same shape. But received "
        f"X[0]'s shape = {_shape(first)}, X[{index}]'s shape = {_shape(other)}."
        + _hint("in_dim == x_dim", f"in_dim:{dims} != x_dim:{', '.join(map(str, other))}",
                "phi/infermeta/multiary.cc:423"))
