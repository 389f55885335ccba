"""The drop-in runner (janusgrad.host.dropin, `python -m torchlike` / `python -m paddlelike`).

Scripts are written to tmp_path and run in a subprocess, as a user would run them.
Most tests use a small fake shim (`fakeshim` serving `fakefw`) so that they check the
runner's machinery independently of what the real frontends implement so far.
"""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

FAKE_SHIM = {
    "fakeshim/__init__.py": """
        from janusgrad.host.dropin import module_getattr
        from . import nn
        def ones():
            return "fake ones"
        __getattr__ = module_getattr("fakeshim", "fakefw")
    """,
    "fakeshim/nn/__init__.py": """
        from janusgrad.host.dropin import module_getattr
        __getattr__ = module_getattr("fakeshim", "fakefw.nn")
    """,
    "fakeshim/nn/functional.py": """
        from janusgrad.host.dropin import module_getattr
        def relu(x):
            return max(x, 0)
        __getattr__ = module_getattr("fakeshim", "fakefw.nn.functional")
    """,
    "fakeshim/autograd.py": """
        def backward():
            return "fake backward"
    """,
    "fakeshim/broken.py": """
        import a_dependency_that_does_not_exist
    """,
}

RUN_FAKE = ("import sys; from janusgrad.host.dropin import run; "
            "sys.exit(run(sys.argv[1], sys.argv[2:], public='fakefw', shim='fakeshim'))")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        p = root / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(text).lstrip("\n"))


def _env(extra_path: Path | None = None) -> dict:
    env = dict(os.environ)
    paths = [str(REPO)] + ([str(extra_path)] if extra_path else [])
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    return env


@pytest.fixture
def fake(tmp_path):
    """Run a script under the fake shim: fake(script_text, *args) -> CompletedProcess."""
    shim_dir = tmp_path / "shimroot"
    _write(shim_dir, FAKE_SHIM)
    script_dir = tmp_path / "scripts"
    script_dir.mkdir()

    def go(text: str, *args: str, cwd: Path | None = None):
        script = script_dir / "script.py"
        script.write_text(textwrap.dedent(text).lstrip("\n"))
        return subprocess.run([sys.executable, "-c", RUN_FAKE, str(script), *args],
                              capture_output=True, text=True, env=_env(shim_dir),
                              cwd=cwd or tmp_path, timeout=120)

    go.script = script_dir / "script.py"
    return go


def _lines(proc) -> list[str]:
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()


# ------------------------------------------------------------- running the script
def test_argv_name_file_and_path(fake, tmp_path):
    p = fake("""
        import os, sys
        print(sys.argv[1:])
        print(__name__)
        print(__file__ == os.path.abspath(sys.argv[0]))
        print(sys.path[0] == os.path.dirname(os.path.abspath(__file__)))
        print(sys.modules["__main__"].__dict__ is globals())
    """, "a", "--b=1", cwd=tmp_path)
    assert _lines(p) == ["['a', '--b=1']", "__main__", "True", "True", "True"]


def test_script_folder_modules_importable_from_elsewhere(fake, tmp_path):
    (fake.script.parent / "helper_mod.py").write_text("VALUE = 42\n")
    p = fake("import helper_mod\nprint(helper_mod.VALUE)\n", cwd=tmp_path)
    assert _lines(p) == ["42"]


def test_dataclass_in_script_works(fake):
    # dataclasses look the defining module up in sys.modules["__main__"]
    p = fake("""
        import dataclasses
        @dataclasses.dataclass
        class P:
            x: int
        print(P(3))
    """)
    assert _lines(p) == ["P(x=3)"]


@pytest.mark.parametrize("body, code, err", [
    ("pass", 0, ""),
    ("import sys; sys.exit()", 0, ""),
    ("import sys; sys.exit(3)", 3, ""),
    ("raise SystemExit(7)", 7, ""),
    ("import sys; sys.exit('bad thing')", 1, "bad thing\n"),
])
def test_exit_codes(fake, body, code, err):
    p = fake(body)
    assert p.returncode == code
    assert p.stderr == err


def test_uncaught_exception_prints_like_python(fake):
    text = """
        def inner(x):
            return 1 / x

        def outer():
            try:
                {}["k"]
            except KeyError:
                inner(0)

        print("before")
        outer()
    """
    p = fake(text)
    plain = subprocess.run([sys.executable, str(fake.script)], capture_output=True, text=True)
    assert p.returncode == plain.returncode == 1
    assert p.stdout == plain.stdout == "before\n"
    assert p.stderr == plain.stderr
    assert "dropin" not in p.stderr


def test_syntax_error_prints_like_python(fake):
    p = fake("x = (1,\nprint(x\n")
    plain = subprocess.run([sys.executable, str(fake.script)], capture_output=True, text=True)
    assert p.returncode == plain.returncode == 1
    assert p.stderr == plain.stderr


