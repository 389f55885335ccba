"""The binding layer as strict data (issue 23 step 1): one row per public name and form,
in-place and method forms with the function form's keywords, one keyword-alias mechanism
refusing a name and its alias both given (torch's and paddle's errors), and the operands of
an in-place call reaching the engine's update (so the change is recorded)."""
from __future__ import annotations

import collections
import importlib
import inspect
import warnings

import numpy as np
import pytest

from janusgrad.binding.surface import Row, _public_names, install
from janusgrad.core import inplace
from janusgrad.core.tensor import Tensor
from janusgrad.ops import elementwise as E


class Toy(Tensor):
    __slots__ = ()


# ---------------------------------------------------------------- the installer, on a toy
def test_install_refuses_a_second_row_for_one_name_and_form():
    with pytest.raises(ValueError, match="two rows for the toy function div"):
        install([Row("div", E.div), Row("div", E.mul)], {}, Toy, module="toy")
    with pytest.raises(ValueError, match="in-place method clip_"):
        install([Row("clamp", E.clamp, forms="i", aliases=("clip",)),
                 Row("clip", E.clamp, forms="fmi")], {}, Toy, module="toy",
                inplace=inplace.update)
    ns: dict = {}  # one name as a function and, from another row, as a method: two forms
    install([Row("where", E.where_, forms="f"),
             Row("where", E.where_, "self, condition, other", "condition, self, other", "m")],
            ns, Toy, module="toy")
    assert ns["where"] is E.where_ and Toy.where is not E.where_


def _scaled(input, other, *, alpha=1.0):  # noqa: A002 - a hand-written row's function
    return E.add(input, E.mul(other, alpha))


def test_a_bound_rows_inplace_form_takes_its_keywords_and_records_every_operand():
    install([Row("scaled", _scaled, forms="fmi")], {}, Toy, module="toy",
            inplace=inplace.update)
    assert str(inspect.signature(Toy.scaled_)) == "(input, other, *, alpha=1.0)"
    x = Toy.wrap(np.zeros(3))
    y = Toy.wrap(np.ones(3))
    y.set_requires_grad(True)
    x.scaled_(other=y, alpha=2.0)  # every operand by keyword
    np.testing.assert_allclose(x.array, [2.0, 2.0, 2.0])
    assert x.requires_grad and x.node is not None
    with pytest.raises(TypeError, match=r"scaled_\(\) got an unexpected keyword argument"):
        x.scaled_(y, beta=1.0)


