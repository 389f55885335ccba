"""paddle.summary (paddle.hapi.model_summary): paddle 3.3.1's table of the layers a forward
pass runs, their input and output shapes and parameter counts, and its size estimates.

The hooks, shape trees and counts are the engine's (janusgrad.nn.summary); here are paddle's
choices: which layers get a row (all but Sequential, LayerList and the model itself, unless
the model holds no layers; a recurrent network always), the row names (the class name and
the layer's creation number, ``Linear-2``), the column widths and the 4-byte size estimates,
its argument checks and messages, and the returned dict.
"""
from __future__ import annotations

import numbers

from janusgrad.nn import summary as _summary

from .autograd import no_grad
from .creation import rand
from .nn.layers import LayerList, Sequential
from .tensor import Tensor

__all__ = ["summary"]


def summary(net, input_size=None, dtypes=None, input=None):
    """Print the summary of ``net`` for inputs of ``input_size`` (or the given ``input``) and
    return ``{'total_params': ..., 'trainable_params': ...}``."""
    if input_size is None and input is None:
        raise ValueError("input_size and input cannot be None at the same time")
    if input_size is None:
        if isinstance(input, Tensor):
            input_size = tuple(input.shape)
        elif isinstance(input, (list, tuple)):
            input_size = [tuple(x.shape) for x in input]
        elif isinstance(input, dict):
            input_size = [tuple(input[k].shape) for k in input.keys()]
        else:
            raise ValueError("Input is not tensor, list, tuple and dict, unable to determine "
                             "input_size, please input input_size.")
    if isinstance(input_size, list):
        sizes = []
        for item in input_size:
            if isinstance(item, int):
                item = (item,)
            assert isinstance(item, tuple), (
                "When input_size is list,             expect item in input_size is a tuple "
                f"or InputSpec, but got {type(item)}")
            sizes.append(item)
    elif isinstance(input_size, int):
        sizes = (input_size,)
    else:
        sizes = input_size
    was_training = net.training
    if was_training:
        net.eval()
    text, info = summary_string(net, _check_input(sizes), dtypes, input)
    print(text)
    if was_training:
        net.train()
    return info


def _is_shape(shape) -> bool:
    return not any(isinstance(item, (list, tuple)) for item in shape)


def _check_shape(shape) -> tuple:
    unknown = 0
    out = []
    for item in shape:
        if item is None or item == -1:
            unknown += 1
            if unknown > 1:
                raise ValueError("Option input_size only the dim of batch_size can be None "
                                 "or -1.")
            item = 1
        elif isinstance(item, numbers.Number) and item <= 0:
            raise ValueError(f"Expected element in input size greater than zero, but got "
                             f"{item}")
        out.append(item)
    return tuple(out)


def _check_input(sizes):
    if isinstance(sizes, (list, tuple)) and _is_shape(sizes):
        return _check_shape(sizes)
    return [_check_input(s) for s in sizes]


def _all_numbers(items) -> bool:
    return all(isinstance(item, numbers.Number) for item in items)


def _nest_dtypes(sizes, dtype):
    if isinstance(sizes, (list, tuple)) and _all_numbers(sizes):
        return [dtype]
    return [_nest_dtypes(s, dtype) for s in sizes]


def _build_input(sizes, dtypes):
    if isinstance(sizes, (list, tuple)) and _all_numbers(sizes):
        dtype = dtypes[0] if isinstance(dtypes, (list, tuple)) else dtypes
        return rand(list(sizes)).astype(dtype)
    return [_build_input(s, d) for s, d in zip(sizes, dtypes)]


def _input_megabytes(sizes) -> float:
    if isinstance(sizes, (list, tuple)) and _all_numbers(sizes):
        return _summary.megabytes(_summary.numel(list(sizes)))
    return sum(_input_megabytes(s) for s in sizes)


def _is_tensor(x) -> bool:
    return isinstance(x, Tensor)


def _has_shape(x) -> bool:
    return hasattr(x, "shape")


def _trainable(name, p) -> bool:
    return bool(p.trainable and not p.stop_gradient)


def _row_name(layer, rows: dict) -> str:
    class_name = str(layer.__class__).split(".")[-1].split("'")[0]
    try:
        index = int(layer._full_name.split("_")[-1])
    except Exception:
        index = len(rows)
    return f"{class_name}-{index + 1}"


def summary_string(model, input_size=None, dtypes=None, input=None):
    """The summary's text and its dict, as ``paddle.hapi.model_summary.summary_string``."""
    with no_grad():
        return _summary_string(model, input_size, dtypes, input)


def _summary_string(model, input_size, dtypes, input):
    if not isinstance(dtypes, (list, tuple)):
        dtypes = _nest_dtypes(input_size, "float32" if dtypes is None else dtypes)
    no_sublayers = not model.sublayers()

    def watched(layer) -> bool:
        if not isinstance(layer, (Sequential, LayerList)) and (layer is not model
                                                               or no_sublayers):
            return True
        return bool(getattr(layer, "could_use_cudnn", False))  # the recurrent networks

    if isinstance(input_size, tuple):
        input_size = [input_size]
    if input is not None:
        def call():
            model(input)
    else:
        def call():
            model(*_build_input(input_size, dtypes))
    rows: dict = {}
    for layer, args, output in _summary.trace(model, call, watched):
        key = _row_name(layer, rows)
        total, trained, _, any_trained = _summary.param_counts(layer, _trainable)
        rows[key] = (_summary.shape_tree(args, _is_tensor),
                     _summary.shape_tree(output, _has_shape, []), total,
                     trained if any_trained else None)
    return _format(rows, input_size)


def _format(rows: dict, input_size):
    widths = [15, 20, 20, 15]
    for key, (ins, outs, n, _) in rows.items():
        widths = [max(w, len(s)) for w, s in zip(widths, (key, str(ins), str(outs), str(n)))]
    table = max(75, sum(widths) + 5)

    def line(*cells) -> str:
        return " ".join(f"{c:^{w}}" for c, w in zip(cells, widths)) + "\n"

    text = "-" * table + "\n" + line("Layer (type)", "Input Shape", "Output Shape", "Param #")
    text += "=" * table + "\n"
    total = trainable = elements = 0
    for key, (ins, outs, n, trained) in rows.items():
        text += line(key, str(ins), str(outs), f"{n:,}")
        total += n
        elements += _summary.numel(outs)
        if trained is not None:
            trainable += trained
    input_mb = _input_megabytes(input_size)
    output_mb = 2.0 * _summary.megabytes(elements)  # x2 for gradients
    params_mb = _summary.megabytes(total)
    text += "=" * table + "\n"
    text += f"Total params: {total:,}\nTrainable params: {trainable:,}\n"
    text += f"Non-trainable params: {total - trainable:,}\n" + "-" * table + "\n"
    text += f"Input size (MB): {input_mb:0.2f}\n"
    text += f"Forward/backward pass size (MB): {output_mb:0.2f}\n"
    text += f"Params size (MB): {params_mb:0.2f}\n"
    text += f"Estimated Total Size (MB): {params_mb + output_mb + input_mb:0.2f}\n"
    text += "-" * table + "\n"
    return text, {"total_params": total, "trainable_params": trainable}
