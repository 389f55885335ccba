"""torch's normalisation, embedding and structured-dropout functions (torch.nn.functional and
the torch.* namespace names): torch's signatures, checks, messages and node names over
engine.nn.norm. Kept apart from nn/functional.py so that the torch namespace table can
import it too."""
from __future__ import annotations

import warnings

from janusgrad.nn import norm as _NN

from ._grad_fn import tag
from ._size import Size


def _count_per_channel(shape) -> int:
    n = shape[0] if shape else 1
    for d in shape[2:]:
        n *= d
    return n


def _check_running(input, running_mean, running_var):  # noqa: A002
    c = input.array.shape[1] if input.array.ndim > 1 else 1
    for name, t in (("running_mean", running_mean), ("running_var", running_var)):
        if t is not None and t.array.size != c:
            raise RuntimeError(f"{name} should contain {c} elements not {t.array.size}")


def _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):  # noqa: A002
    if input.array.ndim < 2:  # (only an empty input gets here: torch returns it normalised)
        return _NN.masked_dropout(input, 0.0, False), None, None
    _check_running(input, running_mean, running_var)
    if running_mean is None or running_var is None:
        training = True
    out, mean, inv = _NN.batch_norm_stats(input, running_mean, running_var, weight, bias,
                                          training, momentum, eps)
    return tag(out, "NativeBatchNormBackward0"), mean, inv


def batch_norm(input, running_mean, running_var, weight=None, bias=None,  # noqa: A002
               training: bool = False, momentum: float = 0.1, eps: float = 1e-05):
    if training and input.array.ndim >= 1 and _count_per_channel(input.array.shape) == 1:
        raise ValueError("Expected more than 1 value per channel when training, got input "
                         f"size {Size(input.array.shape)}")
    return _batch_norm(input, weight, bias, running_mean, running_var, training, momentum,
                       eps)[0]


def _saved(input, t):  # noqa: A002
    """A saved statistic of torch's native ops: flat, detached; (0,) when there is none."""
    if t is None:
        return type(input).wrap(input.array[:0].reshape(-1)[:0])
    return type(input).wrap(t.array.reshape(-1).copy())


def native_batch_norm(input, weight, bias, running_mean, running_var, training: bool,  # noqa: A002
                      momentum: float, eps: float):
    out, mean, inv = _batch_norm(input, weight, bias, running_mean, running_var, training,
                                 momentum, eps)
    return out, _saved(input, mean), _saved(input, inv)


def _native_batch_norm_legit(input, weight, bias, *args):  # noqa: A002
    if len(args) == 3:  # (training, momentum, eps): no running statistics
        running_mean = running_var = None
        training, momentum, eps = args
    else:
        running_mean, running_var, training, momentum, eps = args
    return native_batch_norm(input, weight, bias, running_mean, running_var, training,
                             momentum, eps)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None,  # noqa: A002
                  use_input_stats: bool = True, momentum: float = 0.1, eps: float = 1e-05):
    if use_input_stats:
        n = 1
        for d in input.array.shape[2:]:
            n *= d
        if n == 1:
            raise ValueError("Expected more than 1 spatial element when training, got input "
                             f"size {Size(input.array.shape)}")
    return _NN.instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                             momentum, eps)


def _group_norm_checks(input, num_groups):  # noqa: A002
    if input.array.ndim < 2:
        raise RuntimeError("Expected at least 2 dimensions for input tensor but received "
                           f"{input.array.ndim}")
    c = input.array.shape[1]
    if num_groups <= 0 or c % num_groups:
        raise RuntimeError("Expected number of channels in input to be divisible by "
                           f"num_groups, but got input of shape {list(input.array.shape)} "
                           f"and num_groups={num_groups}")


def group_norm(input, num_groups: int, weight=None, bias=None, eps: float = 1e-05):  # noqa: A002
    _group_norm_checks(input, num_groups)
    return tag(_NN.group_norm(input, num_groups, weight, bias, eps),
               "NativeGroupNormBackward0")


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):  # noqa: A002, N803
    _group_norm_checks(input, group)
    out, mean, inv = _NN.group_norm_stats(input, group, weight, bias, eps)
    return tag(out, "NativeGroupNormBackward0"), mean, inv


def local_response_norm(input, size: int, alpha: float = 0.0001, beta: float = 0.75,  # noqa: A002
                        k: float = 1.0):
    dim = input.array.ndim
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          "
                         f"input (got {dim} dimensions)")
    if input.array.size == 0:
        return input
    return _NN.local_response_norm(input, size, alpha, beta, k)


