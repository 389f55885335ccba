"""What a frontend decides about errors and edge semantics.

The engine raises through the dialect of the tensors involved, so the type and
wording of each error is the frontend's, while the condition is the engine's.
This base class speaks neutrally; each frontend subclasses it.
"""
from __future__ import annotations


class Dialect:
    name = "engine"
    # paddle seeds a non-scalar backward with ones; torch refuses.
    implicit_seed_any_shape = False
    # torch refuses backward from a tensor that does not need grad; paddle returns.
    silent_backward_without_grad = False
    # paddle combines two tensors of different dtypes only when both are floating.
    strict_promotion = False
    # a second backward through a node that saved nothing: torch lets it run, paddle refuses.
    refuse_rerun_without_saved = False
    # paddle leaves `.grad` tensors flagged as needing grad.
    grad_requires_grad = False
    # torch runs retain_grad's hook after the tensor's other hooks; paddle in registration order.
    retain_grad_last = True
    # after an in-place change the tensor retains its new value's grad (torch) or the old's.
    retain_follows_inplace = True
    # a retained non-leaf grad adds up over backward calls (torch) or is replaced (paddle).
    retained_grad_accumulates = True
    # a 0-d host tensor may be an operand of an op on a GPU tensor (torch), or not.
    host_scalars_join_devices = False
    # grad() runs the hooks of a leaf among its inputs (torch) or not (paddle).
    leaf_hooks_in_grad = True
    # an in-place change of a view rewrites its base's history too (torch's CopySlices), or
    # changes the base's memory only (paddle).
    inplace_view_rebases_base = False
    # a view made under no_grad of a tensor that requires grad requires grad too (torch:
    # a leaf), or not (paddle).
    nograd_views_require_grad = False
    # two gradients of an integer dtype meeting in one backward: summed (torch cannot meet
    # them: its integer tensors never require grad), or refused (paddle).
    refuse_int_grad_sum = False
    # argmax / argmin pass over NaN (paddle) or pick the first NaN (torch, numpy).
    arg_extremes_skip_nan = False
    # sign(NaN): NaN (paddle, numpy) or 0 (torch).
    sign_of_nan_is_zero = False
    # x ** 0.5 and x ** -0.5 computed as sqrt and 1 / sqrt (torch: -0.0 ** 0.5 is -0.0, and
    # its gradient -inf), or as pow (paddle: 0.0 and inf).
    half_powers_as_roots = False
    # create_graph gradients linked to inputs their value does not depend on, as the
    # framework's derivative formulas link them (janusgrad.core.links): op name -> input positions
    create_graph_links: dict = {}
    # every gradient grad(create_graph=True) returns is a non-leaf that requires grad (paddle)
    create_graph_grads_require_grad = False

    def int_grad_sum(self, dtype) -> Exception:
        return NotImplementedError(f"gradients of dtype {dtype} cannot be accumulated")

    def op_name(self, op: str) -> str:
        return op

    def released_graph(self, node) -> Exception:
        return RuntimeError(
            "backward through a graph whose saved values were already released; "
            "pass retain_graph=True to the first backward"
        )

    def implicit_seed(self, tensor) -> Exception:
        return RuntimeError("grad can be implicitly created only for scalar outputs")

    def seed_shape(self, index: int, grad, out) -> Exception:
        """The seed ``grad`` given for output ``index`` (``out``) has another shape."""
        return RuntimeError(
            f"gradient {index} has shape {tuple(grad.array.shape)} but output {index} "
            f"has shape {tuple(out.array.shape)}"
        )

    def root_without_grad(self, index: int) -> Exception:
        return RuntimeError(f"element {index} of tensors does not require grad")

    def int_requires_grad(self, dtype) -> Exception:
        return RuntimeError("only floating point tensors can require gradients")

    def inplace_on_leaf(self, view: bool, tensor=None) -> Exception:
        """An in-place change of the leaf ``tensor`` that requires grad (``view``: through
        indexing)."""
        return RuntimeError("a leaf tensor that requires grad is used in an in-place operation")

    def remade_view(self, view) -> None:
        """``view`` was made again from its base after an in-place change (a name for its
        new node, where the frontend shows one)."""

    def no_grad_view_modified(self) -> Exception:
        """A recorded in-place change of a view made under no_grad of a base in a graph."""
        return RuntimeError(
            "A view was created in no_grad mode and is being modified inplace with grad mode "
            "enabled. Given that this use case is ambiguous and error-prone, it is forbidden. "
            "You can clarify your code by moving both the view and the inplace either both "
            "inside the no_grad block (if you don't want the inplace to be tracked) or both "
            "outside (if you want the inplace to be tracked).")

    def multi_output_view_modified(self, index: int, name: str) -> Exception:
        """A recorded in-place change of output ``index`` of ``name``, a function that
        returns several views (split, chunk)."""
        return RuntimeError(
            f"Output {index} of {name} is a view and is being modified inplace. This view is "
            "the output of a function that returns multiple views. Such functions do not allow "
            "the output views to be modified inplace. You should replace the inplace operation "
            "by an out-of-place one.")

    def overlapping_write(self) -> Exception:
        """An in-place op into a tensor whose elements share memory (an expanded view)."""
        return RuntimeError("unsupported operation: more than one element of the written-to "
                            "tensor refers to a single memory location. Please clone() the "
                            "tensor before performing the operation.")

    def saved_modified(self, tensor, node, is_output: bool, version: int,
                       expected: int) -> Exception:
        """A tensor ``node`` saved was changed in place before backward reached ``node``.

        ``tensor`` is the saved tensor (None when it was the node's own output).
        """
        return RuntimeError(
            "a tensor saved for backward was modified by an in-place operation: it is at "
            f"version {version}; expected version {expected}")

    def unused_input(self, index: int) -> Exception:
        return RuntimeError(f"input {index} was not used in the graph; pass allow_unused=True")

    def input_without_grad(self, index: int) -> Exception | None:
        """An input of grad() that needs no gradient: the error, or None to take it as an
        unused input (None, or ``unused_input`` without allow_unused)."""
        return RuntimeError(f"input {index} does not require grad")

    def hook_changed(self, hook, what: str, old, new):
        """A hook returned a gradient of another ``what`` ('size', 'type', 'class');
        an Exception to raise, or None to accept the value."""
        return RuntimeError(f"hook {getattr(hook, '__name__', hook)!r} changed the {what} "
                            "of the gradient")

    def anomaly_nan(self, node, index: int) -> Exception:
        return RuntimeError(f"Function {node.op.name!r} returned nan values in its output "
                            f"{index}")

    def anomaly_warning(self, node, stack: str):
        """(message, warning class) shown when backward fails in ``node`` under anomaly
        detection; ``stack`` is the formatted traceback of the forward call (None when the
        node was made with anomaly detection off). None: no warning."""
        if stack is None:
            return f"Error detected in {node.op.name}; no forward stack recorded", UserWarning
        return (f"Error detected in {node.op.name}. Traceback of forward call that caused the "
                f"error:\n{stack}", UserWarning)

    def inference_saved(self) -> Exception:
        return RuntimeError("an inference tensor cannot be saved for backward")

    def inference_inplace(self) -> Exception:
        return RuntimeError("an inference tensor cannot be changed in place outside "
                            "inference mode")

    def inference_requires_grad(self) -> Exception:
        return RuntimeError("an inference tensor cannot require grad outside inference mode")

    def broadcast(self, a_shape, b_shape, dim: int) -> Exception:
        return ValueError(f"shapes {tuple(a_shape)} and {tuple(b_shape)} do not broadcast")

    def device_mismatch(self, op: str, devices) -> Exception:
        """Operands of one op on different devices (``devices``: engine Devices, in the
        order the operands came)."""
        return RuntimeError(f"{op}: operands are on different devices: "
                            f"{', '.join(str(d) for d in devices)}")

    def out_of_memory(self, nbytes: int) -> Exception:
        """A tensor of ``nbytes`` bytes could not be allocated."""
        return MemoryError(f"cannot allocate {nbytes} bytes")

    def zero_division(self, op: str) -> Exception:
        """An integer division (floor_divide, remainder, fmod) by an integer zero."""
        return ZeroDivisionError(f"{op}: integer division by zero")

    def promotion(self, a, b) -> Exception:
        return TypeError(f"cannot combine dtypes {a} and {b}")

    def invalid(self, op: str, message: str, **info) -> Exception:
        """Any other bad argument to an op.

        ``message`` is neutral text; ``info`` holds the facts (shapes, dims,
        dtypes) so a frontend can word the error exactly as its framework does.
        """
        return RuntimeError(f"{op}: {message}")


    # -------------------------------------------------- compiling (janusgrad.transforms.trace)
    def compile_break(self, where: str, cause: str):
        """(message, warning class) shown once when compiled function ``where`` runs
        eagerly for a guard key because of ``cause`` (neutral text naming what the trace
        could not capture)."""
        return f"{where}: graph break ({cause}); this call runs eagerly", UserWarning

    def compile_unsupported(self, where: str, cause: str) -> Exception:
        """The error of a graph break under fullgraph."""
        return RuntimeError(f"{where}: cannot compile the whole function: {cause}")

    def compile_limit(self, where: str, limit: int):
        """(message, warning class) shown once when ``where`` has ``limit`` traces and a new
        guard key stays eager."""
        return (f"{where}: {limit} traces cached (the limit); new inputs run eagerly",
                UserWarning)

DEFAULT = Dialect()
