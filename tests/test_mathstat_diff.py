"""The math/stat family against real torch where OpInfo's samples are thin: the orthogonal
polynomials over a grid of points and degrees (the ends of the interval, integer and
fractional degrees, large degrees), torch's legacy *_window functions, logspace dtypes."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")
import torchlike  # noqa: E402

POLYS = ("chebyshev_polynomial_t chebyshev_polynomial_u chebyshev_polynomial_v "
         "chebyshev_polynomial_w hermite_polynomial_h hermite_polynomial_he "
         "laguerre_polynomial_l legendre_polynomial_p shifted_chebyshev_polynomial_t "
         "shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v "
         "shifted_chebyshev_polynomial_w").split()
X = [-2.5, -1.0, -0.999, -0.7, -0.3, 0.0, 0.2, 0.5, 0.93, 1.0, 1.5, 3.0]
N = [-3.0, -0.5, 0.0, 1.0, 2.0, 2.7, 3.0, 5.0, 7.0, 8.0, 9.0, 12.0, 20.0, float("nan")]


@pytest.mark.parametrize("name", POLYS)
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_polynomial_grid(name, dtype):
    x = np.array(X, dtype=dtype)[:, None]
    n = np.array(N, dtype=dtype)[None, :]
    exp = getattr(torch.special, name)(torch.tensor(x), torch.tensor(n)).numpy()
    got = getattr(torchlike.special, name)(torchlike.tensor(x), torchlike.tensor(n))
    assert str(got.dtype) == f"torch.{dtype}"
    tol = 1e-9 if dtype == "float64" else 1e-4
    np.testing.assert_allclose(got.numpy(), exp, rtol=tol, atol=tol * np.abs(exp).max())


@pytest.mark.parametrize("name", POLYS[:3])
def test_polynomial_scalar_and_int_operands(name):
    exp = getattr(torch.special, name)(torch.tensor([1, 2, 3]), 3)
    got = getattr(torchlike.special, name)(torchlike.tensor([1, 2, 3]), 3)
    assert str(got.dtype) == "torch.float32"
    np.testing.assert_allclose(got.numpy(), exp.numpy(), rtol=1e-6)
    exp = getattr(torch.special, name)(0.3, torch.tensor([2.0, 4.0], dtype=torch.float64))
    got = getattr(torchlike.special, name)(0.3, torchlike.tensor([2.0, 4.0],
                                                                dtype=torchlike.float64))
    np.testing.assert_allclose(got.numpy(), exp.numpy(), rtol=1e-12)


@pytest.mark.parametrize("name", ["hamming_window", "hann_window", "bartlett_window",
                                  "blackman_window", "kaiser_window"])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_legacy_windows(name, n, periodic, dtype):
    exp = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype))
    got = getattr(torchlike, name)(n, periodic, dtype=getattr(torchlike, dtype))
    assert tuple(got.shape) == tuple(exp.shape) and str(got.dtype) == f"torch.{dtype}"
    np.testing.assert_allclose(got.numpy(), exp.numpy(), rtol=1e-5, atol=1e-6)


def test_window_parameters():
    np.testing.assert_allclose(torchlike.hamming_window(7, False, 0.6, 0.3).numpy(),
                               torch.hamming_window(7, False, 0.6, 0.3).numpy(), atol=1e-6)
    np.testing.assert_allclose(torchlike.kaiser_window(9, True, 3.0).numpy(),
                               torch.kaiser_window(9, True, 3.0).numpy(), atol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int64"])
def test_logspace(dtype):
    exp = torch.logspace(-2, 3, 7, base=2.0, dtype=getattr(torch, dtype))
    got = torchlike.logspace(-2, 3, 7, base=2.0, dtype=getattr(torchlike, dtype))
    assert str(got.dtype) == f"torch.{dtype}"
    np.testing.assert_allclose(got.numpy(), exp.numpy(), rtol=1e-6)