# ------------------------------------------------------------- import resolution
def test_public_names_are_the_shim_modules(fake):
    p = fake("""
        import sys
        import fakefw
        import fakefw.nn.functional as F
        from fakefw import autograd
        import fakeshim, fakeshim.nn.functional, fakeshim.autograd
        print(fakefw is fakeshim, sys.modules["fakefw"] is fakeshim)
        print(F is fakeshim.nn.functional, sys.modules["fakefw.nn.functional"] is F)
        print(fakefw.nn is fakeshim.nn, autograd is fakeshim.autograd)
        print(fakefw.ones(), F.relu(-2), autograd.backward())
        print(fakeshim.__name__, fakeshim.__spec__.name, F.__name__)
    """)
    assert _lines(p) == ["True True", "True True", "True True", "fake ones 0 fake backward",
                         "fakeshim fakeshim fakeshim.nn.functional"]


def test_submodule_reached_by_attribute_is_imported(fake):
    p = fake("import fakefw\nprint(fakefw.autograd.backward())\n")
    assert _lines(p) == ["fake backward"]


def test_hasattr_and_getattr_default_still_work(fake):
    p = fake("""
        import fakefw
        print(hasattr(fakefw, "compile"), getattr(fakefw, "compile", "dflt"))
        print(hasattr(fakefw, "ones"))
    """)
    assert _lines(p) == ["False dflt", "True"]


MISSING_CASES = [
    ("import fakefw\nfakefw.compile(1)", "fakefw.compile"),
    ("import fakefw.nn.functional as F\nF.gelu(1)", "fakefw.nn.functional.gelu"),
    ("from fakefw.nn.functional import gelu", "fakefw.nn.functional.gelu"),
    ("import fakefw.fft\nfakefw.fft.rfft(1)", "fakefw.fft.rfft"),
    ("from fakefw.fft import rfft", "fakefw.fft.rfft"),
    ("from fakefw import compile", "fakefw.compile"),
    ("import fakefw\nfakefw.fft", "fakefw.fft"),
    ("import fakefw.distributions.normal as N\nN.Normal", "fakefw.distributions.normal.Normal"),
]


@pytest.mark.parametrize("text, qualname", MISSING_CASES)
def test_missing_api_is_named(fake, text, qualname):
    p = fake(text)
    assert p.returncode == 1
    last = text.splitlines()[-1]
    # Python 3.11+ may underline the failing expression; that line is Python's business
    shown = "".join(line for line in p.stderr.splitlines(keepends=True)
                    if line.strip(" ^~\n"))
    assert shown == (
        "Traceback (most recent call last):\n"
        f'  File "{fake.script}", line {len(text.splitlines())}, in <module>\n'
        f"    {last}\n"
        f"NotImplementedError: fakeshim does not implement {qualname}\n")


def test_missing_api_can_be_caught_as_not_implemented(fake):
    p = fake("""
        import fakefw.fft
        try:
            fakefw.fft.rfft
        except NotImplementedError as e:
            print(type(e).__name__, e)
    """)
    assert _lines(p) == ["NotImplementedError fakeshim does not implement fakefw.fft.rfft"]


def test_private_missing_submodule_is_module_not_found(fake):
    p = fake("""
        try:
            import fakefw._C
        except ModuleNotFoundError as e:
            print(e.name)
    """)
    assert _lines(p) == ["fakefw._C"]


def test_shim_import_failure_is_not_masked(fake):
    p = fake("import fakefw.broken")
    assert p.returncode == 1
    assert p.stderr.splitlines()[-1] == (
        "ModuleNotFoundError: No module named 'a_dependency_that_does_not_exist'")


def test_other_packages_are_untouched(fake):
    p = fake("""
        try:
            import fakefwx
        except ModuleNotFoundError as e:
            print(e.name)
    """)
    assert _lines(p) == ["fakefwx"]


def test_in_process_run_restores_state(tmp_path):
    from janusgrad.host.dropin import run

    script = tmp_path / "s.py"
    script.write_text("import sys, json\nimport json as fakeshim_json\nsys.exit(5)\n")
    before = (list(sys.argv), list(sys.path), sys.modules["__main__"], list(sys.meta_path))
    assert run(str(script), [], public="jsonpublic", shim="json", restore=True) == 5
    after = (list(sys.argv), list(sys.path), sys.modules["__main__"], list(sys.meta_path))
    assert after == before


