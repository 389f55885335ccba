"""Ops, samples and comparisons of the OpInfo conformance suite (issue 15 §1).

Selection (``select``): an entry of torch 2.13's ``op_db`` (702 entries) is taken when its name
is a public path of torch (``torch.X``, ``torch.nn.functional.X``, ``torch.linalg.X``,
``torch.special.X``, ``torch.fft.X`` ... found by walking the name's dots from ``torch``) or a
``torch.Tensor`` attribute (``__radd__``, ``T``, ``byte`` ...), and when it supports at least one
of float64, float32, int64, bool on CPU. That leaves 678 entries under 614 names; an op is a
name, and passes when every capped sample of every entry (variant) under that name passes.

Samples (``plan``/``draw``): drawn by torch itself, ``op.sample_inputs('cpu', dtype,
requires_grad=...)`` after ``torch.manual_seed(0)``: float64 with ``requires_grad`` (values and
gradients) when the op supports float64, float32 (values) when it supports float32, int64 (or
bool) only when it has no floating dtype. At most ``CAP`` samples per dtype. Samples holding a
complex or sparse tensor are skipped (none of the frontends has either; they are counted).

Calls: torch runs the OpInfo's own callable (``op.op``). The frontend runs the same public name
(``torchlike.X`` for ``torch.X``, ``tensor.X(...)`` for a Tensor-only name); where the OpInfo's
callable is a wrapper (``lambda x, shape: x.view(shape)``, ``wrapper_set_seed(...)``), the same
wrapper runs with its ``torch`` rebound to the frontend. An op with a method variant (``x.add``)
is also called in method form on the first sample of each dtype.

Comparison: output structure, shapes, dtypes, values (float64 rtol=atol=1e-7, float32 1e-5,
absolute tolerances scaled by the largest finite magnitude of the expected value), and, for each
input that requires grad, the gradient of the outputs against one fixed random cotangent
(float64, 1e-6). When torch raises, the frontend must raise an exception of the same builtin
kind (RuntimeError, ValueError, TypeError, IndexError ...). Random ops (``wrapper_set_seed``,
``rand*``, ``empty*``, dropout ...) are compared on structure, shapes and dtypes only.

A name the frontend lacks (``NotImplementedError: torchlike does not implement torch.X``, or a
Tensor without the attribute) is a failure of category ``missing``, not an error of the suite.
"""
from __future__ import annotations

import re
import sys
import types
import unittest
import warnings
from dataclasses import dataclass, field
from functools import cache

import numpy as np

CAP = 4
REAL_DTYPES = ("float64", "float32", "int64", "bool")
# failure categories, in the order the summary prints them
CATEGORIES = ("missing", "error", "wrong-error", "type", "shape", "dtype", "value", "grad",
              "method", "mapping")
TOL = {"float64": 1e-7, "float32": 1e-5, "float16": 1e-3, "bfloat16": 1e-2}
# ops whose outputs are unique only up to sign (eigenvectors: LAPACK builds differ, MKL's
# and OpenBLAS's signs agree half the time): their values are compared after the sample's
# own output_process_fn_grad (abs of the eigenvectors), as torch's own tests compare them
UP_TO_SIGN = {"linalg.eigh"}
# ops where torch's kernel is less accurate than the float64 tolerance: torch's own
# polynomial approximations of J0 and Y1 are off by up to 7e-7 for 5 < |x| < 25 (mpmath
# agrees with scipy.special's to 1e-16); compared at this absolute tolerance instead
LOOSE = {"special.bessel_j0": 1e-6, "special.bessel_y1": 1e-6}
GRAD_TOL = 1e-6
RANDOM_HINTS = ("rand", "dropout", "normal", "bernoulli", "multinomial", "empty", "rrelu",
                "fractional_max_pool", "cauchy", "exponential", "geometric", "uniform",
                "lowrank")


