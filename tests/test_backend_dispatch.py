"""The array backends: dispatch on array type, devices, transfers, and the test double.

tests/test_ops.py runs the whole op table on ``tests.fake_gpu`` (an array type numpy
refuses); these tests check the pieces that makes that proof hold: the double really is
refused by numpy, the engine finds its module by the array's type, and a CPU-only install
imports quietly without touching cupy.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from janusgrad import Tensor
from janusgrad.array import backend
from janusgrad.ops import elementwise as E

from . import fake_gpu
from .fake_gpu import FakeGpuArray, fake_xp

REPO = Path(__file__).resolve().parents[1]
GPU = backend.Device("gpu", 0)


def test_numpy_refuses_the_fake_device_array_as_it_refuses_cupy_arrays():
    a = FakeGpuArray(np.arange(3.0))
    with pytest.raises(TypeError):
        np.exp(a)
    with pytest.raises(TypeError):
        np.asarray(a)
    with pytest.raises(TypeError):
        np.concatenate([a, a])
    with pytest.raises(TypeError):  # and the device module refuses host arrays
        fake_xp.add(a, np.ones(3))


def test_a_kernel_that_used_numpy_on_device_data_would_fail():
    """What the op table on the fake GPU catches: numpy called on a device array."""
    with fake_gpu.installed():
        x = Tensor(backend.from_host(np.arange(3.0), GPU))
        assert type(E.exp(x).array) is FakeGpuArray
        with pytest.raises(TypeError):
            np.exp(x.array)


def test_a_scalar_first_operand_takes_the_arrays_module_whatever_came_before():
    """kernel() caches a module per operand type: a Python float first met beside another
    scalar (numpy's) must not make ``1.0 - device_array`` use numpy later (found by the
    fake-GPU property tests of bce_with_logits, in some test orders only)."""
    sub = E.kernel("subtract")
    assert sub(1.0, 2.0) is np.subtract and sub(1.0, np.float64(2.0)) is np.subtract
    with fake_gpu.installed():
        a = FakeGpuArray(np.arange(3.0))
        assert sub(1.0, a) is fake_xp.subtract
        x = Tensor(backend.from_host(np.arange(3.0), GPU))
        E.sub(1.0, Tensor(np.float64(2.0)))  # a scalar pair first, then a device operand
        assert type(E.sub(1.0, x).array) is FakeGpuArray


def test_the_module_of_an_array_is_found_by_its_type():
    assert backend.xp_of(np.ones(2)) is np
    assert backend.xp_of(np.float32(1.0)) is np
    assert backend.xp_of(1.5) is np
    with fake_gpu.installed():
        assert backend.xp_of(FakeGpuArray(np.ones(2))) is fake_xp
        assert backend.device_of(FakeGpuArray(np.ones(2))) == GPU
    with pytest.raises(TypeError, match="cannot compute with arrays of type"):
        backend.xp_of(object())


def test_transfers_round_trip_and_stay_put_when_already_there():
    a = np.arange(6.0).reshape(2, 3)
    assert backend.to_device(a, backend.CPU) is a
    with fake_gpu.installed():
        d = backend.to_device(a, GPU)
        assert type(d) is FakeGpuArray and backend.to_device(d, GPU) is d
        back = backend.to_host(d)
        assert type(back) is np.ndarray and np.array_equal(back, a)
        assert backend.gpu_available() and backend.gpu_count() == 1


def test_installing_the_double_is_undone():
    before = backend.gpu_available()
    with fake_gpu.installed():
        assert backend.gpu_available()
    assert backend.gpu_available() == before
    assert FakeGpuArray not in backend.ARRAY_TYPES


def test_asking_for_a_gpu_without_one_is_a_clear_error():
    if backend.gpu_available():
        pytest.skip("a GPU is usable here")
    with pytest.raises(RuntimeError, match="no GPU is usable"):
        backend.from_host(np.ones(2), GPU)


def test_without_a_gpu_janusgrad_imports_quietly_and_leaves_cupy_alone():
    code = ("import sys, warnings; warnings.simplefilter('error');"
            "import engine, torchlike, paddlelike;"
            "x = torchlike.ones(3, requires_grad=True); (x * 2).sum().backward();"
            "assert x.grad.tolist() == [2.0, 2.0, 2.0];"
            "print('cupy' in sys.modules)")
    p = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "False"  # probed only when a device is asked for
    assert "Warning" not in p.stderr


def test_the_double_uses_only_names_cupy_has():
    """An engine kernel that passes on the fake GPU uses nothing cupy lacks."""
    cupy = pytest.importorskip("cupy")
    missing = sorted(n for n in fake_gpu.VOCABULARY if not hasattr(cupy, n))
    missing += sorted(m for m in fake_gpu._METHODS if not hasattr(cupy.ndarray, m))
    assert not missing


def test_the_double_uses_only_special_functions_cupyx_has():
    """The special functions a kernel may call on the fake GPU all exist in cupyx."""
    pytest.importorskip("cupy")
    special = pytest.importorskip("cupyx.scipy.special")
    assert not sorted(n for n in fake_gpu.SPECIAL_VOCABULARY if not hasattr(special, n))
