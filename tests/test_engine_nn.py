"""engine.nn and janusgrad.host.io: the framework-neutral pieces both dialects bind to."""
from __future__ import annotations

import math

import numpy as np
import pytest

from janusgrad import Tensor
from janusgrad.host import io as EIO
from janusgrad.nn import data as ND
from janusgrad.nn import functional as NF
from janusgrad.nn import init as NI
from janusgrad.nn import optim as NO
from janusgrad.nn import schedule as NS
from janusgrad.ops.creation import Generator


def test_batches_cover_the_samples_in_order_or_shuffled():
    assert ND.batch_index_lists(7, 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert ND.batch_index_lists(7, 3, drop_last=True) == [[0, 1, 2], [3, 4, 5]]
    shuffled = ND.batch_index_lists(10, 4, shuffle=True, generator=Generator(1))
    assert sorted(i for b in shuffled for i in b) == list(range(10))
    assert shuffled == ND.batch_index_lists(10, 4, shuffle=True, generator=Generator(1))
    assert ND.number_of_batches(7, 3, False) == 3 and ND.number_of_batches(7, 3, True) == 2


def test_split_lengths_from_fractions_like_torch():
    assert ND.split_lengths(10, [0.3, 0.7]) == [3, 7]
    assert ND.split_lengths(10, [0.34, 0.33, 0.33]) == [4, 3, 3]
    assert ND.split_lengths(5, [0.5, 0.5]) == [3, 2]
    with pytest.raises(ValueError):
        ND.random_split_indices(10, [3, 3])


def test_collate_is_recursive():
    out = ND.collate([{"a": (1, 2.0)}, {"a": (3, 4.0)}], lambda x: False, None,
                     lambda xs: ("numbers", xs))
    assert out == {"a": [("numbers", [1, 3]), ("numbers", [2.0, 4.0])]}


@pytest.mark.parametrize("step", range(0, 12))
def test_chained_schedules_follow_the_closed_forms(step):
    lr_step, lr_exp, lr_cos = 0.1, 0.1, 0.1
    for s in range(1, step + 1):
        lr_step = NS.step_lr_chained(lr_step, s, 3, 0.5)
        lr_exp = NS.exponential_lr_chained(lr_exp, s, 0.9)
        lr_cos = NS.cosine_annealing_chained(lr_cos, 0.1, s, 5, 0.01)
    assert lr_step == pytest.approx(NS.step_lr(0.1, step, 3, 0.5))
    assert lr_exp == pytest.approx(NS.exponential_lr(0.1, step, 0.9))
    assert lr_cos == pytest.approx(NS.cosine_annealing(0.1, step, 5, 0.01), abs=1e-12)


def test_fans_for_either_weight_layout():
    assert NI.fan_in_and_fan_out((4, 3)) == (3, 4)  # torch [out, in]
    assert NI.fan_in_and_fan_out((3, 4), in_axis=0, out_axis=1) == (3, 4)  # paddle [in, out]
    assert NI.fan_in_and_fan_out((8, 2, 3, 3)) == (18, 72)
    with pytest.raises(ValueError):
        NI.fan_in_and_fan_out((5,))
    assert NI.calculate_gain("leaky_relu", math.sqrt(5)) == pytest.approx(math.sqrt(2 / 6))


def test_initialisers_write_in_place_and_bump_the_version():
    t = Tensor(np.zeros((200, 100), np.float32))
    v = t.version
    NI.kaiming_uniform_(t, a=math.sqrt(5), generator=Generator(0))
    assert t.version == v + 1 and t.array.dtype == np.float32
    assert np.abs(t.array).max() <= 1 / math.sqrt(100)
    NI.trunc_normal_(t, std=1.0, a=-0.5, b=0.5, generator=Generator(0))
    assert t.array.min() >= -0.5 and t.array.max() <= 0.5


def test_optimiser_rules_keep_dtype_and_state_tensors():
    p = Tensor(np.ones(3, np.float32), requires_grad=True)
    g = Tensor(np.full(3, 0.5, np.float32))
    state: dict = {}
    NO.adam(p, g, state, lr=0.1)
    assert p.array.dtype == np.float32
    assert set(state) == {"step", "exp_avg", "exp_avg_sq"}
    assert all(isinstance(v, Tensor) for v in state.values())
    np.testing.assert_allclose(p.array, 0.9, rtol=1e-6)  # Adam's first step is lr * sign(g)


def test_losses_by_hand():
    x = Tensor(np.array([[2.0, 0.0, -1.0]]))
    ce = NF.cross_entropy(x, np.array([0]))
    ref = -(2.0 - np.log(np.exp([2.0, 0.0, -1.0]).sum()))
    assert float(ce.array) == pytest.approx(ref)
    assert NF.first_bad_target(3, np.array([0, 3, -100])) == 3
    assert NF.first_bad_target(3, np.array([0, 2, -100])) is None
    z = Tensor(np.array([-800.0, 0.0, 800.0]))
    y = Tensor(np.array([1.0, 0.5, 0.0]))
    out = NF.binary_cross_entropy_with_logits(z, y, reduction="none").array
    np.testing.assert_allclose(out, [800.0, math.log(2), 800.0])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "bool", "uint8", "float16"])