class Missing(Exception):
    """The frontend lacks a public name the sample needs."""

    def __init__(self, name):
        super().__init__(name)
        self.name = name


class SkipSample(Exception):
    """A sample outside the suite's scope (complex or sparse tensors, unmappable to paddle)."""


@dataclass
class Outcome:
    passed: bool
    category: str = ""
    detail: str = ""
    samples: int = 0
    skipped: int = 0
    entries: list = field(default_factory=list)  # why samples were skipped

    def line(self):
        return "pass" if self.passed else f"{self.category}: {self.detail}"


# ------------------------------------------------------------------ op_db and selection
def _stub_expecttest():
    # torch.testing._internal.common_utils imports expecttest (a test-only dependency of
    # torch's own suite) for its TestCase base class; none of it is used here
    try:
        import expecttest  # noqa: F401
    except ImportError:
        m = types.ModuleType("expecttest")
        m.TestCase = unittest.TestCase
        m.ACCEPT = False
        sys.modules["expecttest"] = m


@cache
def op_db():
    _stub_expecttest()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from torch.testing._internal.common_methods_invocations import op_db as db
    return tuple(db)


def torch_public(name):
    """('function', obj) for a torch path, ('method', obj) for a Tensor-only name, or None."""
    import torch
    obj = torch
    for part in name.split("."):
        if not hasattr(obj, part):
            break
        obj = getattr(obj, part)
    else:
        return "function", obj
    if hasattr(torch.Tensor, name):
        return "method", getattr(torch.Tensor, name)
    return None


def _dtype_names(op):
    return {str(d).rsplit(".", 1)[-1] for d in op.supported_dtypes("cpu")}


@cache
def select():
    """{name: (OpInfo, ...)} of the selected ops, in op_db's order (614 names)."""
    out = {}
    for op in op_db():
        if torch_public(op.name) is None or not (_dtype_names(op) & set(REAL_DTYPES)):
            continue
        out.setdefault(op.name, []).append(op)
    return {k: tuple(v) for k, v in out.items()}


def plan(op):
    """[(dtype name, requires_grad)] the op's samples are drawn in."""
    names = _dtype_names(op)
    out = []
    if "float64" in names:
        out.append(("float64", bool(op.supports_autograd)))
    if "float32" in names:
        out.append(("float32", False))
    if not out:
        out.append(("int64" if "int64" in names else "bool", False))
    return out


def _walk(x):
    """Every tensor-or-leaf in a nested sample structure, in order."""
    if isinstance(x, (list, tuple)):
        for v in x:
            yield from _walk(v)
    elif isinstance(x, dict):
        for v in x.values():
            yield from _walk(v)
    else:
        yield x


def _out_of_scope(sample):
    import torch
    for v in _walk((sample.input, sample.args, sample.kwargs)):
        if isinstance(v, torch.Tensor) and (v.is_complex() or v.layout != torch.strided):
            return True
    return False


def draw(op, dtype, requires_grad, cap=CAP):
    """(samples, skipped): the first ``cap`` in-scope samples torch gives."""
    import torch
    torch.manual_seed(0)
    out, skipped = [], 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for s in op.sample_inputs("cpu", getattr(torch, dtype), requires_grad=requires_grad):
            if _out_of_scope(s):
                skipped += 1
                continue
            out.append(s)
            if len(out) >= cap:
                break
    return out, skipped


def is_random(op):
    code = getattr(op.op, "__code__", None)
    if code is not None and "wrapper_set_seed" in code.co_names:
        return True
    return any(h in op.name for h in RANDOM_HINTS)


# ------------------------------------------------------------------ frontends as seen by us
class Side:
    """How the suite sees one framework's tensors: numpy values, dtypes, grads, creation."""

    name = ""

    def is_tensor(self, x):
        raise NotImplementedError

    def numpy(self, x):
        raise NotImplementedError

    def dtype(self, x):
        return str(x.dtype).rsplit(".", 1)[-1]

    def needs_grad(self, x):
        return not x.stop_gradient

    def grad(self, outs, ins, cots):
        raise NotImplementedError

    def tensor(self, a, requires_grad):
        raise NotImplementedError


