"""janusgrad.binding.surface: the dialect tables' installer, on a toy dialect of its own."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from janusgrad.binding.surface import Row, install, resolve
from janusgrad.core import inplace
from janusgrad.core.tensor import Tensor
from janusgrad.ops import elementwise as E
from janusgrad.ops import reduce as R


class Toy(Tensor):
    __slots__ = ()


def _tagger():
    """A tag function recording names by tensor id, and the record."""
    tags: dict = {}

    def tag(t, name):
        tags[id(t)] = name
        return t

    return tag, tags


def _table():
    ns: dict = {}
    tag, tags = _tagger()
    rows = [
        Row("tanh", E.tanh, forms="fmi"),
        Row("mul", "elementwise.mul", forms="fmi", aliases=("multiply",)),
        Row("sum", R.sum, params="input, dim=None, keepdim=False, *, dtype=None",
            call="input, dim, keepdim", node="SumBackward1"),
        Row("clip", E.clamp, params="x, min=None, max=None, name=None", call="x, min, max",
            forms="fmi"),
        Row("scale", E.mul, params="x, s=1.0", call="x, s", forms="fi", method="scaled"),
    ]
    made = install(rows, ns, Toy, module="toy", tag=tag, inplace=inplace.update,
                   kw_aliases={"dim": "axis", "keepdim": "keepdims"})
    return ns, made, tags


def test_rows_bind_translate_and_install_every_form():
    ns, made, tags = _table()
    assert ns["tanh"] is E.tanh  # nothing to translate: the engine function itself
    assert ns["multiply"] is ns["mul"] is E.mul
    x = Toy.wrap(np.array([[1.0, -2.0], [3.0, 0.5]]))
    np.testing.assert_allclose(x.tanh().array, np.tanh(x.array))
    s = ns["sum"](x, dim=1, keepdim=True)
    np.testing.assert_allclose(s.array, x.array.sum(1, keepdims=True))
    # the keyword aliases, on the function and the method alike
    np.testing.assert_allclose(x.sum(axis=0, keepdims=True).array, x.array.sum(0, keepdims=True))
    assert tags[id(s)] == "SumBackward1"
    assert list(inspect.signature(ns["sum"]).parameters) == ["input", "dim", "keepdim",
                                                             "dtype", "axis", "keepdims"]
    assert ns["sum"].__name__ == "sum" and ns["sum"].__module__ == "toy"
    np.testing.assert_allclose(ns["clip"](x, 0.0, 1.0).array, np.clip(x.array, 0.0, 1.0))
    assert made["scale"].method is None and not hasattr(Toy, "scale")


def test_inplace_forms_change_the_tensor_itself():
    ns, made, tags = _table()
    x = Toy.wrap(np.array([0.5, -1.0, 2.0]))
    want = np.tanh(x.array.copy())
    assert x.tanh_() is x
    np.testing.assert_allclose(x.array, want)
    y = Toy.wrap(np.array([1.0, 2.0, 3.0]))
    y.mul_(2.0)
    y.multiply_(0.5)
    np.testing.assert_allclose(y.array, [1.0, 2.0, 3.0])
    y.clip_(max=2.5)
    np.testing.assert_allclose(y.array, [1.0, 2.0, 2.5])
    y.scaled_(s=4.0)  # the method's own name
    np.testing.assert_allclose(y.array, [4.0, 8.0, 10.0])
    assert y.version == 4


def test_a_row_naming_a_missing_engine_op_fails_at_install():
    with pytest.raises(LookupError, match="the engine has no elementwise.no_such_op"):
        install([Row("nope", "elementwise.no_such_op")], {}, None, module="toy")
    with pytest.raises(LookupError, match="no_such_family"):
        resolve("no_such_family.tanh")


def test_a_node_name_without_tag_or_inplace_without_update_is_refused():
    with pytest.raises(ValueError, match="tag"):
        install([Row("s", R.sum, node="X")], {}, None, module="toy")
    with pytest.raises(ValueError, match="inplace"):
        install([Row("t", E.tanh, forms="i")], {}, Toy, module="toy")


def test_an_aliased_required_parameter_may_come_by_its_alias():
    ns: dict = {}
    install([Row("cumsum", R.sum, params="input, dim", call="input, dim")], ns, None,
            module="toy", kw_aliases={"dim": "axis"})
    x = Toy.wrap(np.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(ns["cumsum"](x, axis=1).array, x.array.sum(1))
    np.testing.assert_allclose(ns["cumsum"](x, 0).array, x.array.sum(0))


def test_a_node_name_may_be_decided_per_call_and_inplace_may_be_named():
    ns: dict = {}
    tag, tags = _tagger()
    install([Row("sum", R.sum, params="input, dim=None", call="input, dim",
                 node="'Sum1' if dim is not None else None"),
             Row("__iadd__", E.add, forms="i", inplace="__iadd__")],
            ns, Toy, module="toy", tag=tag, inplace=inplace.update)
    x = Toy.wrap(np.arange(6.0).reshape(2, 3))
    whole, along = ns["sum"](x), ns["sum"](x, 1)
    assert id(whole) not in tags and tags[id(along)] == "Sum1"  # None: not tagged at all
    assert not hasattr(Toy, "__iadd___")
    y = x
    y += 1.0
    assert y is x and x.version == 1
    np.testing.assert_allclose(x.array, np.arange(6.0).reshape(2, 3) + 1)


def test_one_row_gives_function_method_and_inplace_forms():
    """What adding an elementwise op to a dialect takes: one row (here ``exp`` standing
    in for an op the engine adds later)."""
    ns: dict = {}
    install([Row("exp", E.exp, forms="fmi")], ns, Toy, module="toy", inplace=inplace.update)
    x = Toy.wrap(np.array([0.0, 1.0]))
    assert ns["exp"] is E.exp and Toy.exp is E.exp
    assert x.exp_() is x
    np.testing.assert_allclose(x.array, np.exp([0.0, 1.0]))


# ---------------------------------------------------------------- janusgrad.binding.args
from janusgrad.binding import args as A  # noqa: E402


@pytest.mark.parametrize("shape,size,want", [
    ((2, -1), 6, (2, 3)), ((-1,), 0, (0,)), ((0, -1), 0, None), ((3, 2), 6, (3, 2)),
    ((4, -1), 6, None), ((-1, -1), 4, None), ((5,), 6, None), ((-2, 3), 6, None),
    ((), 1, ()), ((1, -1, 1), 7, (1, 7, 1)),
])
def test_infer_shape(shape, size, want):
    assert A.infer_shape(shape, size) == want


def test_split_sizes():
    assert A.sizes_of_step(7, 3) == [3, 3, 1] and A.sizes_of_step(6, 3) == [3, 3]
    assert A.sizes_of_count(6, 3) == [2, 2, 2] and A.sizes_of_count(7, 3) is None
    assert A.sizes_with_rest(7, [2, -1, 1]) == [2, 4, 1]
    assert A.sizes_with_rest(7, [2, 2]) is None and A.sizes_with_rest(3, [2, -1, 2]) is None
    assert A.chunk_step(7, 3) == 3 and A.chunk_step(0, 3) == 1
    assert A.axes_tuple([0, 1]) == (0, 1) and A.axes_tuple(2) == 2 and A.axes_tuple(None) is None


def test_generated_functions_are_not_user_frames_in_anomaly_reports():
    from janusgrad.core import anomaly
    from janusgrad.core.mode import anomaly as flags
    ns: dict = {}
    install([Row("twice", E.mul, params="x", call="x, 2.0")], ns, None, module="toy")
    x = Toy.wrap(np.array([1.0, 2.0]))
    x.set_requires_grad(True)
    flags.enabled = True
    try:
        y = ns["twice"](x)
    finally:
        flags.enabled = False
    stack = anomaly.forward_stack(y.node)
    assert "test_generated_functions_are_not_user_frames" in stack
    assert "janusgrad.binding.surface" not in stack and "toy.twice" not in stack
