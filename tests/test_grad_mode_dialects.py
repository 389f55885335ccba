"""set_grad_enabled in its three uses (call, context manager, decorator), both dialects."""
import pytest

import paddlelike
import torchlike


def _uses(m):
    m.set_grad_enabled(False)
    called = m.is_grad_enabled()
    m.set_grad_enabled(True)
    with m.set_grad_enabled(False):
        inside = m.is_grad_enabled()
    after = m.is_grad_enabled()

    @m.set_grad_enabled(False)
    def f():
        return m.is_grad_enabled()

    return called, inside, after, f(), m.is_grad_enabled()


@pytest.mark.parametrize("m", [torchlike, paddlelike], ids=["torchlike", "paddlelike"])
def test_set_grad_enabled_uses(m):
    assert _uses(m) == (False, False, True, False, True)


def test_matches_torch():
    torch = pytest.importorskip("torch")
    assert _uses(torchlike) == _uses(torch)


def test_matches_paddle_for_call_and_context():
    # paddle 3.3 leaves grad mode off after *decorating* with set_grad_enabled(False);
    # that is a fault we do not copy, so only the call and context uses are compared.
    paddle = pytest.importorskip("paddle")
    paddle.set_grad_enabled(True)
    theirs = _uses(paddle)
    paddle.set_grad_enabled(True)
    assert _uses(paddlelike)[:3] == theirs[:3]