class TorchSide(Side):
    name = "torch"

    def __init__(self):
        import torch
        self.m = torch

    def is_tensor(self, x):
        return isinstance(x, self.m.Tensor)

    def numpy(self, x):
        # (a gradient torch knows to be zero may be a ZeroTensor, which has no numpy form)
        return x.detach().cpu().resolve_conj().resolve_neg().numpy(force=x._is_zerotensor())

    def needs_grad(self, x):
        return x.requires_grad

    def grad(self, outs, ins, cots):
        return self.m.autograd.grad(outs, ins, cots, allow_unused=True)

    def tensor(self, a, requires_grad):
        return self.m.from_numpy(np.array(a)).requires_grad_(requires_grad)


class TorchlikeSide(TorchSide):
    name = "torchlike"

    def __init__(self):
        import torchlike
        self.m = torchlike

    def numpy(self, x):
        return np.asarray(x.detach().numpy())

    def tensor(self, a, requires_grad):
        t = self.m.tensor(np.array(a))
        return t.requires_grad_(True) if requires_grad else t


class PaddleSide(Side):
    name = "paddle"

    def __init__(self, module="paddle"):
        import importlib
        self.m = importlib.import_module(module)

    def is_tensor(self, x):
        return isinstance(x, self.m.Tensor)

    def numpy(self, x):
        return np.asarray(x.numpy())

    def grad(self, outs, ins, cots):
        return self.m.grad(outs, ins, cots, allow_unused=True)

    def tensor(self, a, requires_grad):
        a = np.array(a)
        return self.m.to_tensor(a, dtype=str(a.dtype), stop_gradient=not requires_grad)


# ------------------------------------------------------------------ comparison
def _float_kind(a):
    return a.dtype.kind in "fc"


def values_close(exp, got, rtol):
    """None when ``got`` matches ``exp`` (arrays), else a short reason."""
    exp, got = np.asarray(exp), np.asarray(got)
    if exp.shape != got.shape:
        return f"shape {exp.shape} != {got.shape}"
    if exp.size == 0:
        return None
    if not (_float_kind(exp) or _float_kind(got)):
        if np.array_equal(exp, got):
            return None
        return f"{int((exp != got).sum())} of {exp.size} elements differ"
    e, g = exp.astype(np.complex128 if exp.dtype.kind == "c" else np.float64), got
    g = np.asarray(g).astype(e.dtype)
    en, gn = np.isnan(e), np.isnan(g)
    if not np.array_equal(en, gn):
        return "nan positions differ"
    fin = np.isfinite(e)
    if not np.array_equal(e[~fin & ~en], g[~fin & ~en]):
        return "inf values differ"
    if not fin.any():
        return None
    scale = max(1.0, float(np.abs(e[fin]).max()))
    err = np.abs(e[fin] - g[fin])
    bound = rtol * scale + rtol * np.abs(e[fin])
    if np.all(err <= bound):
        return None
    return f"max abs err {err.max():.3g} (scale {scale:.3g})"