def test_both_given_is_the_installers_error_and_a_row_may_declare_its_own_aliases():
    ns: dict = {}

    def both(name, param, alias):
        return ValueError(f"{name}: {param}/{alias}")

    install([Row("total", "reduce.sum", "x, axis=None", "x, axis",
                 kw_aliases=(("axis", "dim"),)),
             Row("plain", "reduce.sum", "x, axis=None", "x, axis")],
            ns, None, module="toy", both=both)
    x = Toy.wrap(np.arange(6.0).reshape(2, 3))
    np.testing.assert_allclose(ns["total"](x, dim=1).array, [3.0, 12.0])
    with pytest.raises(ValueError, match="total: axis/dim"):
        ns["total"](x, axis=0, dim=1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'dim'"):
        ns["plain"](x, dim=1)  # no alias declared, none taken
    assert list(inspect.signature(ns["total"]).parameters) == ["x", "axis", "dim"]
    assert inspect.signature(ns["total"]).parameters["axis"].default is None


# ---------------------------------------------------------------- the dialects' tables
def _installs(dialect):
    """(public module, what install made, Tensor class or None) of every table."""
    if dialect == "torch":
        import torchlike
        from torchlike import _table as T
        from torchlike import masked
        return [(torchlike, T.INSTALLED, torchlike.Tensor),
                (torchlike.special, T.INSTALLED_SPECIAL, None),
                (torchlike.linalg, T.INSTALLED_LINALG, None),
                (masked, masked.INSTALLED_MASKED, None)]
    import paddlelike
    from paddlelike import creation, tensor
    from paddlelike.nn import functional
    return [(paddlelike, tensor.INSTALLED, paddlelike.Tensor),
            (paddlelike.linalg, tensor.INSTALLED_LINALG, None),
            (paddlelike, creation.INSTALLED, None),
            (paddlelike.nn.functional, functional.INSTALLED, None)]


def _forms(dialect):
    """(label, callable, the row's Installed, form) of every installed callable."""
    for module, made, cls in _installs(dialect):
        for inst in {id(i): i for i in made.values()}.values():
            for form, name in _public_names(inst.row, cls):
                owner = module if form == "f" else cls
                yield (f"{module.__name__}.{name}" if form == "f" else
                       f"Tensor.{name}"), getattr(owner, name), inst, form


@pytest.mark.parametrize("table", ["torchlike._table", "paddlelike._table"])
def test_the_tables_have_one_row_per_public_name_and_form(table):
    rows = importlib.import_module(table).ROWS
    count = collections.Counter(key for row in rows for key in _public_names(row, Tensor))
    assert sorted(k for k, n in count.items() if n > 1) == []


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
def test_every_installed_callable_is_the_public_one(dialect):
    """Nothing replaces an installed callable later (a second row, a hand-written
    assignment)."""
    replaced = [label for label, public, inst, form in _forms(dialect)
                if public is not {"f": inst.function, "m": inst.method,
                                  "i": inst.inplace}[form]]
    assert replaced == []


def _keywords(fn) -> set | None:
    """The names a call may give by keyword (None: any, a ``**kwargs``)."""
    ps = inspect.signature(fn).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in ps):
        return None
    return {p.name for p in ps if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


@pytest.mark.parametrize("dialect", ["torch", "paddle"])
def test_inplace_and_method_forms_take_every_keyword_of_the_function_form(dialect):
    lacking = []
    for _, made, _ in _installs(dialect):
        for inst in {id(i): i for i in made.values()}.values():
            full = inst.function or inst.method
            if inst.inplace is None or full is None:  # (an in-place form alone: nothing to match)
                continue
            want = _keywords(full)
            for f in (inst.method, inst.inplace):
                got = None if f is None else _keywords(f)
                if f is not None and got is not None and (want is None or not want <= got):
                    lacking.append(f"{inst.row.name}: {f.__name__} lacks "
                                   f"{sorted((want or {'**'}) - (got or set()))}")
    assert lacking == []


_TORCH_ALIASES = {"dim": "axis", "keepdim": "keepdims"}


def _call_with_both(fn, param, alias):
    """Call ``fn`` giving ``param`` and ``alias`` (and None for each other required
    parameter): the alias check comes first, so nothing else needs to be valid."""
    args, kwargs = [], {param: 0, alias: 1}
    for p in inspect.signature(fn).parameters.values():
        if p.default is p.empty and p.name not in (param, alias):
            if p.kind is p.POSITIONAL_ONLY:
                args.append(None)
            elif p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
                kwargs[p.name] = None
    fn(*args, **kwargs)


def _torch_public_callables():
    import torchlike
    import torchlike.nn.functional as F
    for owner in (torchlike, torchlike.Tensor, F, torchlike.linalg, torchlike.special):
        for name in dir(owner):
            obj = getattr(owner, name)
            if not name.startswith("__") and callable(obj) and not isinstance(obj, type):
                yield f"{getattr(owner, '__name__', owner)}.{name}", obj


def test_torch_refuses_a_name_and_its_alias_both_given_everywhere():
    """Every torchlike callable that takes ``axis`` for ``dim`` (or ``keepdims`` for
    ``keepdim``) refuses both, as torch does: TypeError, the alias unexpected."""
    silent, checked = [], 0
    for label, fn in _torch_public_callables():
        try:
            ps = inspect.signature(fn).parameters
        except (TypeError, ValueError):
            continue
        for param, alias in _TORCH_ALIASES.items():
            if param in ps and alias in ps:
                checked += 1
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        _call_with_both(fn, param, alias)
                    except TypeError as e:
                        if f"unexpected keyword argument '{alias}'" in str(e):
                            continue
                        silent.append(f"{label}: {e}")
                    except Exception as e:  # noqa: BLE001 - anything else went past the check
                        silent.append(f"{label}: {type(e).__name__}: {e}")
                    else:
                        silent.append(f"{label}: accepted")
    assert silent == [] and checked > 100


def test_paddle_refuses_a_declared_name_and_alias_both_given_in_paddles_words():
    from paddlelike._table import both_given
    wrong, checked = [], 0
    for label, fn, inst, _ in _forms("paddle"):
        for param, alias in inst.row.kw_aliases or ():
            checked += 1
            want = both_given(fn.__name__, param, alias)
            try:
                _call_with_both(fn, param, alias)
            except type(want) as e:
                if str(e) != str(want):
                    wrong.append(f"{label}: {e}")
            else:
                wrong.append(f"{label}: accepted")
    assert wrong == [] and checked > 40


# ---------------------------------------------------------------- against real torch
def _torch_inplace_keyword_calls(m):
    x = m.arange(6.0).reshape(2, 3)
    i = m.tensor([[0, 0, 1], [2, 2, 1]])
    return [
        x.clone().div_(m.full((2, 3), 4.0), rounding_mode="floor"),
        x.clone().divide_(m.full((2, 3), 4.0), rounding_mode="trunc"),
        (x.clone() / 7).round_(decimals=1),
        x.clone().reshape(-1).put_(m.tensor([0, 0, 5]), m.tensor([1.0, 2.0, 3.0]),
                                   accumulate=True),
        x.clone().scatter_reduce_(1, i, m.ones(2, 3), reduce="sum", include_self=False),
        x.clone().cumsum_(dim=0),
        x.clone().cumsum_(axis=1),
        x.clone().clamp_(min=1.0, max=4.0),
    ]


def test_torch_inplace_forms_take_keywords():
    torch = pytest.importorskip("torch")
    import torchlike
    for want, got in zip(_torch_inplace_keyword_calls(torch),
                         _torch_inplace_keyword_calls(torchlike), strict=True):
        np.testing.assert_allclose(np.asarray(got.tolist()), np.asarray(want.tolist()),
                                   rtol=1e-6)


_TORCH_BOTH = {
    "sum": lambda m, x: m.sum(x, dim=0, axis=1),
    "sum_method_keepdims": lambda m, x: x.sum(dim=0, keepdim=True, keepdims=True),
    "max": lambda m, x: m.max(x, dim=0, axis=1),
    "max_method": lambda m, x: x.max(dim=0, axis=1),
    "cumsum": lambda m, x: m.cumsum(x, dim=0, axis=1),
    "cumsum_inplace": lambda m, x: x.cumsum_(dim=0, axis=1),
    "cat": lambda m, x: m.cat([x, x], dim=0, axis=1),
    "softmin": lambda m, x: m.nn.functional.softmin(x, dim=0, axis=1),
    "size": lambda m, x: x.size(dim=0, axis=1),
}


@pytest.mark.parametrize("label", sorted(_TORCH_BOTH))
def test_torch_both_names_given_is_a_type_error(label):
    torch = pytest.importorskip("torch")
    import torchlike
    with pytest.raises(TypeError) as want:
        _TORCH_BOTH[label](torch, torch.ones(2, 3))
    with pytest.raises(TypeError) as got:
        _TORCH_BOTH[label](torchlike, torchlike.ones(2, 3))
    if "unexpected keyword" in str(want.value):  # (max: torch's overload message)
        assert str(got.value) == str(want.value)
    assert torchlike.sum(torchlike.ones(2, 3), axis=None).item() == 6.0  # axis alone: fine


@pytest.mark.parametrize("op", ["addcmul", "lerp"])
def test_torch_inplace_update_records_an_operand_that_requires_grad(op):
    torch = pytest.importorskip("torch")
    import torchlike

    def run(m):
        x = m.zeros(3)
        y = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
        if op == "addcmul":
            x.addcmul_(y, y, value=2)
        else:
            x.lerp_(y, 0.5)
        (x * m.arange(3.0)).sum().backward()
        return type(x.grad_fn).__name__, y.grad.tolist()

    assert run(torchlike) == run(torch)


# ---------------------------------------------------------------- against real paddle
def _paddle_calls():
    return {
        "sum_both": lambda m, x: m.sum(x, axis=0, dim=1),
        "sum_dim": lambda m, x: m.sum(x, dim=1),
        "sum_method_both": lambda m, x: x.sum(axis=0, dim=1),
        "amax_both": lambda m, x: m.amax(x, axis=0, dim=1),
        "mean_both": lambda m, x: m.mean(x, axis=0, dim=1),
        "cumsum_dim": lambda m, x: m.cumsum(x, dim=1),
        "cumsum_both": lambda m, x: m.cumsum(x, axis=0, dim=1),
        "cumsum_unknown": lambda m, x: m.cumsum(x, foo=1),
        "cumprod_axis": lambda m, x: m.cumprod(x, axis=1),
        "var_both": lambda m, x: m.var(x, axis=0, dim=1),
        "concat_both": lambda m, x: m.concat([x, x], axis=0, dim=1),
        "unbind_both": lambda m, x: m.unbind(x, axis=0, dim=1),
        "max_dim": lambda m, x: m.max(x, dim=1),
        "argmax_keepdims": lambda m, x: m.argmax(x, axis=1, keepdims=True),
        "divide_inplace_y": lambda m, x: x.clone().divide_(y=x + 1),
        "round_inplace_decimals": lambda m, x: (x / 7).round_(decimals=1),
    }


@pytest.mark.parametrize("label", sorted(_paddle_calls()))
def test_paddle_keyword_aliases_match_real_paddle(label):
    paddle = pytest.importorskip("paddle")
    import paddlelike
    call = _paddle_calls()[label]
    data = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    try:
        want = call(paddle, paddle.to_tensor(data))
    except (TypeError, ValueError) as e:
        with pytest.raises(type(e)) as got:
            call(paddlelike, paddlelike.to_tensor(data))
        if label != "max_dim":  # (paddle's hint to paddle.compat.max is left out)
            assert str(got.value) == str(e)
        return
    got = call(paddlelike, paddlelike.to_tensor(data))
    np.testing.assert_allclose(np.asarray(got.tolist()), np.asarray(want.tolist()), rtol=1e-6)


@pytest.mark.parametrize("op", ["divide", "lerp"])
def test_paddle_inplace_update_records_an_operand_that_requires_grad(op):
    paddle = pytest.importorskip("paddle")
    import paddlelike

    def run(m):
        x = m.ones([3])
        y = m.to_tensor([1.0, 2.0, 3.0])
        y.stop_gradient = False
        if op == "divide":
            x.divide_(y=y)
        else:
            x.lerp_(y, 0.5)
        (x * x).sum().backward()
        return y.grad.tolist()

    np.testing.assert_allclose(run(paddlelike), run(paddle), rtol=1e-6)