# ------------------------------------------------------------- the real entry points
@pytest.mark.parametrize("public, shim", [("torch", "torchlike"), ("paddle", "paddlelike")])
def test_python_m_entry_point(tmp_path, public, shim):
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent(f"""
        import sys
        import {public}
        import {shim}
        print({public} is {shim}, sys.modules[{public!r}] is {shim}, sys.argv[1:])
        sys.exit(4)
    """))
    p = subprocess.run([sys.executable, "-m", shim, str(script), "x"], capture_output=True,
                       text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert p.returncode == 4, p.stderr
    assert p.stdout == "True True ['x']\n"


@pytest.mark.parametrize("shim", ["torchlike", "paddlelike"])
def test_python_m_without_script_prints_usage(shim):
    p = subprocess.run([sys.executable, "-m", shim], capture_output=True, text=True,
                       env=_env(), timeout=120)
    assert p.returncode == 2
    assert p.stderr.startswith(f"usage: python -m {shim} SCRIPT")


def test_python_m_missing_file(tmp_path):
    p = subprocess.run([sys.executable, "-m", "torchlike", "nope.py"], capture_output=True,
                       text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert p.returncode == 2
    assert "can't open file" in p.stderr and "nope.py" in p.stderr


def test_torch_nn_functional_resolves_to_the_shim(tmp_path):
    """`import torch.nn.functional as F` gives torchlike's module when it has one,
    and otherwise a placeholder whose use names the missing API."""
    import importlib.util

    has_f = importlib.util.find_spec("torchlike.nn") is not None and \
        importlib.util.find_spec("torchlike.nn.functional") is not None
    script = tmp_path / "s.py"
    script.write_text(textwrap.dedent("""
        import torch.nn.functional as F
        print(F.__name__)
        try:
            F.a_function_nobody_has
        except NotImplementedError as e:
            print(e)
    """))
    p = subprocess.run([sys.executable, "-m", "torchlike", str(script)], capture_output=True,
                       text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    name = "torchlike.nn.functional" if has_f else "torch.nn.functional"
    assert p.stdout.splitlines() == [
        name, "torchlike does not implement torch.nn.functional.a_function_nobody_has"]


# ------------------------------------------------------------- the pieces, in-process
def test_missing_error_is_not_implemented_and_attribute_error():
    import traceback

    from janusgrad.host.dropin import missing

    e = missing("shimx", "fw.fft.rfft")
    assert isinstance(e, NotImplementedError) and isinstance(e, AttributeError)
    assert str(e) == "shimx does not implement fw.fft.rfft"
    assert traceback.format_exception_only(type(e), e) == [
        "NotImplementedError: shimx does not implement fw.fft.rfft\n"]


def test_module_getattr_public_private_and_submodules():
    import types

    from janusgrad.host.dropin import module_getattr

    getattr_ = module_getattr("json", "fw")      # the shim "json" stands for "fw"
    mod = types.ModuleType("json_stand_in")
    mod.__getattr__ = getattr_
    assert getattr_("decoder").__name__ == "json.decoder"   # a submodule: imported
    with pytest.raises(NotImplementedError, match="^json does not implement fw.rfft$"):
        getattr_("rfft")
    with pytest.raises(NotImplementedError):                # again, from the cache
        getattr_("rfft")
    with pytest.raises(AttributeError) as info:
        getattr_("__path__")
    assert not isinstance(info.value, NotImplementedError)
    assert not hasattr(mod, "_private") and getattr(mod, "nothing", 1) == 1


def test_public_module_imported_before_the_run_is_replaced(fake, tmp_path):
    # a real `fakefw` already imported (say by a site hook) must not shadow the shim
    real = tmp_path / "realroot"
    _write(real, {"fakefw/__init__.py": "REAL = True\n"})
    script = fake.script
    script.write_text("import fakefw\nprint(getattr(fakefw, 'REAL', False), fakefw.__name__)\n")
    code = f"import sys; sys.path.append({str(real)!r}); import fakefw; " + RUN_FAKE
    p = subprocess.run([sys.executable, "-c", code, str(script)], capture_output=True,
                       text=True, env=_env(tmp_path / "shimroot"), timeout=120)
    assert _lines(p) == ["False fakeshim"]


# ------------------------------------------------- -c CODE and -m MODULE, like python
@pytest.mark.parametrize("public, shim", [("torch", "torchlike"), ("paddle", "paddlelike")])
def test_python_m_dash_c_runs_code(tmp_path, public, shim):
    code = (f"import sys, {public}; print({public}.__name__, sys.argv, "
            f"{public}.ones([2]).shape[0]); sys.exit(3)")
    p = subprocess.run([sys.executable, "-m", shim, "-c", code, "a", "-x"], capture_output=True,
                       text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert p.returncode == 3, p.stderr
    assert p.stdout == f"{shim} ['-c', 'a', '-x'] 2\n"


def test_python_m_dash_c_missing_api_and_errors(tmp_path):
    p = subprocess.run([sys.executable, "-m", "torchlike", "-c",
                        "import torch\ntorch.nosuchthing"], capture_output=True, text=True,
                       env=_env(), cwd=tmp_path, timeout=120)
    assert p.returncode == 1
    assert 'File "<string>", line 2' in p.stderr
    assert p.stderr.rstrip().endswith(
        "NotImplementedError: torchlike does not implement torch.nosuchthing")
    p = subprocess.run([sys.executable, "-m", "torchlike", "-c"], capture_output=True,
                       text=True, env=_env(), timeout=120)
    assert p.returncode == 2 and "Argument expected for the -c option" in p.stderr


@pytest.mark.parametrize("public, shim", [("torch", "torchlike"), ("paddle", "paddlelike")])
def test_python_m_dash_m_runs_pytest_on_a_suite_written_for_the_framework(tmp_path, public,
                                                                          shim):
    (tmp_path / "test_suite.py").write_text(textwrap.dedent(f"""
        import {public}

        def test_uses_the_shim():
            assert {public}.__name__ == {shim!r}
            assert float({public}.ones([3]).sum()) == 3.0

        def test_fails_visibly():
            assert {public}.ones([1]).shape[0] == 2
    """))
    p = subprocess.run([sys.executable, "-m", shim, "-m", "pytest", "-q", "-p",
                        "no:cacheprovider", "test_suite.py"], capture_output=True, text=True,
                       env=_env(), cwd=tmp_path, timeout=300)
    assert p.returncode == 1, p.stdout + p.stderr  # pytest's "some tests failed"
    assert "1 failed, 1 passed" in p.stdout


def test_python_m_dash_m_argv_and_missing_module(tmp_path):
    (tmp_path / "mymod.py").write_text(
        "import sys, torch\nprint(torch.__name__, sys.argv[1:], __name__)\n")
    p = subprocess.run([sys.executable, "-m", "torchlike", "-m", "mymod", "q"],
                       capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "torchlike ['q'] __main__\n"
    p = subprocess.run([sys.executable, "-m", "torchlike", "-m", "no_such_module_xyz"],
                       capture_output=True, text=True, env=_env(), cwd=tmp_path, timeout=120)
    assert p.returncode == 1
    assert p.stderr.strip().endswith("No module named no_such_module_xyz")


def test_in_process_run_code_and_module_restore_state(tmp_path):
    from janusgrad.host.dropin import run_code, run_module

    before = (list(sys.argv), list(sys.path), sys.modules["__main__"], list(sys.meta_path))
    assert run_code("import sys\nsys.exit(6)", [], public="jsonpublic", shim="json",
                    restore=True) == 6
    assert run_module("json.tool", ["--help"], public="jsonpublic", shim="json",
                      restore=True) == 0
    after = (list(sys.argv), list(sys.path), sys.modules["__main__"], list(sys.meta_path))
    assert after == before


# ------------------------------------------- missing names stay named (issue 15 item 8)
_MISSING_CASES = [
    ("torchlike", "import torch\ntorch.fft.rfft", "torch.fft"),
    ("torchlike", "import torch.fft\ntorch.fft.rfft", "torch.fft.rfft"),
    ("torchlike", "import torch.distributed as dist\ndist.init_process_group",
     "torch.distributed.init_process_group"),
    ("torchlike", "import torch.nn as nn\nnn.AdaptiveLogSoftmaxWithLoss(4, 8, [2])",
     "torch.nn.AdaptiveLogSoftmaxWithLoss"),
    ("torchlike", "import torch\ntorch.ones(2).stft(4)", "torch.Tensor.stft"),
    ("torchlike", "import torch\ntorch.utils.tensorboard.SummaryWriter",
     "torch.utils.tensorboard"),
    ("paddlelike", "import paddle\npaddle.ones([2]).stft(4)", "paddle.Tensor.stft"),
    ("paddlelike", "import paddle.distributed as dist\ndist.init_parallel_env",
     "paddle.distributed.init_parallel_env"),
]


def test_missing_names_fail_with_the_runner_message():
    for shim, code, qualname in _MISSING_CASES:
        p = subprocess.run([sys.executable, "-m", shim, "-c", code], capture_output=True,
                           text=True, env=_env(), timeout=120)
        assert p.returncode == 1, (code, p.stderr)
        assert p.stderr.rstrip().endswith(
            f"NotImplementedError: {shim} does not implement {qualname}"), (code, p.stderr)


def test_tensor_missing_attribute_is_named_yet_hasattr_works():
    import torchlike
    from janusgrad.host.dropin import NotImplementedByShim

    t = torchlike.ones(2)
    assert not hasattr(t, "stft") and getattr(t, "stft", 7) == 7
    with pytest.raises(NotImplementedByShim, match="torchlike does not implement "
                                                    "torch.Tensor.stft"):
        _ = t.stft
    with pytest.raises(AttributeError) as e:
        _ = t._private_thing
    assert not isinstance(e.value, NotImplementedError)