def compare(exp, got, ref: Side, sub: Side, values=True, what="output"):
    """None when the frontend's ``got`` matches the oracle's ``exp``, else (category, detail)."""
    if ref.is_tensor(exp):
        if not sub.is_tensor(got):
            return "type", f"{what}: expected a Tensor, got {type(got).__name__}"
        if tuple(exp.shape) != tuple(got.shape):
            return "shape", f"{what}: shape {tuple(exp.shape)} != {tuple(got.shape)}"
        de, dg = ref.dtype(exp), sub.dtype(got)
        if de != dg:
            return "dtype", f"{what}: dtype {de} != {dg}"
        if not values:
            return None
        bad = values_close(ref.numpy(exp), sub.numpy(got), TOL.get(de, 0.0))
        return None if bad is None else ("value", f"{what}: {bad}")
    if isinstance(exp, (list, tuple)):
        if not isinstance(got, (list, tuple)) or sub.is_tensor(got):
            return "type", f"{what}: expected a {type(exp).__name__}, got {type(got).__name__}"
        if len(exp) != len(got):
            return "type", f"{what}: {len(exp)} items != {len(got)}"
        for i, (e, g) in enumerate(zip(exp, got)):
            bad = compare(e, g, ref, sub, values, f"{what}[{i}]")
            if bad:
                return bad
        return None
    if exp is None or isinstance(exp, (str, bool)):
        return None if (got == exp and type(got) is type(exp)) else (
            "value", f"{what}: {exp!r} != {got!r}")
    if isinstance(exp, (int, float, complex, np.number)):
        if sub.is_tensor(got) or not isinstance(got, (int, float, complex, np.number)):
            return "type", f"{what}: expected a number, got {type(got).__name__}"
        if not values:
            return None
        bad = values_close(np.asarray(exp), np.asarray(got), 1e-7)
        return None if bad is None else ("value", f"{what}: {exp!r} != {got!r}")
    # dtypes, devices and the like compare by their printed name
    if str(exp).rsplit(".", 1)[-1] != str(got).rsplit(".", 1)[-1]:
        return "value", f"{what}: {exp!r} != {got!r}"
    return None


def builtin_kind(exc):
    for k in type(exc).__mro__:
        if k.__module__ == "builtins":
            return k
    return Exception


_NO_ATTR = re.compile(r"has no attribute '(\w+)'")


def missing_name(exc, side: Side, prefix):
    """The public name a frontend's exception says it lacks, or None."""
    if isinstance(exc, Missing):
        return exc.name
    if isinstance(exc, NotImplementedError) and "does not implement" in str(exc):
        return str(exc).rsplit(" ", 1)[-1]
    if isinstance(exc, AttributeError):
        m = _NO_ATTR.search(str(exc))
        if m and hasattr(side.m.Tensor, m.group(1)) is False:
            return f"{prefix}.Tensor.{m.group(1)}"
    return None


def tensors_in(x, side: Side):
    return [v for v in _walk(x) if side.is_tensor(v)]


def differentiable_pairs(exp_out, got_out, ref: Side, sub: Side):
    """Aligned (oracle, frontend) outputs the gradient flows from."""
    e_all = list(_walk(exp_out))
    g_all = list(_walk(got_out))
    pairs = []
    for i, e in enumerate(e_all):
        if ref.is_tensor(e) and ref.needs_grad(e) and _float_kind(ref.numpy(e)):
            pairs.append((e, g_all[i] if i < len(g_all) else None))
    return pairs


def check_grads(exp_out, got_out, ref_ins, sub_ins, ref: Side, sub: Side, seed=0):
    """None or (category, detail): gradients of all outputs against one random cotangent."""
    if not ref_ins:
        return None
    pairs = differentiable_pairs(exp_out, got_out, ref, sub)
    if not pairs:
        return None
    rng = np.random.default_rng(seed)
    cots = [rng.standard_normal(tuple(e.shape)).astype(ref.numpy(e).dtype) for e, _ in pairs]
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exp = ref.grad([e for e, _ in pairs], ref_ins,
                           [ref.tensor(c, False) for c in cots])
    except Exception:  # noqa: BLE001 - the oracle has no derivative here: nothing to hold
        return None
    for _, g in pairs:
        if g is None or not sub.is_tensor(g) or not sub.needs_grad(g):
            return "grad", "an output the oracle differentiates does not require grad"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = sub.grad([g for _, g in pairs], sub_ins, [sub.tensor(c, False) for c in cots])
    except Exception as e:  # noqa: BLE001 - the frontend's failure is the result
        return "grad", f"backward raised {type(e).__name__}: {str(e)[:120]}"
    for i, (e, g) in enumerate(zip(exp, got)):
        if e is None and g is None:
            continue
        ea = np.zeros(tuple(ref_ins[i].shape)) if e is None else ref.numpy(e)
        if g is None:
            ga = np.zeros(tuple(sub_ins[i].shape))
        elif sub.is_tensor(g):
            ga = sub.numpy(g)
        else:
            return "grad", f"grad of input {i} is a {type(g).__name__}"
        bad = values_close(ea, ga, GRAD_TOL)
        if bad:
            return "grad", f"grad of input {i}: {bad}"
    return None


