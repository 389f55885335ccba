"""Run an unmodified script with a framework's import name served by a shim.

``run("train.py", [...], public="torch", shim="torchlike")`` makes ``import torch``
(and ``import torch.nn.functional as F``, ``from torch import autograd`` ...) give
the shim's modules for the duration of the script, then runs the script the way
``python train.py`` would.  Anything the shim lacks fails with an error that
names it: ``NotImplementedError: torchlike does not implement torch.fft.rfft``.

This module knows no framework: callers pass both names.
"""
from __future__ import annotations

import builtins
import importlib
import importlib.abc
import importlib.machinery
import os
import runpy
import sys
import types


class NotImplementedByShim(NotImplementedError, AttributeError):
    """A public API the shim does not provide.

    Printed as plain ``NotImplementedError``; also an AttributeError so that
    ``hasattr`` and ``getattr(mod, name, default)`` keep working on shim modules.
    """


NotImplementedByShim.__name__ = NotImplementedByShim.__qualname__ = "NotImplementedError"
NotImplementedByShim.__module__ = "builtins"


def missing(shim: str, qualname: str) -> NotImplementedByShim:
    return NotImplementedByShim(f"{shim} does not implement {qualname}")


def _is_public(name: str) -> bool:
    return not name.startswith("_")


def _shim_module_name(shim: str, public_module: str) -> str:
    """``torch.nn`` -> ``torchlike.nn`` (the first dotted part is the public root)."""
    root, dot, rest = public_module.partition(".")
    return shim + dot + rest


