"""paddle.summary against real paddle 3.3.1: the printed table and totals (captured stdout,
compared exactly) and the returned dict, for an MLP, LeNet, a block with BatchNorm2D
(non-trainable statistics), recurrent models, several inputs, frozen parameters, the input
forms (sizes, dtypes, tensors, lists, dicts) and the argument errors."""
import pytest

import paddlelike

paddle = pytest.importorskip("paddle")


def _models(m, which):
    """(layer, summary keyword arguments) of model ``which`` built with module ``m``."""
    nn = m.nn
    if which == "mlp":
        return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(),
                             nn.Linear(256, 10)), dict(input_size=(1, 1, 28, 28))
    if which == "lenet":
        return nn.Sequential(
            nn.Conv2D(1, 6, kernel_size=5, padding=2), nn.Sigmoid(),
            nn.AvgPool2D(kernel_size=2, stride=2), nn.Conv2D(6, 16, kernel_size=5),
            nn.Sigmoid(), nn.MaxPool2D(kernel_size=2, stride=2), nn.Flatten(),
            nn.Linear(16 * 5 * 5, 120), nn.Sigmoid(), nn.Linear(120, 84), nn.ReLU(),
            nn.Linear(84, 10)), dict(input_size=(None, 1, 28, 28))
    if which == "lenet-minus1":
        return nn.Sequential(nn.Conv2D(1, 6, 3, padding=1), nn.ReLU(), nn.MaxPool2D(2, 2),
                             nn.Flatten(), nn.Linear(6 * 14 * 14, 10)), \
            dict(input_size=(-1, 1, 28, 28), dtypes="float32")
    if which == "bn":
        class Block(nn.Layer):
            def __init__(self):
                super().__init__()
                self.conv = nn.Conv2D(3, 8, 3, padding=1)
                self.bn = nn.BatchNorm2D(8)
                self.relu = nn.ReLU()

            def forward(self, x):
                return self.relu(self.bn(self.conv(x)))

        class Net(nn.Layer):
            def __init__(self):
                super().__init__()
                self.b1 = Block()
                self.b2 = Block()
                self.pool = nn.AdaptiveAvgPool2D((1, 1))
                self.fc = nn.Linear(8, 10)

            def forward(self, x):
                x = self.pool(self.b1(x))
                return self.fc(m.flatten(x, 1))
        return Net(), dict(input_size=(2, 3, 8, 8), dtypes="float32")
    if which == "bn1d":
        return nn.Sequential(nn.Linear(6, 4), nn.BatchNorm1D(4), nn.ReLU()), \
            dict(input_size=(3, 6))
    if which == "lstm":
        class LM(nn.Layer):
            def __init__(self):
                super().__init__()
                self.emb = nn.Embedding(28, 16)
                self.rnn = nn.LSTM(16, 32, num_layers=2)
                self.out = nn.Linear(32, 28)

            def forward(self, x):
                y, (h, c) = self.rnn(self.emb(x))
                return self.out(y)
        return LM(), dict(input=m.randint(0, 28, [4, 7]))
    if which == "gru":
        class G(nn.Layer):
            def __init__(self):
                super().__init__()
                self.rnn = nn.GRU(5, 6, direction="bidirect")
                self.out = nn.Linear(12, 3)

            def forward(self, x):
                y, h = self.rnn(x)
                return self.out(y)
        return G(), dict(input_size=[(3, 4, 5)])
    if which == "lstm-alone":
        return nn.LSTM(4, 5), dict(input_size=(2, 3, 4))
    if which == "simplernn-alone":
        return nn.SimpleRNN(4, 5, num_layers=2, time_major=True), dict(input_size=(3, 2, 4))
    if which == "linear-alone":
        return nn.Linear(4, 5), dict(input_size=4)
    if which == "ints-as-list":  # a list of ints is one 1-d input per int
        class Two(nn.Layer):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(1, 2)
                self.b = nn.Linear(3, 2)

            def forward(self, x, y):
                return self.a(x) + self.b(y)
        return Two(), dict(input_size=[1, 3])
    if which in ("two-inputs", "list-input", "dict-input"):
        class M(nn.Layer):
            def __init__(self):
                super().__init__()
                self.a = nn.Linear(3, 4)
                self.b = nn.Linear(5, 4)

            def forward(self, x, y=None):
                if isinstance(x, dict):
                    x, y = x["x"], x["y"]
                elif isinstance(x, list):
                    x, y = x
                return self.a(x) + self.b(y), self.a(x)  # self.a twice: one row
        if which == "two-inputs":
            return M(), dict(input_size=[(2, 3), (2, 5)], dtypes=["float32", "float32"])
        xs = [m.rand([2, 3]), m.rand([2, 5])]
        return M(), dict(input=xs if which == "list-input" else {"x": xs[0], "y": xs[1]})
    if which == "frozen":
        net = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 2))
        net[0].weight.stop_gradient = True
        return net, dict(input_size=(1, 3))
    if which == "wide":  # long names and shapes widen the columns
        class AVeryLongLayerClassNameForTheTable(nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(2, 3)

            def forward(self, x):
                return [self.fc(x), x]
        return nn.Sequential(AVeryLongLayerClassNameForTheTable()), \
            dict(input_size=(1, 2, 1, 3, 1, 2, 1, 2))
    if which == "int64":
        return nn.Sequential(nn.Embedding(10, 3), nn.Tanh()), dict(input_size=(5, 3),
                                                                   dtypes="int64")
    if which == "no-params":  # the totals stay plain ints
        return nn.Sequential(nn.ReLU(), nn.Flatten()), dict(input_size=(2, 3, 4))
    raise KeyError(which)


CASES = ["mlp", "lenet", "lenet-minus1", "bn", "bn1d", "lstm", "gru", "lstm-alone",
         "simplernn-alone", "linear-alone", "ints-as-list", "two-inputs", "list-input",
         "dict-input", "frozen", "wide", "int64", "no-params"]


def _summary(m, which, capsys):
    with m.utils.unique_name.guard():  # layer numbers count from 1, as in a fresh process
        net, kw = _models(m, which)
    capsys.readouterr()
    result = m.summary(net, **kw)
    return capsys.readouterr().out, result, net.training


@pytest.mark.parametrize("which", CASES)
def test_summary_matches_paddle(which, capsys):
    real_text, real, real_training = _summary(paddle, which, capsys)
    text, ours, training = _summary(paddlelike, which, capsys)
    assert text == real_text
    assert repr(ours) == repr(real)  # the counts are numpy int64 in both
    assert ours == real
    assert training == real_training is True


def test_summary_lenet_docstring_table(capsys):
    """The numbers of paddle's own docstring example (a fresh LeNet)."""
    nn = paddlelike.nn
    with paddlelike.utils.unique_name.guard():
        net = nn.Sequential(nn.Conv2D(1, 6, 3, stride=1, padding=1), nn.ReLU(),
                            nn.MaxPool2D(2, 2), nn.Conv2D(6, 16, 5, stride=1, padding=0),
                            nn.ReLU(), nn.MaxPool2D(2, 2), nn.Flatten(),
                            nn.Linear(400, 120), nn.Linear(120, 84), nn.Linear(84, 10))
    info = paddlelike.summary(net, (1, 1, 28, 28))
    out = capsys.readouterr().out
    assert info == {"total_params": 61610, "trainable_params": 61610}
    assert "   Conv2D-2       [[1, 6, 14, 14]]     [1, 16, 10, 10]         2,416" in out
    assert "Forward/backward pass size (MB): 0.11\n" in out
    assert "Estimated Total Size (MB): 0.35\n" in out


def test_summary_keeps_eval_mode(capsys):
    for m in (paddle, paddlelike):
        net = m.nn.Sequential(m.nn.Linear(2, 2))
        net.eval()
        m.summary(net, (1, 2))
        assert net.training is False


@pytest.mark.parametrize("kw", [
    {}, dict(input_size=(None, None, 3)), dict(input_size=(1, 0, 3)),
    dict(input_size=(-1, -2)), dict(input_size=[(1, 2), [1, 2]]), dict(input=3.0)])
def test_summary_errors_match_paddle(kw):
    caught = []
    for m in (paddle, paddlelike):
        net = m.nn.Linear(2, 2)
        with pytest.raises(Exception) as info:
            m.summary(net, **kw)
        caught.append((type(info.value), str(info.value)))
    assert caught[0] == caught[1]


def test_unique_name_guard_matches_paddle():
    def names(m):
        before = int(m.utils.unique_name.generate("fc").split("_")[-1])
        with m.utils.unique_name.guard():
            a, b = m.nn.Linear(2, 2), m.nn.Linear(2, 2)
            made = [a.full_name(), b.full_name(), m.utils.unique_name.generate("fc"),
                    m.utils.unique_name.generate("fc"), a.weight.name]
        after = int(m.utils.unique_name.generate("fc").split("_")[-1])
        return made, after - before

    (real, real_after), (ours, ours_after) = names(paddle), names(paddlelike)
    assert ours == real == ["linear_0", "linear_1", "fc_0", "fc_1", "linear_0.w_0"]
    assert ours_after == real_after == 1  # the outer counters are back