def run_pair(ref_call, sub_call, ref: Side, sub: Side, prefix, random=False):
    """Call both; (exp_out, got_out, failure or None, ended) with ended when nothing more
    is to compare (both raised alike, or a failure)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exp, e_exc = ref_call(), None
        except Exception as e:  # noqa: BLE001 - the oracle's exception is the expectation
            exp, e_exc = None, e
        try:
            got, g_exc = sub_call(), None
        except Exception as e:  # noqa: BLE001 - the frontend's exception is the result
            got, g_exc = None, e
    if g_exc is not None:
        name = missing_name(g_exc, sub, prefix)
        if name:
            return exp, got, ("missing", name), True
    if e_exc is not None:
        if g_exc is None:
            return exp, got, ("wrong-error", f"{ref.name} raised {type(e_exc).__name__}: "
                                             f"{str(e_exc)[:100]}; {sub.name} did not"), True
        if builtin_kind(e_exc) is not builtin_kind(g_exc):
            return exp, got, ("wrong-error", f"{ref.name} raised {type(e_exc).__name__}, "
                                             f"{sub.name} {type(g_exc).__name__}: "
                                             f"{str(g_exc)[:100]}"), True
        return exp, got, None, True
    if g_exc is not None:
        return exp, got, ("error", f"{type(g_exc).__name__}: {str(g_exc)[:140]}"), True
    bad = compare(exp, got, ref, sub, values=not random)
    return exp, got, bad, bad is not None


# ------------------------------------------------------------------ torch vs torchlike
class _Absent:
    def __init__(self, path):
        self._path = path

    def __getattr__(self, n):
        raise Missing(f"{self._path}.{n}")

    def __call__(self, *a, **k):
        raise Missing(self._path)


class Mirror:
    """A frontend module seen under torch's path: a lacking name raises ``Missing``."""

    def __init__(self, obj, path):
        self._obj, self._path = obj, path

    def __getattr__(self, n):
        try:
            v = getattr(self._obj, n)
        except (AttributeError, NotImplementedError):
            return _Absent(f"{self._path}.{n}")
        if isinstance(v, types.ModuleType):
            return Mirror(v, f"{self._path}.{n}")
        return v


def frontend_path(root, path, shown="torch"):
    """The frontend's object at torch's dotted ``path`` (``nn.functional.relu``)."""
    obj = root
    done = shown
    for part in path.split("."):
        try:
            obj = getattr(obj, part)
        except (AttributeError, NotImplementedError):
            raise Missing(f"{done}.{part}") from None
        done = f"{done}.{part}"
    return obj


@cache
def _rebound_globals(module_name, target):
    import importlib
    src = sys.modules[module_name].__dict__
    root = importlib.import_module(target)
    g = dict(src)
    for k, v in src.items():
        if isinstance(v, types.ModuleType) and v.__name__.split(".")[0] == "torch":
            sub = v.__name__.split(".", 1)[1] if "." in v.__name__ else ""
            try:
                obj = frontend_path(root, sub) if sub else root
                g[k] = Mirror(obj, v.__name__)
            except Missing:
                g[k] = _Absent(v.__name__)
    g["wrapper_set_seed"] = lambda fn, *a, **kw: fn(*a, **kw)
    return g