def _import_if_module(name: str):
    """The module ``name`` if it exists, None if it (or a parent) does not."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name is not None and (name == e.name or name.startswith(e.name + ".")):
            return None
        raise  # the module exists but something it imports is missing


def module_getattr(shim: str, public_module: str):
    """A PEP 562 module ``__getattr__`` for a shim module.

    A missing public name that is a submodule of the shim is imported (as the
    real framework imports its submodules eagerly); any other public name
    raises ``missing``; dunder and private names raise a plain AttributeError,
    since the import machinery and tools probe those routinely.
    """
    shim_module = _shim_module_name(shim, public_module)
    not_modules: set[str] = set()  # names already looked for on disk (hasattr in loops)

    def __getattr__(name: str):
        if _is_public(name):
            if name not in not_modules:
                sub = _import_if_module(f"{shim_module}.{name}")
                if sub is not None:
                    return sub
                not_modules.add(name)
            raise missing(shim, f"{public_module}.{name}")
        raise AttributeError(f"module {public_module!r} has no attribute {name!r}")

    return __getattr__


def public_home(obj, public: str, shim: str) -> tuple[str, str] | None:
    """(module, qualname) under which the public framework keeps ``obj``, a class or
    function of the shim: its ``__module__`` when that names a public module, or its shim
    module renamed (``torchlike.nn.modules.conv`` -> ``torch.nn.modules.conv``); None for
    anything else. The shim serves it there (``publish``), so a pickle can name it so."""
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if not isinstance(module, str) or not isinstance(qualname, str):
        return None
    if module == shim or module.startswith(shim + "."):
        module = public + module[len(shim):]
    elif module != public and not module.startswith(public + "."):
        return None
    return module, qualname


def shim_object(public_module: str, qualname: str, shim: str):
    """The shim's object for a public ``module`` and ``qualname`` (as a pickle names
    one); ``missing`` when the shim has no such module or name."""
    obj = _import_if_module(_shim_module_name(shim, public_module))
    if obj is None:
        raise missing(shim, f"{public_module}.{qualname}")
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise missing(shim, f"{public_module}.{qualname}")
    return obj


def publish(objects, public: str, shim: str) -> None:
    """Serve each of ``objects`` (classes) from the shim module that mirrors the public
    module its ``__module__`` names (``torch.nn.modules.linear`` -> module
    ``torchlike.nn.modules.linear``, made when the shim has no file of that name). pickle
    looks a class up by its ``__module__``: under the runner that import reaches the
    shim, and the shim's loader maps a public module name onto the shim's."""
    for obj in objects:
        module = obj.__module__
        if module != public and not module.startswith(public + "."):
            continue
        home = _shim_module_name(shim, module)
        target = _import_if_module(home) or _made_module(shim, module)
        target.__dict__.setdefault(obj.__name__, obj)


def _made_module(shim: str, public_module: str) -> types.ModuleType:
    name = _shim_module_name(shim, public_module)
    parent, _, leaf = name.rpartition(".")
    module = types.ModuleType(name, f"{public_module} as {shim} serves it: the classes "
                                    "pickles name there.")
    module.__getattr__ = module_getattr(shim, public_module)
    sys.modules[name] = module
    setattr(importlib.import_module(parent), leaf, module)
    return module


class MissingAttribute(property):
    """The stub ``stub_missing`` puts on a class for a public name it lacks."""


def stub_missing(cls: type, shim: str, public_class: str, names) -> None:
    """Give ``cls`` a stub for each public name of the real class (``names``) that it lacks:
    reading it raises ``missing`` (``torchlike does not implement torch.Tensor.stft``), still
    an AttributeError for ``hasattr``.  Stubs rather than a class ``__getattr__``: CPython
    does not specialise attribute reads on instances of a class that has one (every read of
    ``t.array`` would cost four times as much)."""
    def stub(name: str) -> MissingAttribute:
        def get(self):
            raise missing(shim, f"{public_class}.{name}")
        return MissingAttribute(get)

    for name in names:
        if _is_public(name) and not hasattr(cls, name):
            setattr(cls, name, stub(name))


def _stub_module(shim: str, public_name: str) -> types.ModuleType:
    """A package that stands for a public submodule the shim does not have:
    importing it works, using anything in it raises ``missing``."""
    stub = types.ModuleType(public_name, f"Placeholder: {shim} does not implement {public_name}.")
    stub.__path__ = []  # a package, so that deeper `import a.b.c` reaches the finder

    def __getattr__(name: str):
        if _is_public(name):
            raise missing(shim, f"{public_name}.{name}")
        raise AttributeError(f"module {public_name!r} has no attribute {name!r}")

    stub.__getattr__ = __getattr__
    return stub


def _in_from_import() -> bool:
    """Whether the import in progress serves ``from package import name``.

    There ``name`` may be a function rather than a submodule, so a missing
    one must fail rather than become a placeholder module.
    """
    f = sys._getframe(1)
    while f is not None and f.f_code.co_filename == __file__:
        f = f.f_back  # up to the importlib frame that called the finder
    while f is not None and f.f_code.co_filename.startswith("<frozen importlib"):
        if f.f_code.co_name == "_handle_fromlist":
            return True
        f = f.f_back
    return False  # reached the importing code first: a plain `import a.b`


class _AliasLoader(importlib.abc.Loader):
    """Loads a public name as an existing module object (never a copy)."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module

    def create_module(self, spec):
        return None  # a throwaway; exec_module swaps in the real module

    def exec_module(self, module) -> None:
        # importlib returns whatever sys.modules holds after exec_module, so the
        # shim module keeps its own __spec__ and __name__ untouched.
        sys.modules[module.__name__] = self.module