def test_bytes_round_trip(dtype):
    a = (np.arange(12) % 3).astype(dtype).reshape(3, 4)
    data, name, shape = EIO.array_to_bytes(a)
    assert name == dtype and shape == (3, 4)
    b = EIO.array_from_bytes(data, name, shape)
    assert b.flags.writeable and np.array_equal(a, b) and b.dtype == a.dtype


def test_strided_views_of_a_storage():
    flat = np.arange(10, dtype=np.float32)
    np.testing.assert_array_equal(EIO.strided_from_flat(flat, 1, (2, 3), (1, 2)),
                                  [[1, 3, 5], [2, 4, 6]])
    assert EIO.contiguous_strides((2, 3, 4)) == (12, 4, 1)
    assert EIO.strided_from_flat(flat, 4, (), ()) == 4


def test_child_list_core_indexes_edits_and_renumbers():
    from janusgrad.nn.module import ChildList, ModuleCore

    class Box(ChildList, ModuleCore):
        def __init__(self, children=()) -> None:
            self._init_stores()
            self.extend(children)

        def _add_child(self, name, child) -> None:
            self._children[name] = child

    a, b, c, d = (ModuleCore() for _ in range(4))
    for m in (a, b, c, d):
        m._init_stores()
    box = Box([a, b, c])
    assert len(box) == 3 and list(box) == [a, b, c]
    assert box[-1] is c and list(box[1:]) == [b, c] and type(box[1:]) is Box
    with pytest.raises(IndexError, match="index 3 is out of range"):
        box[3]
    box[-3] = d
    assert box[0] is d
    box.insert(1, a)
    assert list(box) == [d, a, b, c] and list(box._children) == ["0", "1", "2", "3"]
    del box[-1]
    del box[:1]
    assert list(box) == [a, b] and list(box._children) == ["0", "1"]
    with pytest.raises(IndexError):
        del box[-3]
    assert Box([lambda x: x + 1, lambda x: x * 2])._run_in_order(3) == 8


def test_nested_walks_keep_mapping_types_and_find_leaves():
    from collections import OrderedDict, defaultdict, namedtuple

    pair = namedtuple("pair", "a b")
    obj = OrderedDict(x=[1, (2, pair(3, "s"))], y=defaultdict(list, z=4))
    out = ND.map_nested(obj, lambda v: isinstance(v, int), lambda v: v * 10)
    assert type(out) is OrderedDict and out["x"] == [10, (20, pair(30, "s"))]
    assert type(out["y"]) is dict and out["y"] == {"z": 40}  # not made from a dict: plain
    assert ND.any_nested({"k": [{5}]}, lambda v: v == 5)
    assert not ND.any_nested({"k": [("a",)]}, lambda v: v == 5)