def rebind(fn, target="torchlike"):
    """``fn`` (a wrapper from torch's test code) with its torch modules swapped for the
    frontend's."""
    if not isinstance(fn, types.FunctionType):
        return fn
    g = _rebound_globals(fn.__module__, target)
    return types.FunctionType(fn.__code__, g, fn.__name__, fn.__defaults__, fn.__closure__)


def frontend_callable(op, target="torchlike"):
    """The frontend's counterpart of ``op.op``, resolved at call time."""
    import importlib
    kind, obj = torch_public(op.name)
    if isinstance(op.op, types.FunctionType) and op.op is not obj:
        return rebind(op.op, target)
    root = importlib.import_module(target)
    if kind == "function":
        return lambda *a, **k: frontend_path(root, op.name)(*a, **k)
    return lambda inp, *a, **k: _method(inp, op.name)(*a, **k)


def _method(inp, name):
    try:
        return getattr(inp, name)
    except (AttributeError, NotImplementedError):
        raise Missing(f"torch.Tensor.{name}") from None


class Converter:
    """torch sample values -> torchlike's, each tensor once (aliases stay aliases)."""

    def __init__(self, sub: Side, prefix="torch"):
        import torch
        self.torch, self.sub, self.prefix, self.memo = torch, sub, prefix, {}

    def __call__(self, x):
        torch = self.torch
        if isinstance(x, torch.Tensor):
            if id(x) not in self.memo:
                a = x.detach().numpy().copy()
                self.memo[id(x)] = (x, self.sub.tensor(a, x.requires_grad))
            return self.memo[id(x)][1]
        if isinstance(x, torch.Size):
            return self.sub.m.Size(tuple(x)) if hasattr(self.sub.m, "Size") else tuple(x)
        if isinstance(x, tuple) and type(x) is not tuple:  # namedtuples
            return type(x)(*(self(v) for v in x))
        if isinstance(x, (list, tuple)):
            return type(x)(self(v) for v in x)
        if isinstance(x, dict):
            return {k: self(v) for k, v in x.items()}
        if isinstance(x, (torch.dtype, torch.memory_format, torch.layout)):
            name = str(x).rsplit(".", 1)[-1]
            try:
                return getattr(self.sub.m, name)
            except (AttributeError, NotImplementedError):
                raise Missing(f"{self.prefix}.{name}") from None
        if isinstance(x, torch.device):
            return self.sub.m.device(str(x))
        if isinstance(x, torch.Generator):
            raise Missing(f"{self.prefix}.Generator")
        if callable(x) and isinstance(x, types.FunctionType):
            return rebind(x)
        if isinstance(x, torch.nn.Module) and not list(x.parameters()):
            return self._module(x)
        return x

    def _module(self, x):
        """A parameterless torch module (nn.PairwiseDistance() as a sample's distance
        function) as the frontend's module of its name, with the same plain options."""
        try:
            cls = getattr(self.sub.m.nn, type(x).__name__)
            m = cls()
        except (AttributeError, NotImplementedError, TypeError):
            raise Missing(f"{self.prefix}.nn.{type(x).__name__}") from None
        for k, v in vars(x).items():
            if not k.startswith("_") and isinstance(v, (bool, int, float, str)):
                setattr(m, k, v)
        return m

    def pairs(self, ref_tensors):
        """The converted counterparts of ``ref_tensors``."""
        return [self.memo[id(t)][1] for t in ref_tensors]


