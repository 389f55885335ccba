"""Thin layer classes made from rows (janusgrad.nn.rows, issue 23 step 2): the installer's
contract on a toy base, and every made class of each dialect held against the real
framework's class of that name (module, qualname, constructor parameters and defaults,
attributes, repr)."""
from __future__ import annotations

import inspect

import numpy as np
import pytest

from janusgrad.nn.rows import LayerRow, install_layers


class _Base:
    def __init__(self, *args) -> None:
        self.base_args = args
        self.training = True

    def forward(self, x):
        return ("base", x)

    def extra_repr(self) -> str:
        return ""


def _toy() -> dict:
    ns: dict = {}
    names = install_layers([
        LayerRow("Scale", lambda x, a, on: x * a if on else x, "alpha=2.0, on=True",
                 extra_repr="alpha={alpha}{_tail(on)}"),
        LayerRow("Pick{}d", (lambda x, k: (1, x, k), lambda x, k: (2, x, k)), "k, stride=None",
                 "x, k", "k={k}, stride={stride}", "kk=k, stride",
                 "stride = stride if stride is not None else k * _d", dims=(1, 2)),
        LayerRow("Dist", None, "p=2.0", "(x, y, p)", keep="norm=p, fixed=7", inputs="x, y"),
        LayerRow("Same", None, "v=1", base_args="v, 'extra'", keep=""),
    ], ns, base=_Base, module="toy.layers", inputs="x", attr="_{}",
        env={"_tail": lambda on: "" if on else ", on=False"})
    assert names == ["Scale", "Pick1d", "Pick2d", "Dist", "Same"]
    return ns


def test_installer_makes_classes_with_exact_signatures_names_and_state():
    ns = _toy()
    scale = ns["Scale"](3.0, on=False)
    assert (type(scale).__name__, type(scale).__qualname__, type(scale).__module__) == \
        ("Scale", "Scale", "toy.layers")
    assert str(inspect.signature(ns["Scale"])) == "(alpha=2.0, on=True)"
    assert (scale._alpha, scale._on, scale.forward(5)) == (3.0, False, 5)
    assert ns["Scale"]().forward(5) == 10.0
    assert scale.extra_repr() == "alpha=3.0, on=False" and ns["Scale"]().extra_repr() == \
        "alpha=2.0"
    assert ns["Scale"].__init__.__qualname__ == "Scale.__init__"
    # one class per dimension, with its own functional and _d; keep renames and computes
    p2 = ns["Pick2d"](3)
    assert (p2.kk, p2._stride, p2.forward("x")) == (3, 6, (2, "x", 3))
    assert ns["Pick1d"](3)._stride == 3 and p2.extra_repr() == "k=3, stride=6"
    dist = ns["Dist"](3.0)
    assert (dist.norm, dist.fixed, dist.forward(1, 2)) == (3.0, 7, (1, 2, 3.0))
    # neither fn nor call: the base's forward and repr; base_args reach the base
    same = ns["Same"](5)
    assert same.base_args == (5, "extra") and same.forward(1) == ("base", 1)
    assert not hasattr(same, "_v")


def _made(module) -> list[str]:
    return list(module.__all__)


def _same_class(ours, theirs) -> None:
    assert ours.__name__ == theirs.__name__
    assert ours.__qualname__ == theirs.__qualname__
    assert ours.__module__ == theirs.__module__, ours.__name__
    want = {k: p.default for k, p in inspect.signature(theirs).parameters.items()}
    got = {k: p.default for k, p in inspect.signature(ours).parameters.items()}
    assert list(got) == list(want), ours.__name__
    for k, v in want.items():  # the same defaults (torch's 1/8 is 0.125 either way)
        assert got[k] == v or (isinstance(v, float) and np.isclose(got[k], v)), (ours, k)
    # forward takes the same inputs (a two-input layer called with two tensors)
    assert list(inspect.signature(ours.forward).parameters) == \
        list(inspect.signature(theirs.forward).parameters), ours.__name__


def test_torch_row_classes_match_torch():
    torch = pytest.importorskip("torch")
    from torchlike.nn.modules import loss, thin

    for part in (thin, loss):
        for name in _made(part):
            _same_class(getattr(part, name), getattr(torch.nn, name))


