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

    def op_name(self, op: str) -> str:
        return op

    def released_graph(self, node) -> Exception:
        return RuntimeError(
            "backward through a graph whose saved values were already released; "
            "pass retain_graph=True to the first backward"
        )

    def implicit_seed(self, tensor) -> Exception:
        return RuntimeError("grad can be implicitly created only for scalar outputs")

    def seed_shape(self, index: int, grad_shape, out_shape) -> Exception:
        return RuntimeError(
            f"gradient {index} has shape {tuple(grad_shape)} but output {index} "
            f"has shape {tuple(out_shape)}"
        )

    def root_without_grad(self, index: int) -> Exception:
        return RuntimeError(f"element {index} of tensors does not require grad")

    def int_requires_grad(self, dtype) -> Exception:
        return RuntimeError("only floating point tensors can require gradients")

    def inplace_on_leaf(self, view: bool) -> Exception:
        """An in-place change of a leaf that requires grad (``view``: through indexing)."""
        return RuntimeError("a leaf tensor that requires grad is used in an in-place operation")

    def broadcast(self, a_shape, b_shape, dim: int) -> Exception:
        return ValueError(f"shapes {tuple(a_shape)} and {tuple(b_shape)} do not broadcast")

    def promotion(self, a, b) -> Exception:
        return TypeError(f"cannot combine dtypes {a} and {b}")

    def invalid(self, op: str, message: str, **info) -> Exception:
        """Any other bad argument to an op.

        ``message`` is neutral text; ``info`` holds the facts (shapes, dims,
        dtypes) so a frontend can word the error exactly as its framework does.
        """
        return RuntimeError(f"{op}: {message}")


DEFAULT = Dialect()