def check_torch_sample(op, s, ref, sub, with_method):
    """None when the sample passes, else (category, detail)."""
    conv = Converter(sub)
    try:
        inp, args, kwargs = conv(s.input), conv(s.args), conv(s.kwargs)
        fn = frontend_callable(op)
    except Missing as m:
        return "missing", m.name
    ref_ins = [t for t in tensors_in((s.input, s.args, s.kwargs), ref) if t.requires_grad]
    sub_ins = conv.pairs(ref_ins)
    rnd = is_random(op)
    exp, got, bad, ended = run_pair(lambda: op.op(s.input, *s.args, **s.kwargs),
                                    lambda: fn(inp, *args, **kwargs), ref, sub, "torch", rnd)
    if bad and bad[0] == "value" and op.name in UP_TO_SIGN:
        bad = compare(s.output_process_fn_grad(exp), rebind(s.output_process_fn_grad)(got),
                      ref, sub)
    if bad and bad[0] == "value" and op.name in LOOSE:
        bad = None if np.allclose(ref.numpy(exp), sub.numpy(got), rtol=0,
                                  atol=LOOSE[op.name], equal_nan=True) else bad
    if bad or ended:
        return bad
    if ref_ins and not rnd:
        proc_ref = s.output_process_fn_grad
        proc_sub = rebind(proc_ref)
        try:
            e_out, g_out = proc_ref(exp), proc_sub(got)
        except Exception as e:  # noqa: BLE001
            return "grad", f"output_process_fn_grad: {type(e).__name__}: {e}"
        bad = check_grads(e_out, g_out, ref_ins, sub_ins, ref, sub)
        if bad:
            return bad
    if with_method and op.method_variant is not None and torch_public(op.name)[0] == "function" \
            and ref.is_tensor(s.input):
        conv = Converter(sub)
        inp, args, kwargs = conv(s.input), conv(s.args), conv(s.kwargs)
        _, _, bad, _ = run_pair(lambda: op.method_variant(s.input, *s.args, **s.kwargs),
                                lambda: _method(inp, op.name)(*args, **kwargs), ref, sub,
                                "torch", rnd)
        if bad:
            return ("method", f"Tensor.{op.name}: " + bad[1]) if bad[0] != "missing" else bad
    return None


def run_entry(op, check, cap=CAP):
    """Outcome of one OpInfo entry: its first failing sample, or a pass."""
    n = skipped = 0
    why = []
    for dtype, rg in plan(op):
        try:
            samples, sk = draw(op, dtype, rg, cap)
        except Exception as e:  # noqa: BLE001 - torch cannot make this dtype's samples
            return Outcome(False, "error", f"sample_inputs({dtype}) raised "
                                           f"{type(e).__name__}: {e}", n, skipped)
        skipped += sk
        for i, s in enumerate(samples):
            try:
                bad = check(op, s, i == 0)
            except SkipSample as e:
                skipped += 1
                why.append(str(e))
                continue
            n += 1
            if bad:
                where = f"{op.name}" + (f".{op.variant_test_name}" if op.variant_test_name
                                        else "")
                return Outcome(False, bad[0], f"[{where} {dtype} #{i}] {bad[1]}", n, skipped)
    return Outcome(True, samples=n, skipped=skipped, entries=why)


def run_name(entries, check, cap=CAP):
    """Outcome of an op (a name): every entry's samples pass."""
    total = Outcome(True)
    for op in entries:
        o = run_entry(op, check, cap)
        total.samples += o.samples
        total.skipped += o.skipped
        total.entries += o.entries
        if not o.passed and total.passed:
            total.passed, total.category, total.detail = False, o.category, o.detail
    if total.passed and total.samples == 0:
        total.passed, total.category = False, "mapping"
        total.detail = "no sample in scope (complex, sparse or unmappable)" + (
            f": {total.entries[0]}" if total.entries else "")
    return total


@cache
def torch_sides():
    return TorchSide(), TorchlikeSide()


def run_torch(name, cap=CAP):
    ref, sub = torch_sides()
    return run_name(select()[name],
                    lambda op, s, first: check_torch_sample(op, s, ref, sub, first), cap)


def read_list(path):
    try:
        with open(path) as f:
            return {ln.strip() for ln in f if ln.strip() and not ln.startswith("#")}
    except FileNotFoundError:
        return set()