def test_paddle_row_classes_match_paddle():
    paddle = pytest.importorskip("paddle")
    from paddlelike.nn import loss, thin

    for name in _made(thin) + _made(loss):
        ours, theirs = getattr(thin, name, None) or getattr(loss, name), getattr(paddle.nn, name)
        if name.startswith(("MaxPool", "AvgPool", "AdaptiveAvgPool", "MaxUnPool", "Pad",
                            "ZeroPad", "Upsample")):
            # layouts default to None here where paddle writes the layout: compare names
            assert list(inspect.signature(ours).parameters) == \
                list(inspect.signature(theirs).parameters), name
            assert ours.__module__ == theirs.__module__, name
            continue
        _same_class(ours, theirs)


@pytest.mark.parametrize("make", [
    lambda nn: nn.ELU(0.5, True), lambda nn: nn.Hardtanh(-2.0, 2.0), lambda nn: nn.ReLU6(True),
    lambda nn: nn.MaxPool2d(3, padding=1), lambda nn: nn.AvgPool1d(2),
    lambda nn: nn.ZeroPad2d(1), lambda nn: nn.ConstantPad1d((1, 2), 0.5),
    lambda nn: nn.Dropout2d(0.25), lambda nn: nn.Softshrink(), lambda nn: nn.GELU("tanh"),
    lambda nn: nn.LeakyReLU(0.2, True), lambda nn: nn.RReLU(), lambda nn: nn.Unflatten(1, (2, 2)),
    lambda nn: nn.MaxUnpool3d(2), lambda nn: nn.LocalResponseNorm(3),
])
def test_torch_row_modules_print_and_keep_as_torch(make):
    torch = pytest.importorskip("torch")
    import torchlike

    ours, theirs = make(torchlike.nn), make(torch.nn)
    assert repr(ours) == repr(theirs)
    for k, v in vars(theirs).items():
        if not k.startswith("_") and k != "training":
            assert getattr(ours, k) == v, k


@pytest.mark.parametrize("make", [
    lambda nn: nn.ELU(0.5), lambda nn: nn.Hardsigmoid(name="h"), lambda nn: nn.SELU(),
    lambda nn: nn.LeakyReLU(0.2, name="l"),
    lambda nn: nn.MaxPool1D(2), lambda nn: nn.AvgPool2D(2, 1), lambda nn: nn.Pad3D(1),
    lambda nn: nn.ZeroPad2D([1, 0, 1, 0]), lambda nn: nn.PixelShuffle(2, "NHWC"),
    lambda nn: nn.Dropout(0.2, name="d"), lambda nn: nn.Upsample(scale_factor=2),
    lambda nn: nn.UpsamplingBilinear2D(size=[4, 4]), lambda nn: nn.LocalResponseNorm(3),
    lambda nn: nn.AdaptiveMaxPool2D(3), lambda nn: nn.Softmax(0),
])
def test_paddle_row_layers_print_and_name_as_paddle(make):
    paddle = pytest.importorskip("paddle")
    import paddlelike

    ours, theirs = make(paddlelike.nn), make(paddle.nn)
    assert repr(ours) == repr(theirs)
    assert isinstance(ours, paddlelike.nn.Layer)
    assert ours.full_name().rsplit("_", 1)[0] == theirs.full_name().rsplit("_", 1)[0]


def test_paddle_row_losses_refuse_a_bad_reduction_before_taking_a_name():
    paddle = pytest.importorskip("paddle")
    import paddlelike

    for mod in (paddle, paddlelike):
        before = int(mod.nn.L1Loss().full_name().rsplit("_", 1)[1])
        with pytest.raises(ValueError) as err:
            mod.nn.L1Loss(reduction="avg")
        with pytest.raises(ValueError) as err2:
            mod.nn.CosineEmbeddingLoss(margin=2)
        assert mod.nn.L1Loss().full_name() == f"l1_loss_{before + 1}"  # no name taken
        if mod is paddle:
            want = (str(err.value), str(err2.value))
    assert (str(err.value), str(err2.value)) == want