def _embedding_checks(input, weight, padding_idx):  # noqa: A002
    kind = input.array.dtype
    if kind.name not in ("int64", "int32"):
        names = {"float32": "torch.FloatTensor", "float64": "torch.DoubleTensor",
                 "bool": "torch.BoolTensor", "int16": "torch.ShortTensor",
                 "int8": "torch.CharTensor", "uint8": "torch.ByteTensor",
                 "float16": "torch.HalfTensor"}
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the "
                           "following scalar types: Long, Int; but got "
                           f"{names.get(kind.name, kind.name)} instead (while checking "
                           "arguments for embedding)")
    n = weight.array.shape[0]
    a = input.array
    if a.size and (bool((a < 0).any()) or bool((a >= n).any())):
        raise IndexError("index out of range in self")
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= n or padding_idx < 0 and padding_idx < -n:
            raise AssertionError("Padding_idx must be within num_embeddings")
        if padding_idx < 0:
            padding_idx += n
    return padding_idx


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type: float = 2.0,  # noqa: A002
              scale_grad_by_freq: bool = False, sparse: bool = False):
    padding_idx = _embedding_checks(input, weight, padding_idx)
    if scale_grad_by_freq or sparse:
        raise NotImplementedError("torchlike's embedding takes scale_grad_by_freq=False and "
                                  "sparse=False only")
    return tag(_NN.embedding(weight, input, padding_idx, max_norm, norm_type),
               "EmbeddingBackward0")


def _check_p(p: float) -> None:
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _feature_dropout(input, p, training, batched=True, alpha=False):  # noqa: A002
    if training and p not in (0.0, 1.0) and input.array.size and input.array.ndim < 2:
        raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
    shape = _NN.feature_mask_shape(input.array.shape, batched)
    return _NN.masked_dropout(input, p, training, shape, alpha)


def dropout1d(input, p: float = 0.5, training: bool = True, inplace: bool = False):  # noqa: A002
    _check_p(p)
    dim = input.array.ndim
    if dim not in (2, 3):
        raise RuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {dim}D input. Note that "
            "dropout1d exists to provide channel-wise dropout on inputs with 1 spatial "
            "dimension, a channel dimension, and an optional batch dimension (i.e. 2D or 3D "
            "inputs).")
    return _feature_dropout(input, p, training, dim == 3)


def _dims_warning(input, k: int) -> int:  # noqa: A002
    """torch's warning for dropout{k}d on an input of neither k+1 nor k+2 dims; the dims."""
    dim = input.array.ndim
    if dim not in (k + 1, k + 2):
        warnings.warn(
            f"dropout{k}d: Received a {dim}-D input to dropout{k}d, which is deprecated and "
            "will result in an error in a future release. To retain the behavior and silence "
            f"this warning, please use dropout instead. Note that dropout{k}d exists to "
            f"provide channel-wise dropout on inputs with {k} spatial dimensions, a channel "
            f"dimension, and an optional batch dimension (i.e. {k + 1}D or {k + 2}D inputs).",
            stacklevel=3)
    return dim


def dropout2d(input, p: float = 0.5, training: bool = True, inplace: bool = False):  # noqa: A002
    _check_p(p)
    dim = _dims_warning(input, 2)
    if dim == 3:
        warnings.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D "
            "dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
            "is the channel dim. This behavior will change in a future release to interpret "
            "the input as one without a batch dimension, i.e. shape (C, H, W). To maintain "
            "the 1D channel-wise dropout behavior, please switch to using dropout1d instead.",
            stacklevel=2)
    return _feature_dropout(input, p, training)


def dropout3d(input, p: float = 0.5, training: bool = True, inplace: bool = False):  # noqa: A002
    _check_p(p)
    dim = _dims_warning(input, 3)
    return _feature_dropout(input, p, training, dim == 5)


def alpha_dropout(input, p: float = 0.5, training: bool = False, inplace: bool = False):  # noqa: A002
    _check_p(p)
    return _NN.masked_dropout(input, p, training, None, alpha=True)


def feature_alpha_dropout(input, p: float = 0.5, training: bool = False,  # noqa: A002
                          inplace: bool = False):
    _check_p(p)
    return _feature_dropout(input, p, training, alpha=True)


# ---------------------------------------------------------------- torch.* namespace forms
def torch_batch_norm(input, weight, bias, running_mean, running_var, training, momentum,  # noqa: A002
                     eps, cudnn_enabled):
    return batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def torch_instance_norm(input, weight, bias, running_mean, running_var, use_input_stats,  # noqa: A002
                        momentum, eps, cudnn_enabled):
    return instance_norm(input, running_mean, running_var, weight, bias, use_input_stats,
                         momentum, eps)


def torch_group_norm(input, num_groups, weight=None, bias=None, eps=1e-05,  # noqa: A002
                     cudnn_enabled=True):
    return group_norm(input, num_groups, weight, bias, eps)


def torch_embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    return embedding(indices, weight, None if padding_idx == -1 else padding_idx, None, 2.0,
                     scale_grad_by_freq, sparse)


def torch_alpha_dropout(input, p, train):  # noqa: A002
    return alpha_dropout(input, p, train)


def torch_feature_alpha_dropout(input, p, train):  # noqa: A002
    return feature_alpha_dropout(input, p, train)


def torch_feature_dropout(input, p, train):  # noqa: A002
    _check_p(p)
    return _feature_dropout(input, p, train)


for _f in (torch_batch_norm, torch_instance_norm, torch_group_norm, torch_embedding,
           torch_alpha_dropout, torch_feature_alpha_dropout, torch_feature_dropout):
    _f.__name__ = _f.__qualname__ = _f.__name__[len("torch_"):]