class AliasFinder(importlib.abc.MetaPathFinder):
    """Serves ``public`` and ``public.*`` from ``shim`` and ``shim.*``; ``companions``:
    more (public, shim module) pairs served alike (``torchvision`` from
    ``torchlike.vision``: a package scripts of the framework import beside it)."""

    def __init__(self, public: str, shim: str, companions: tuple = ()) -> None:
        self.public = public
        self.shim = shim
        self.companions = dict(companions)
        self.aliased: list[str] = []

    def find_spec(self, fullname, path=None, target=None):
        public = self.public
        if fullname == public or fullname.startswith(public + "."):
            return self._alias(fullname)
        root = fullname.partition(".")[0]
        if root in self.companions:
            return self._alias(fullname, self.companions[root])
        if fullname.startswith(self.shim + ".") and _in_from_import():
            # `from public import x` on a shim module asks for shim.x (the module's
            # real name) once x is not an attribute: name the public API if it is absent.
            if _is_public(fullname.rpartition(".")[2]) and not self._found_elsewhere(
                    fullname, path, target):
                raise missing(self.shim, public + fullname[len(self.shim):])
        return None

    def _found_elsewhere(self, fullname, path, target) -> bool:
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            if finder is not self and find_spec is not None and \
                    find_spec(fullname, path, target) is not None:
                return True
        return False

    def _alias(self, fullname, shim=None):
        module = _import_if_module(_shim_module_name(shim or self.shim, fullname))
        if module is None:
            parent, _, leaf = fullname.rpartition(".")
            if not parent or not _is_public(leaf):
                if shim is not None and not parent:  # a companion we do not have at all
                    raise missing(self.shim, fullname)
                return None  # plain ModuleNotFoundError, as for any absent module
            if _in_from_import():
                raise missing(self.shim, fullname)
            module = _stub_module(self.shim, fullname)
        elif not hasattr(module, "__path__"):
            # Only packages get `from m import x` retried as an import of m.x, which is
            # where a missing x is reported by name; plain modules would give ImportError.
            module.__path__ = []
        self.aliased.append(fullname)
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module), is_package=True)


# ---------------------------------------------------------------- the runner
_HERE = os.path.normcase(os.path.abspath(__file__))


