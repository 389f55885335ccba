"""TorchDialect: torch 2.13's policies and the exact wording of its errors."""
from __future__ import annotations

from math import prod

from janusgrad.array.backend import broadcast_shapes
from janusgrad.binding.args import broadcast_clashes
from janusgrad.binding.dialect import Dialect

from ._dtypes import from_np

RELEASED = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)
NOT_LEAF = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach()."
)
# torch's C++ scalar-type names, as its kernel errors print them
_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
            "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "bool": "bool"}


def size_str(shape) -> str:
    return f"torch.Size([{', '.join(str(n) for n in shape)}])"


def long_name(np_dtype) -> str:
    """'Float', 'Long' ...: how torch's errors name a dtype."""
    return from_np(np_dtype)._long_name


def c_name(np_dtype) -> str:
    return _C_NAMES[str(np_dtype)]


def _broadcast_mismatch(a, b):
    """(a_size, b_size, dim) of the first dimension (from the right) that does not broadcast."""
    clashes = broadcast_clashes(a, b)
    if not clashes:
        return None
    dim, a_size, b_size = clashes[-1]
    return a_size, b_size, dim


def broadcast_message(a_size, b_size, dim) -> str:
    return (f"The size of tensor a ({a_size}) must match the size of tensor b ({b_size}) "
            f"at non-singleton dimension {dim}")


def matmul_message(a, b) -> str:
    """torch.matmul's error for operand shapes ``a`` and ``b`` that do not multiply."""
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        return f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D"
    if na == 1 and nb == 1:
        return (f"inconsistent tensor size, expected tensor [{a[0]}] and src [{b[0]}] to have "
                f"the same number of elements, but got {a[0]} and {b[0]} elements respectively")
    if nb == 1:  # matrix (or folded batch) times vector
        rows = prod(a[:-1])
        return f"size mismatch, got input ({rows}), mat ({rows}x{a[-1]}), vec ({b[0]})"
    if nb == 2 and na <= 2 or na >= 3 and nb == 2:
        rows = prod(a[:-1])
        return f"mat1 and mat2 shapes cannot be multiplied ({rows}x{a[-1]} and {b[0]}x{b[1]})"
    bad = _broadcast_mismatch(a[:-2], b[:-2])
    if bad is not None:
        return broadcast_message(*bad)
    batch = prod(broadcast_shapes(a[:-2], b[:-2]))
    return (f"Expected size for first two dimensions of batch2 tensor to be: [{batch}, "
            f"{a[-1]}] but got: [{batch}, {b[-2]}].")