def _trim(tb, drop_importlib: bool):
    """The traceback without the runner's frames (and importlib's, for a missing API)."""
    kept = []
    while tb is not None:
        filename = tb.tb_frame.f_code.co_filename
        runner = os.path.normcase(filename) == _HERE
        if not runner and not (drop_importlib and filename.startswith("<frozen importlib")):
            kept.append(tb)
        tb = tb.tb_next
    out = None
    for t in reversed(kept):
        out = types.TracebackType(out, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return out


def _trim_chain(exc: BaseException) -> None:
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        exc.__traceback__ = _trim(exc.__traceback__, isinstance(exc, NotImplementedByShim))
        exc = exc.__cause__ or exc.__context__


def _exit_code(e: SystemExit) -> int:
    """What the interpreter would exit with for ``e`` (printing a non-int code)."""
    code = e.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    sys.stderr.write(f"{code}\n")
    return 1


def _main_module(path: str) -> types.ModuleType:
    main = types.ModuleType("__main__")
    main.__file__ = path
    main.__cached__ = None
    main.__builtins__ = builtins
    main.__loader__ = importlib.machinery.SourceFileLoader("__main__", path)
    main.__spec__ = None
    main.__package__ = None
    return main


def main(argv: list[str], public: str, shim: str, companions: tuple = ()) -> int:
    """``python -m <shim> SCRIPT|-c CODE|-m MODULE [ARGS...]``: like ``python``, with
    ``import public`` giving ``shim``; the usage text (exit code 2) without a target."""
    usage = (f"usage: python -m {shim} SCRIPT | -c CODE | -m MODULE [ARGS...]\n"
             "Runs SCRIPT, CODE or MODULE like `python` would,\n"
             f"with `import {public}` giving {shim}.\n")
    if len(argv) < 2:
        sys.stderr.write(usage)
        return 2
    if argv[1] in ("-c", "-m"):
        if len(argv) < 3:
            sys.stderr.write(f"Argument expected for the {argv[1]} option\n{usage}")
            return 2
        if argv[1] == "-c":
            return run_code(argv[2], argv[3:], public, shim, companions=companions)
        return run_module(argv[2], argv[3:], public, shim, companions=companions)
    return run(argv[1], argv[2:], public, shim, companions=companions)


def run_code(code: str, args: list[str], public: str, shim: str, restore: bool = False,
             companions: tuple = ()) -> int:
    """``python -c code args...`` with ``import public`` giving ``shim``."""
    main = _main_module("<string>")
    del main.__file__, main.__cached__
    main.__loader__ = importlib.machinery.BuiltinImporter
    return _execute(lambda: exec(compile(code, "<string>", "exec", dont_inherit=True),
                                 main.__dict__),
                    ["-c", *args], "", main, public, shim, restore, companions)


def run_module(module: str, args: list[str], public: str, shim: str,
               restore: bool = False, companions: tuple = ()) -> int:
    """``python -m module args...`` with ``import public`` giving ``shim``."""

    def go():
        # runpy sets sys.argv[0] to the module's file, as `python -m` does
        try:
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        except ImportError as e:
            tb = e.__traceback__
            while tb.tb_next is not None:
                tb = tb.tb_next
            if e.name is not None or "runpy" not in tb.tb_frame.f_code.co_filename:
                raise  # raised by the module's own code
            sys.stderr.write(f"{sys.executable}: {e}\n")  # "No module named x", as python
            raise SystemExit(1) from None

    return _execute(go, ["-m", *args], os.getcwd(), None, public, shim, restore, companions)


def run(script: str, args: list[str], public: str, shim: str, restore: bool = False,
        companions: tuple = ()) -> int:
    """Run ``script`` as ``python script args...`` with ``import public`` giving ``shim``.

    Returns the exit code.  With ``restore`` (for in-process callers) sys.argv,
    sys.path, sys.modules and the import hook are put back afterwards; the command
    line leaves them, since threads and atexit handlers may still import.
    """
    path = os.path.abspath(script)
    try:
        with open(path, "rb") as f:
            source = f.read()
    except OSError as e:
        sys.stderr.write(f"python -m {shim}: can't open file {path!r}: "
                         f"[Errno {e.errno}] {e.strerror}\n")
        return 2

    main = _main_module(path)
    # like `python script.py`: the script's own folder first, not the caller's cwd
    folder = os.path.dirname(os.path.realpath(path))
    return _execute(lambda: exec(compile(source, path, "exec", dont_inherit=True),
                                 main.__dict__),
                    [script, *args], folder, main, public, shim, restore, companions)


def _execute(body, argv, folder, main, public, shim, restore, companions=()) -> int:
    """Run ``body()`` as the program: sys.argv, sys.path[0] and ``__main__`` set up as
    python sets them, ``import public`` served by ``shim``; returns the exit code."""
    finder = AliasFinder(public, shim, companions)
    saved_argv, saved_path = sys.argv, sys.path[:]
    saved_main = sys.modules.get("__main__")
    sys.argv = list(argv)
    if not getattr(sys.flags, "safe_path", False):
        if sys.path and not restore:
            sys.path[0] = folder  # `python -m` put the caller's cwd there
        else:
            sys.path.insert(0, folder)
    # a real `public` imported earlier (by site hooks, say) must not win over the shim
    roots = (public, *(c for c, _ in companions))
    evicted = {name: sys.modules.pop(name) for name in list(sys.modules)
               if name.partition(".")[0] in roots}
    sys.meta_path.insert(0, finder)
    if main is not None:
        sys.modules["__main__"] = main
    try:
        body()
        return 0
    except SystemExit as e:
        return _exit_code(e)
    except Exception as e:
        _trim_chain(e)
        sys.excepthook(type(e), e, e.__traceback__)
        return 1
    finally:
        if restore:
            _restore(finder, saved_main, saved_argv, saved_path, evicted)


def _restore(finder, saved_main, saved_argv, saved_path, evicted) -> None:
    if finder in sys.meta_path:
        sys.meta_path.remove(finder)
    for name in finder.aliased:
        sys.modules.pop(name, None)
    sys.modules.update(evicted)
    if saved_main is not None:
        sys.modules["__main__"] = saved_main
    sys.argv = saved_argv
    sys.path[:] = saved_path