class TorchDialect(Dialect):
    name = "torch"
    sign_of_nan_is_zero = True
    half_powers_as_roots = True
    nograd_views_require_grad = True
    implicit_seed_any_shape = False
    silent_backward_without_grad = False
    strict_promotion = False
    grad_requires_grad = False
    host_scalars_join_devices = True  # a 0-d CPU tensor may join a CUDA op
    inplace_view_rebases_base = True
    # torch's derivative formulas that read a forward input the gradient's value does not
    # depend on: relu's is threshold_backward(grad, result), abs's grad * sgn(x),
    # copysign's copysign_tensor_self_backward(grad, self, result), hardtanh's
    # hardtanh_backward(grad, self, ...), and so on.  (leaky_relu, prelu and rrelu link
    # too in torch; here they are composites of where/mul, without that link)
    create_graph_links = {"relu": (0,), "abs": (0,), "copysign": (0,), "hardtanh": (0,),
                          "threshold": (0,), "hardshrink": (0,), "softshrink": (0,)}

    def released_graph(self, node) -> Exception:
        return RuntimeError(RELEASED)

    def remade_view(self, view) -> None:
        from ._grad_fn import tag
        tag(view, "AsStridedBackward0")  # torch replays a view of a changed base as_strided

    def implicit_seed(self, tensor) -> Exception:
        return RuntimeError("grad can be implicitly created only for scalar outputs")

    def seed_shape(self, index: int, grad, out) -> Exception:
        return RuntimeError(
            f"Mismatch in shape: grad_output[{index}] has a shape of "
            f"{size_str(grad.array.shape)} and output[{index}] has a shape of "
            f"{size_str(out.array.shape)}.")

    def root_without_grad(self, index: int) -> Exception:
        return RuntimeError(
            f"element {index} of tensors does not require grad and does not have a grad_fn")

    def int_requires_grad(self, dtype) -> Exception:
        return RuntimeError(
            "Only Tensors of floating point and complex dtype can require gradients")

    # ---------------------------------------------------------------- autograd (issue 3)
    def saved_modified(self, tensor, node, is_output: bool, version: int,
                       expected: int) -> Exception:
        from ._grad_fn import node_name
        if is_output:
            maker, dtype, shape = node, node.out_data.dtype, node.out_data.shape
        else:
            maker, dtype, shape = tensor.node, tensor.array.dtype, tensor.array.shape
        which = ""
        if maker is not None:
            name = node_name(maker)
            cut = name.rfind("Backward")
            # (a node of torch's C++ core without a Backward name is named with its namespace)
            name = name[:cut] if cut > 0 else f"torch::autograd::{name}"
            which = f", which is output 0 of {name},"
        return RuntimeError(
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: [torch.{from_np(dtype)._legacy} {_lst(shape)}]{which} is at "
            f"version {version}; expected version {expected} instead. Hint: {_version_hint()}")

    def unused_input(self, index: int) -> Exception:
        return RuntimeError(
            f"The differentiated Tensor at index {index} appears to not have been used in the "
            "graph. Set allow_unused=True if this is the desired behavior.")

    def input_without_grad(self, index: int) -> Exception:
        return RuntimeError("One of the differentiated Tensors does not require grad")

    def hook_changed(self, hook, what: str, old, new):
        name = getattr(hook, "__name__", type(hook).__name__)
        if what == "class":
            return TypeError(f"expected Variable, but hook returned '{type(new).__name__}'")
        if what == "size":
            return RuntimeError(f"hook '{name}' has changed the size of value")
        was, got = from_np(old.array.dtype)._legacy, from_np(new.array.dtype)._legacy
        return RuntimeError(
            f"hook '{name}' has changed the type of value (was torch.{was} got torch.{got})")

    def anomaly_nan(self, node, index: int) -> Exception:
        from ._grad_fn import node_name
        return RuntimeError(
            f"Function '{node_name(node)}' returned nan values in its {index}th output.")

    def anomaly_warning(self, node, stack: str):
        from ._grad_fn import node_name
        if stack is None:
            return (f"Error detected in {node_name(node)}. No forward pass information "
                    "available. Enable detect anomaly during forward pass for more information. "
                    "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/autograd/"
                    "python_anomaly_mode.cpp:100.)", UserWarning)
        return (f"Error detected in {node_name(node)}. Traceback of forward call that caused "
                f"the error:\n{stack} (Triggered internally at /__w/pytorch/pytorch/torch/csrc/"
                "autograd/python_anomaly_mode.cpp:122.)", UserWarning)

    def inference_saved(self) -> Exception:
        return RuntimeError(
            "Inference tensors cannot be saved for backward. Please do not use Tensors created "
            "in inference mode in computation tracked by autograd. To work around this, you "
            "can make a clone to get a normal tensor and use it in autograd, or use "
            "`torch.no_grad()` instead of `torch.inference_mode()`.")

    def inference_inplace(self) -> Exception:
        return RuntimeError(
            "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
            "make a clone to get a normal tensor before doing inplace update.See "
            "https://github.com/pytorch/rfcs/pull/17 for more details.")

    def inference_requires_grad(self) -> Exception:
        return RuntimeError(
            "Setting requires_grad=True on inference tensor outside InferenceMode is not "
            "allowed.")

    def broadcast(self, a_shape, b_shape, dim: int) -> Exception:
        bad = _broadcast_mismatch(a_shape, b_shape)
        if bad is None:
            return RuntimeError(f"shapes {list(a_shape)} and {list(b_shape)} do not broadcast")
        return RuntimeError(broadcast_message(*bad))

    def device_mismatch(self, op: str, devices) -> Exception:
        # TensorIterator's check: the common device is the first non-CPU one
        from ._device import device_str
        common = next((d for d in devices if d.kind != "cpu"), devices[0])
        other = next((d for d in devices if d != common), common)
        return RuntimeError("Expected all tensors to be on the same device, but found at least "
                            f"two devices, {device_str(common)} and {device_str(other)}!")

    def out_of_memory(self, nbytes: int) -> Exception:
        return RuntimeError(
            "[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate "
            f"memory: you tried to allocate {nbytes} bytes. Error code 12 (Cannot allocate "
            "memory)")

    def zero_division(self, op: str) -> Exception:
        return RuntimeError("ZeroDivisionError")

    def promotion(self, a, b) -> Exception:
        return TypeError(f"cannot combine dtypes {long_name(a)} and {long_name(b)}")

    def inplace_on_leaf(self, view: bool, tensor=None) -> Exception:
        if view:
            return RuntimeError("a view of a leaf Variable that requires grad is being used in "
                                "an in-place operation.")
        return RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                            "operation.")

    def invalid(self, op: str, message: str, **info) -> Exception:
        if op.startswith("linalg."):
            return _linalg_error(op, message, info)
        worded = _invalid(op, info)
        if worded is not None:
            return worded
        if op == "matmul" and "a_shape" in info:
            return RuntimeError(matmul_message(tuple(info["a_shape"]), tuple(info["b_shape"])))
        if op == "inplace" and "result_dtype" in info:
            return RuntimeError(
                f"result type {long_name(info['result_dtype'])} can't be cast to the desired "
                f"output type {long_name(info['target_dtype'])}")
        if op == "inplace" and "target_shape" in info:
            return RuntimeError(
                f"output with shape {list(info['target_shape'])} doesn't match the broadcast "
                f"shape {list(info['result_shape'])}")
        return RuntimeError(message)

    # ---------------------------------------------------------------- torch.compile's words
    # (torch logs graph breaks and the recompile limit; here they are one-time warnings)
    def compile_break(self, where: str, cause: str):
        return (f"Graph break in user code ({where}): {cause}. Dynamo runs this frame eagerly "
                "for these inputs; fullgraph=True would raise "
                "torch._dynamo.exc.Unsupported instead.", UserWarning)

    def compile_unsupported(self, where: str, cause: str) -> Exception:
        from ._dynamo.exc import Unsupported
        return Unsupported(
            f"Graph break in {where}: {cause}\n"
            f"  Explanation: fullgraph=True needs {where} captured as one graph, and "
            f"janusgrad's tracer cannot capture this: {cause}.\n"
            "  Hint: Remove fullgraph=True to let this frame fall back to eager for these "
            "inputs.\n"
            "  Hint: For data-dependent branching (e.g. `if my_tensor.sum() > 0:`), consider "
            "making the code branchless (torch.where, torch.clamp) so that it compiles "
            "without graph breaks.\n", gb_type="Graph break")

    def compile_limit(self, where: str, limit: int):
        return (f"torch._dynamo hit config.recompile_limit ({limit})\n"
                f"   function: {where!r}\n"
                "   new inputs to it run eagerly from now on.\n"
                "To diagnose recompilation issues, see https://docs.pytorch.org/docs/main/"
                "user_guide/torch_compiler/compile/programming_model.recompilation.html",
                UserWarning)


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a factorization met a singular or indefinite matrix."""


LinAlgError.__name__ = LinAlgError.__qualname__ = "_LinAlgError"
LinAlgError.__module__ = "torch._C"


def _linalg_error(op: str, message: str, info: dict):
    """torch.linalg's wording of janusgrad.ops.linalg_factor's facts."""
    if info.get("float_required"):
        return RuntimeError(f"{op}: Expected a floating point or complex tensor as input. "
                            f"Got {long_name(info['dtype'])}")
    if not info.get("singular"):
        return RuntimeError(f"{op}: {message}")
    k = info.get("order")
    if op == "linalg.cholesky":
        return LinAlgError("linalg.cholesky: The factorization could not be completed because "
                           f"the input is not positive-definite (the leading minor of order {k}"
                           " is not positive-definite).")
    if op == "linalg.solve":
        return LinAlgError("torch.linalg.solve: The solver failed because the input matrix is "
                           "singular.")
    return LinAlgError(f"{op}: The diagonal element {k} is zero, the inversion could not be "
                       "completed because the input matrix is singular.")


def _version_hint() -> str:
    from janusgrad.core.anomaly import is_enabled
    if is_enabled():
        return ("the backtrace further above shows the operation that failed to compute its "
                "gradient. The variable in question was changed in there or anywhere later. "
                "Good luck!")
    return ("enable anomaly detection to find the operation that failed to compute its "
            "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")


def _lst(shape) -> str:
    return "[" + ", ".join(str(n) for n in shape) + "]"


# the CPU kernels torch names when they refuse an integer dtype
_FLOAT_KERNELS = {"softmax": "softmax", "log_softmax": "log_softmax",
                  "nll_loss": "nll_loss_out_frame"}


def _invalid(op: str, info: dict):
    """torch's exception for the engine's neutral facts, or None to fall back."""
    if info.get("repeated"):
        if op == "transpose":
            return RuntimeError("permute(): duplicate dims are not allowed.")
        return RuntimeError(f"dim {info['axis']} appears multiple times in the list of dims")
    if info.get("float_required") and op in _FLOAT_KERNELS:
        kernel = _FLOAT_KERNELS[op]
        if op != "nll_loss":
            kernel += "_lastdim_kernel_impl" if info["last_axis"] else "_kernel_impl"
        return NotImplementedError(f"\"{kernel}\" not implemented for "
                                   f"'{long_name(info['dtype'])}'")
    if op == "axis":
        n = info["ndim"] or 1
        return IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], "
                          f"but got {info['axis']})")
    if op == "setitem" and "target_shape" in info:  # the value is expanded to the selection
        value, target = info["value_shape"], info["target_shape"]
        if len(value) > len(target):
            return RuntimeError(
                f"expand(torch.{from_np(info['dtype'])._legacy}{{{_lst(value)}}}, size="
                f"{_lst(target)}): the number of sizes provided ({len(target)}) must be greater "
                f"or equal to the number of dimensions in the tensor ({len(value)})")
        return _invalid("broadcast_to", {"in_shape": value, "shape": target})
    if "negative" in info:  # a factory's shape
        if op == "zeros":
            return RuntimeError("zeros: Dimension size must be non-negative.")
        shape = info["shape"]
        return RuntimeError(f"Trying to create tensor with negative dimension "
                            f"{shape[info['negative']]}: {_lst(shape)}")
    if op == "view" and info.get("incompatible_strides"):
        return RuntimeError("view size is not compatible with input tensor's size and stride (at "
                            "least one dimension spans across two contiguous subspaces). Use "
                            ".reshape(...) instead.")
    if op == "reshape" and "size" in info:
        return RuntimeError(f"shape '{_lst(info['shape'])}' is invalid for input of size "
                            f"{info['size']}")
    if op == "broadcast_to" and "in_shape" in info:
        target, have = tuple(info["shape"]), tuple(info["in_shape"])
        lead = len(target) - len(have)
        for i in range(len(target) - 1, -1, -1):
            j = i - lead
            size = have[j] if j >= 0 else 1
            if j >= 0 and size != 1 and size != target[i]:
                return RuntimeError(
                    f"The expanded size of the tensor ({target[i]}) must match the existing "
                    f"size ({size}) at non-singleton dimension {i}.  Target sizes: "
                    f"{_lst(target)}.  Tensor sizes: {_lst(have)}")
        return None
    if op == "index":
        caller = info.get("caller")
        if "index" in info and "size" in info:
            if caller == "index_select":
                return IndexError("index out of range in self")
            text = (f"index {info['index']} is out of bounds for dimension {info['axis']} with "
                    f"size {info['size']}")
            return RuntimeError(text) if caller == "gather" else IndexError(text)
        if "count" in info:
            return IndexError(f"too many indices for tensor of dimension {info['ndim']}")
        if "key_type" in info:
            return IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or "
                              f"byte Variables are valid indices (got {info['key_type']})")
        return None
    if op == "index_select" and "index_shape" in info:
        return IndexError("index_select(): Index is supposed to be a vector")
    if op == "gather" and "index_shape" in info and "dim" not in info:
        return RuntimeError("Index tensor must have the same number of dimensions as input "
                            "tensor")
    if op == "masked_select" and "mask_dtype" in info:
        return RuntimeError("masked_select: expected BoolTensor for mask")
    if op == "concatenate":
        if "a_ndim" in info:
            return RuntimeError(f"Tensors must have same number of dimensions: got "
                                f"{info['a_ndim']} and {info['b_ndim']}")
        if "expected" in info:
            return RuntimeError(
                f"Sizes of tensors must match except in dimension {info['axis']}. Expected "
                f"size {info['expected']} but got size {info['got']} for tensor number "
                f"{info['index']} in the list.")
        if "index" in info:
            return RuntimeError(f"zero-dimensional tensor (at position {info['index']}) cannot "
                                "be concatenated")
    if op == "split" and "sizes" in info:
        return RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {info['size']} (input "
            f"tensor's size at dimension {info['axis']}), but got split_sizes="
            f"{_lst(info['sizes'])}")
    return None


TORCH = TorchDialect()
