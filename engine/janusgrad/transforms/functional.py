"""Functional transforms on the reverse-mode engine: vjp, jvp, jacobian, hessian, hvp, vhp,
and the grad-of-a-function helpers (grad with argnums/has_aux, vjp closures, jacrev).

Everything is built from one primitive, ``grads_of`` (gradients as values, never
accumulated into ``.grad``).  Forward-mode products (jvp, hvp) use the double-vjp
trick: the vjp is linear in its seed ``u``, so differentiating ``<vjp(u), .>`` with
respect to ``u`` gives the forward product.

Argument checks and error texts follow one convention (inputs and outputs are a
tensor or a tuple of tensors; ``strict`` refuses independent inputs/outputs); the
wording is a ``Words`` object the frontends may subclass.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from janusgrad.array.backend import MODULES
from janusgrad.core.autograd import run_backward
from janusgrad.core.mode import state
from janusgrad.core.tensor import Node, Tensor
from janusgrad.ops import elementwise as _ew
from janusgrad.ops import shape as _shape


# ---------------------------------------------------------------- wording
class Words:
    """Error texts of the functional API (neutral; frontends subclass to reword)."""

    strict_vectorize_prefix = "jacobian"

    def size(self, shape) -> str:
        return str(tuple(shape))

    def not_tensor(self, arg: str, fn: str, index, typ) -> Exception:
        where = f"the given {arg} has" if index is None else f"the value at index {index} has"
        return TypeError(f"The {arg} given to {fn} must be either a Tensor or a tuple of "
                         f"Tensors but {where} type {typ}.")

    def v_none_output(self) -> Exception:
        return RuntimeError("The vector v can only be None if the user-provided function "
                            "returns a single Tensor with a single element.")

    def v_none_input(self) -> Exception:
        return RuntimeError("The vector v can only be None if the input to the user-provided "
                            "function is a single Tensor with a single element.")

    def v_length(self, expected: int, got: int, is_tuple: bool) -> Exception:
        if is_tuple:
            return RuntimeError(f"v is a tuple of invalid length: should be {expected} but "
                                f"got {got}.")
        return RuntimeError("The given v should contain a single Tensor.")

    def v_size(self, index: int, expected, got, is_tuple: bool) -> Exception:
        prefix = f"Entry {index} in " if is_tuple else ""
        return RuntimeError(f"{prefix}v has invalid size: should be {self.size(expected)} but "
                            f"got {self.size(got)}.")

    def single_tensor(self, fn: str) -> Exception:
        return RuntimeError(f"The function given to {fn} should return a single Tensor")

    def single_element(self, fn: str) -> Exception:
        return RuntimeError(f"The Tensor returned by the function given to {fn} should "
                            "contain a single element")

    def strict_vectorize(self) -> Exception:
        return RuntimeError(f"{self.strict_vectorize_prefix}: `strict=True` and "
                            "`vectorized=True` are not supported together. Please either set "
                            "`strict=False` or `vectorize=False`.")

    def bad_strategy(self) -> Exception:
        return AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".')

    def bad_outer_strategy(self) -> Exception:
        return AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def forward_not_vectorized(self) -> Exception:
        # the missing space after "is" is the reference text's
        return NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse "
                                   "Hessian isonly implemented for `vectorize=True`.")

    def forward_create_graph(self) -> Exception:
        return NotImplementedError(
            f"{self.strict_vectorize_prefix}: `create_graph=True` and `strategy=\"forward-mode\"`"
            " are not supported together (yet). Please either set `create_graph=False` or "
            "`strategy=\"reverse-mode\"`.")

    # strict mode
    def requires_grad(self, kind: str, i: int) -> Exception:
        if kind == "hessian":
            return RuntimeError(
                f"The hessian of the user-provided function with respect to input {i} is "
                "independent of the input. This is not allowed in strict mode. You should ensure "
                "that your function is thrice differentiable and that the hessian depends on the "
                "inputs.")
        if kind == "jacobian":
            return RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided "
                f"function with respect to input {i} is independent of the input. This is not "
                "allowed in strict mode. You should ensure that your function is twice "
                "differentiable and that the jacobian depends on the inputs (this would be "
                "violated by a linear function for example).")
        if kind == "grad_inputs":
            return RuntimeError(
                f"The gradient with respect to input {i} is independent of the inputs of the "
                "user-provided function. This is not allowed in strict mode.")
        return RuntimeError(
            f"Output {i} of the user-provided function does not require gradients. The outputs "
            "must be computed in a differentiable manner from the input when running in strict "
            "mode.")

    def independent(self, stage: str, i: int) -> Exception:
        if stage == "back":
            return RuntimeError(f"The output of the user-provided function is independent of "
                                f"input {i}. This is not allowed in strict mode.")
        if stage == "back_trick":
            return RuntimeError(
                f"The gradient with respect to the input is independent of entry {i} in the "
                "grad_outputs when using the double backward trick to compute forward mode "
                "gradients. This is not allowed in strict mode.")
        if stage == "double_back":
            return RuntimeError(f"The jacobian of the user-provided function is independent of "
                                f"input {i}. This is not allowed in strict mode.")
        return RuntimeError(
            f"The hessian of the user-provided function is independent of entry {i} in the "
            "grad_jacobian. This is not allowed in strict mode as it prevents from using the "
            "double backward trick to replace forward mode AD.")

    def constant_with_graph(self, stage: str, i: int) -> Exception:
        what = "hessian" if "double" in stage else "jacobian"
        return RuntimeError(f"The {what} of the user-provided function is independent of input "
                            f"{i}. This is not allowed in strict mode when create_graph=True.")

    def jacobian_independent(self, i: int, j: int) -> Exception:
        return RuntimeError(f"Output {i} of the user-provided function is independent of input "
                            f"{j}. This is not allowed in strict mode.")

    # function transforms (grad / vjp closures / jacrev)
    def argnum_range(self, argnum: int, n: int) -> Exception:
        return RuntimeError(f"Got argnum={argnum}, but only {n} positional inputs")

    def no_rows(self) -> Exception:
        return RuntimeError("jacobian: an output without elements has no rows to stack")

    def argnums_empty(self) -> Exception:
        return RuntimeError("argnums must be non-empty")

    def argnums_unique(self, argnums) -> Exception:
        return RuntimeError(f"argnums elements must be unique, got {argnums}")

    def transform_not_tensor(self, x) -> Exception:
        return ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")

    def transform_not_float(self) -> Exception:
        return RuntimeError("only Tensors of floating point dtype can require gradients")

    def argnums_type(self, argnums) -> Exception:
        return RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")

    def grad_not_tensor(self, out) -> Exception:
        return RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a Tensor, "
                            f"got {type(out)}")

    def grad_not_scalar(self, ndim: int) -> Exception:
        return RuntimeError("grad_and_value(f)(*args): Expected f(*args) to return a scalar "
                            f"Tensor, got tensor with {ndim} dims. Maybe you wanted to use the "
                            "vjp or jacrev APIs instead?")

    def aux_not_pair(self, fn: str = "grad_and_value(f)(*args)") -> Exception:
        return RuntimeError(f"{fn}: output of function f should be a tuple: (output, aux) if "
                            "has_aux is True")

    def cotangent_structure(self, got: str, expected: str) -> Exception:
        return RuntimeError("Expected pytree structure of cotangents to be the same as pytree "
                            f"structure of outputs to the function. cotangents: {got}, primal "
                            f"output: {expected}")

    def cotangent_shape(self, i: int, got, expected) -> Exception:
        return RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of "
                            f"{self.size(got)} and output[{i}] has a shape of "
                            f"{self.size(expected)}.")


WORDS = Words()


def zeros_like(t: Tensor) -> Tensor:
    """Zeros of ``t``'s class, shape and dtype, on ``t``'s device."""
    a = t.array
    return type(t).wrap(MODULES[type(a)].zeros(a.shape, dtype=a.dtype))


def ones_like(t: Tensor) -> Tensor:
    """Ones of ``t``'s class, shape and dtype, on ``t``'s device."""
    a = t.array
    return type(t).wrap(MODULES[type(a)].ones(a.shape, dtype=a.dtype))


# ---------------------------------------------------------------- the primitive
def grads_of(outputs, inputs, seeds=None, create_graph: bool = False, retain_graph=None):
    """d(outputs)/d(inputs) contracted with ``seeds``, as a tuple (None where unused).

    Outputs that do not require grad are skipped; with none left every entry is None.
    A None seed means ones (used only for single-element outputs).
    """
    if seeds is None:
        seeds = (None,) * len(outputs)
    roots, root_seeds = [], []
    for out, s in zip(outputs, seeds):
        if out is not None and out.requires_grad:
            roots.append(out)
            if s is None:
                s = ones_like(out)
            elif s.array.dtype != out.array.dtype:
                s = _ew.cast(s, out.array.dtype)
            if s.requires_grad and s.node is None:
                # a leaf seed that is itself differentiated (double-vjp trick) goes in as a
                # graph tensor: the scheduler copies a leaf gradient it hands to two inputs,
                # which would cut the leaf off
                with _Mode(True):
                    s = _ew.clone(s)  # its rule hands the gradient on unchanged
            root_seeds.append(s)
    if not roots:
        return (None,) * len(inputs)
    if retain_graph is None:
        retain_graph = create_graph
    grads = run_backward(roots, root_seeds, retain_graph=bool(retain_graph),
                         create_graph=create_graph, inputs=list(inputs), accumulate=False)
    return tuple(grads)


def detached(t: Tensor) -> Tensor:
    """A leaf sharing ``t``'s data (the engine's detach, whatever the frontend adds)."""
    return Tensor.detach(t)


def _connected(t: Tensor) -> Tensor:
    """A graph tensor equal to ``t`` that passes gradients on to it."""
    return _shape.reshape(t, t.array.shape)


# ---------------------------------------------------------------- argument handling
def as_tuple(x, arg: str, fn: str, words: Words = WORDS):
    """(was_tuple, tuple of tensors), refusing anything else."""
    if isinstance(x, Tensor):
        return False, (x,)
    if not isinstance(x, tuple):  # a list is refused too, as the reference does
        raise words.not_tensor(arg, fn, None, type(x))
    for i, el in enumerate(x):
        if not isinstance(el, Tensor):
            raise words.not_tensor(arg, fn, i, type(el))
    return True, x


def _untuple(res, to_unpack):
    """Undo as_tuple: ``to_unpack`` is one flag, or two for a tuple of tuples."""
    if isinstance(to_unpack, bool):
        return res if to_unpack else res[0]
    outer, inner = to_unpack
    if not inner:
        res = tuple(r[0] for r in res)
    return res if outer else res[0]


def _preprocess(ts, create_graph: bool, need_graph: bool):
    """Fresh differentiable stand-ins for the caller's tensors.

    With ``create_graph`` a tensor that already requires grad stays connected to
    its graph (so the result can be differentiated further); otherwise it is
    detached and made a leaf that requires grad (when ``need_graph``).
    """
    out = []
    with_grad = state.enabled
    state.enabled = True
    try:
        for t in ts:
            if create_graph and t.requires_grad:
                out.append(_connected(t))
            else:
                d = detached(t)
                if need_graph:
                    d.set_requires_grad(True)
                out.append(d)
    finally:
        state.enabled = with_grad
    return tuple(out)


def _postprocess(ts, create_graph: bool):
    if create_graph:
        return ts
    if isinstance(ts, tuple):
        return tuple(_postprocess(t, create_graph) for t in ts)
    return detached(ts)


def _validate_v(v, other, is_other_tuple: bool, words: Words) -> None:
    if len(other) != len(v):
        raise words.v_length(len(other), len(v), is_other_tuple)
    for i, (a, b) in enumerate(zip(v, other)):
        if a.array.shape != b.array.shape:
            raise words.v_size(i, b.array.shape, a.array.shape, is_other_tuple)


def _check_requires_grad(ts, kind: str, strict: bool, words: Words) -> None:
    if not strict:
        return
    for i, t in enumerate(ts):
        if t is None:
            raise words.independent("back", i)
        if not t.requires_grad:
            raise words.requires_grad(kind, i)


def _fill_in_zeros(grads, refs, strict: bool, create_graph: bool, stage: str, words: Words):
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise words.independent(stage, i)
            g = zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            raise words.constant_with_graph(stage, i)
        res.append(g)
    return tuple(res)


class _Mode:
    """Run a block with grad mode set, restoring the caller's on exit."""

    __slots__ = ("mode", "prev")

    def __init__(self, mode: bool) -> None:
        self.mode = mode

    def __enter__(self):
        self.prev = state.enabled
        state.enabled = self.mode

    def __exit__(self, *exc):
        state.enabled = self.prev
        return False


def _call_outputs(func, inputs, fn: str, strict: bool, words: Words):
    outputs = func(*inputs)
    is_tuple, outputs = as_tuple(outputs, "outputs of the user-provided function", fn, words)
    _check_requires_grad(outputs, "outputs", strict, words)
    return is_tuple, outputs


# ---------------------------------------------------------------- products
def vjp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False,
        words: Words = WORDS):
    """(func(inputs), v^T J) with the reference's tuple structure."""
    with _Mode(True):
        is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "vjp", words)
        inputs = _preprocess(inputs, create_graph, True)
        is_outputs_tuple, outputs = _call_outputs(func, inputs, "vjp", strict, words)
        if v is not None:
            _, v = as_tuple(v, "v", "vjp", words)
            v = _preprocess(v, create_graph, False)
            _validate_v(v, outputs, is_outputs_tuple, words)
        elif len(outputs) != 1 or outputs[0].array.size != 1:
            raise words.v_none_output()
    with _Mode(True if create_graph else state.enabled):
        grads = grads_of(outputs, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(grads, inputs, strict, create_graph, "back", words)
    return (_untuple(_postprocess(outputs, create_graph), is_outputs_tuple),
            _untuple(_postprocess(res, create_graph), is_inputs_tuple))


def jvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False,
        words: Words = WORDS):
    """(func(inputs), J v) by the double-vjp trick."""
    with _Mode(True):
        is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "jvp", words)
        inputs = _preprocess(inputs, create_graph, True)
        if v is not None:
            _, v = as_tuple(v, "v", "jvp", words)
            v = _preprocess(v, create_graph, False)
            _validate_v(v, inputs, is_inputs_tuple, words)
        elif len(inputs) != 1 or inputs[0].array.size != 1:
            raise words.v_none_input()
        is_outputs_tuple, outputs = _call_outputs(func, inputs, "jvp", strict, words)
        # the vjp is linear in its seed, so any finite seed value will do
        seeds = tuple(_leaf_zeros(o) for o in outputs)
        grad_inputs = grads_of(outputs, inputs, seeds, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict, words)
    with _Mode(True if create_graph else state.enabled):
        grads = grads_of(grad_inputs, seeds, v, create_graph=create_graph)
        res = _fill_in_zeros(grads, outputs, strict, create_graph, "back_trick", words)
    return (_untuple(_postprocess(outputs, create_graph), is_outputs_tuple),
            _untuple(_postprocess(res, create_graph), is_outputs_tuple))


def _leaf_zeros(t: Tensor) -> Tensor:
    z = zeros_like(t)
    z.set_requires_grad(True)
    return z


def _one_hot(out: Tensor, j: int) -> Tensor:
    seed = zeros_like(out)
    seed.array.reshape(-1)[j] = 1
    return seed


def jacobian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
             vectorize: bool = False, strategy: str = "reverse-mode", words: Words = WORDS):
    """d func / d inputs, one reverse pass per output element (``vectorize`` is accepted;
    forward-mode gives the same values)."""
    with _Mode(True):
        is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "jacobian", words)
        if strategy not in ("forward-mode", "reverse-mode"):
            raise words.bad_strategy()
        if strategy == "forward-mode":
            if create_graph:
                raise words.forward_create_graph()
            if not vectorize:
                raise words.forward_not_vectorized()
        inputs = _preprocess(inputs, create_graph, True)
        is_outputs_tuple, outputs = _call_outputs(func, inputs, "jacobian", strict, words)
        if vectorize and strict:
            raise words.strict_vectorize()
        result = tuple(_jacobian_of(i, out, inputs, create_graph, strict, vectorize, words)
                       for i, out in enumerate(outputs))
        result = _postprocess(result, create_graph)
        return _untuple(result, (is_outputs_tuple, is_inputs_tuple))


def _jacobian_of(i, out, inputs, create_graph, strict, vectorize, words):
    rows = [[] for _ in inputs]
    for j in range(out.array.size):
        grads = grads_of((out,), inputs, (_one_hot(out, j),), create_graph=create_graph,
                         retain_graph=True)
        for k, (g, inp) in enumerate(zip(grads, inputs)):
            if g is None:
                if strict:
                    raise words.jacobian_independent(i, k)
                g = zeros_like(inp)
            elif strict and create_graph and not g.requires_grad:
                raise words.constant_with_graph("back", i)
            rows[k].append(g)
    if out.array.size == 0:  # no rows to stack: the reference refuses too
        raise words.no_rows()
    return tuple(_shape.reshape(_shape.stack(rows[k], 0), out.array.shape + inp.array.shape)
                 for k, inp in enumerate(inputs))


def hessian(func: Callable, inputs, create_graph: bool = False, strict: bool = False,
            vectorize: bool = False, outer_jacobian_strategy: str = "reverse-mode",
            words: Words = WORDS):
    """The matrix of second derivatives of a single-element function."""
    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", "hessian", words)
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise words.bad_outer_strategy()

    def single_output(*inp):
        out = func(*inp)
        is_tuple, t_out = as_tuple(out, "outputs of the user-provided function", "hessian",
                                   words)
        _check_requires_grad(t_out, "outputs", strict, words)
        if is_tuple:
            raise words.single_tensor("hessian")
        if out.array.size != 1:
            raise words.single_element("hessian")
        return _shape.squeeze(out)

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":
            for t in inp:
                t.set_requires_grad(True)
        jac = jacobian(single_output, inp, create_graph=True, words=words)
        _check_requires_grad(jac, "jacobian", strict, words)
        return jac

    strategy = outer_jacobian_strategy
    if strategy == "forward-mode":
        # the reference's forward-over-reverse result keeps the inner graph: emulate it
        if create_graph:
            raise words.forward_create_graph()
        if not vectorize:
            raise words.forward_not_vectorized()
        create_graph, strategy = True, "reverse-mode"
    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict,
                   vectorize=vectorize, strategy=strategy, words=words)
    return _untuple(res, (is_inputs_tuple, is_inputs_tuple))


def _second_order_prelude(func, inputs, v, fn, create_graph, strict, words):
    is_inputs_tuple, inputs = as_tuple(inputs, "inputs", fn, words)
    inputs = _preprocess(inputs, create_graph, True)
    if v is not None:
        _, v = as_tuple(v, "v", fn, words)
        v = _preprocess(v, create_graph, False)
        _validate_v(v, inputs, is_inputs_tuple, words)
    elif len(inputs) != 1 or inputs[0].array.size != 1:
        raise words.v_none_input()
    is_outputs_tuple, outputs = _call_outputs(func, inputs, fn, strict, words)
    if is_outputs_tuple:
        raise words.single_tensor(fn)
    if outputs[0].array.size != 1:
        raise words.single_element(fn)
    jac = grads_of(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict, words)
    return is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac


def vhp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False,
        words: Words = WORDS):
    """(func(inputs), v^T H)."""
    with _Mode(True):
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _second_order_prelude(
            func, inputs, v, "vhp", create_graph, strict, words)
    with _Mode(True if create_graph else state.enabled):
        grads = grads_of(jac, inputs, v, create_graph=create_graph)
        res = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back", words)
    return (_untuple(_postprocess(outputs, create_graph), is_outputs_tuple),
            _untuple(_postprocess(res, create_graph), is_inputs_tuple))


def hvp(func: Callable, inputs, v=None, create_graph: bool = False, strict: bool = False,
        words: Words = WORDS):
    """(func(inputs), H v) by the double-vjp trick."""
    with _Mode(True):
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _second_order_prelude(
            func, inputs, v, "hvp", create_graph, strict, words)
        grad_jac = tuple(_leaf_zeros(t) for t in inputs)
        double_back = grads_of(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict, words)
    with _Mode(True if create_graph else state.enabled):
        grads = grads_of(double_back, grad_jac, v, create_graph=create_graph)
        res = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back_trick", words)
    return (_untuple(_postprocess(outputs, create_graph), is_outputs_tuple),
            _untuple(_postprocess(res, create_graph), is_inputs_tuple))


# ---------------------------------------------------------------- function transforms
def _reaches_outside(t: Tensor, own: set) -> bool:
    """Whether ``t``'s graph reaches a grad-requiring leaf other than the ``own`` ones."""
    if t.node is None:
        return t.requires_grad and id(t) not in own
    stack, seen = [t.node], set()
    while stack:
        n = stack.pop()
        for p in n.parents:
            if p is None:
                continue
            k = id(p)
            if k in seen:
                continue
            seen.add(k)
            if type(p) is Node:
                stack.append(p)
            elif k not in own:
                return True
    return False


def _unwrap(x, own: set):
    """What a transform returns: cut from its private leaves unless an outer graph needs it."""
    if isinstance(x, Tensor):
        return x if _reaches_outside(x, own) else detached(x)
    if isinstance(x, tuple):
        return tuple(_unwrap(e, own) for e in x)
    if isinstance(x, list):
        return [_unwrap(e, own) for e in x]
    if isinstance(x, dict):
        return {k: _unwrap(e, own) for k, e in x.items()}
    return x


def normalize_argnums(argnums, n: int, words: Words = WORDS):
    """(tuple of positions, was_int)."""
    if isinstance(argnums, int) and not isinstance(argnums, bool):
        nums, was_int = (argnums,), True
    elif isinstance(argnums, tuple) and all(isinstance(a, int) for a in argnums):
        if not argnums:
            raise words.argnums_empty()
        if len(set(argnums)) != len(argnums):
            raise words.argnums_unique(argnums)
        nums, was_int = argnums, False
    else:
        raise words.argnums_type(argnums)
    out = []
    for a in nums:
        if not -n <= a < n:
            raise words.argnum_range(a, n)
        out.append(a % n)
    return tuple(out), was_int


class _Level:
    """One transform level: private differentiable copies of the chosen arguments."""

    def __init__(self, args, argnums, words: Words) -> None:
        self.create_graph = state.enabled  # an outer level (or the caller) may differentiate
        if argnums is None:  # every argument (vjp): possibly none
            self.nums, self.was_int = tuple(range(len(args))), False
        else:
            self.nums, self.was_int = normalize_argnums(argnums, len(args), words)
        self.own: set = set()
        args = list(args)
        with _Mode(True):
            for a in self.nums:
                x = args[a]
                if not isinstance(x, Tensor):
                    raise words.transform_not_tensor(x)
                if x.array.dtype.kind != "f":
                    raise words.transform_not_float()
                if self.create_graph and x.requires_grad:
                    args[a] = _connected(x)
                else:
                    d = detached(x)
                    d.set_requires_grad(True)
                    self.own.add(id(d))
                    args[a] = d
        self.args = args
        self.inputs = tuple(args[a] for a in self.nums)

    def grads(self, outputs, seeds, retain: bool = False):
        gs = grads_of(outputs, self.inputs, seeds, create_graph=self.create_graph,
                      retain_graph=retain or self.create_graph)
        return tuple(zeros_like(x) if g is None else g for g, x in zip(gs, self.inputs))

    def shaped(self, grads):
        return grads[0] if self.was_int else grads

    def unwrap(self, x):
        return _unwrap(x, self.own)


def grad_and_value(func: Callable, argnums=0, has_aux: bool = False, words: Words = WORDS):
    """``f -> (x -> (grad, value))`` for a function returning a 0-d tensor."""

    def wrapper(*args, **kwargs):
        level = _Level(args, argnums, words)
        with _Mode(True):
            out = func(*level.args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise words.aux_not_pair()
                out, aux = out
            if not isinstance(out, Tensor):
                raise words.grad_not_tensor(out)
            if out.array.ndim != 0:
                raise words.grad_not_scalar(out.array.ndim)
            grads = level.grads((out,), None)
        grads = level.unwrap(level.shaped(grads))
        value = level.unwrap(out)
        if has_aux:
            return grads, (value, level.unwrap(aux))
        return grads, value

    return wrapper


def grad(func: Callable, argnums=0, has_aux: bool = False, words: Words = WORDS):
    """``f -> (x -> df/dx)`` (with ``has_aux``: ``(df/dx, aux)``)."""
    gv = grad_and_value(func, argnums, has_aux, words)

    def wrapper(*args, **kwargs):
        g, value = gv(*args, **kwargs)
        if has_aux:
            return g, value[1]
        return g

    return wrapper


def _structure(x) -> str:
    if isinstance(x, tuple):
        return "(" + ", ".join(_structure(e) for e in x) + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, list):
        return "[" + ", ".join(_structure(e) for e in x) + "]"
    return "*"


def vjp_fn(func: Callable, *primals, has_aux: bool = False, words: Words = WORDS):
    """``(func(*primals), cotangents -> tuple of gradients[, aux])``."""
    level = _Level(primals, None, words)
    with _Mode(True):
        out = func(*level.args)
        aux = None
        if has_aux:
            if not (isinstance(out, tuple) and len(out) == 2):
                raise words.aux_not_pair("vjp(f, *primals)")
            out, aux = out
    flat_out = out if isinstance(out, (tuple, list)) else (out,)

    def backward_fn(cotangents):
        if _structure(cotangents) != _structure(out):
            raise words.cotangent_structure(_structure(cotangents), _structure(out))
        cots = cotangents if isinstance(cotangents, (tuple, list)) else (cotangents,)
        for i, (c, o) in enumerate(zip(cots, flat_out)):
            if c.array.shape != o.array.shape:
                raise words.cotangent_shape(i, c.array.shape, o.array.shape)
        with _Mode(True):
            grads = level.grads(tuple(flat_out), tuple(cots), retain=True)
        return level.unwrap(grads)

    result = (level.unwrap(out), backward_fn)
    return result + (level.unwrap(aux),) if has_aux else result


def jacrev(func: Callable, argnums=0, has_aux: bool = False, chunk_size=None,
           words: Words = WORDS):
    """``f -> (x -> d f / d x[argnums])``, one block per output and argument."""

    def wrapper(*args, **kwargs):
        level = _Level(args, argnums, words)
        with _Mode(True):
            out = func(*level.args, **kwargs)
            aux = None
            if has_aux:
                if not (isinstance(out, tuple) and len(out) == 2):
                    raise words.aux_not_pair("vjp(f, *primals)")
                out, aux = out
            outs = out if isinstance(out, (tuple, list)) else (out,)
            blocks = []
            for o in outs:
                rows = [[] for _ in level.inputs]
                for j in range(o.array.size):
                    for k, g in enumerate(level.grads((o,), (_one_hot(o, j),), retain=True)):
                        rows[k].append(g)
                per_arg = []
                for k, x in enumerate(level.inputs):
                    shape = o.array.shape + x.array.shape
                    if rows[k]:
                        per_arg.append(_shape.reshape(_shape.stack(rows[k], 0), shape))
                    else:
                        per_arg.append(type(x).wrap(x.array.reshape(-1)[:0].reshape(shape)))
                blocks.append(level.shaped(tuple(per_arg)))
        res = tuple(blocks) if isinstance(out, (tuple, list)) else blocks[0]
        if isinstance(out, list):
            res = list(res)
        res = level.unwrap(res)
        return (res, level.unwrap(aux)) if has_aux else res

    return wrapper


def hessian_fn(func: Callable, argnums=0, words: Words = WORDS):
    """``f -> (x -> d2 f / d x2)`` as the jacobian of the jacobian.

    The reference differentiates the gradient in forward mode; block (a, b) is computed
    here as the transpose of reverse-over-reverse block (b, a), which is the same number
    and lands its signed zeros where forward mode does.
    """
    rr = jacrev(jacrev(func, argnums, words=words), argnums, words=words)

    def wrapper(*args, **kwargs):
        h = rr(*args, **kwargs)
        nums, was_int = normalize_argnums(argnums, len(args), words)
        sizes = [args[a].array.ndim for a in nums]
        if isinstance(h, (tuple, list)) and not was_int:
            return type(h)(tuple(_swap_groups(h[b][a], sizes[b], sizes[a])
                                 for b in range(len(nums))) for a in range(len(nums)))
        if isinstance(h, (tuple, list)):  # several outputs, one argument
            return type(h)(_swap_groups(e, sizes[0], sizes[0]) for e in h)
        return _swap_groups(h, sizes[0], sizes[0])

    return wrapper


def _swap_groups(t: Tensor, first: int, second: int) -> Tensor:
    """Exchange the last two axis groups (of ``first`` then ``second`` axes)."""
    n = t.array.ndim
    lead = n - first - second
    axes = (tuple(range(lead)) + tuple(range(lead + first, n))
            + tuple(range(lead, lead + first)))
    if axes != tuple(range(n)):
        t = _shape.transpose(t, axes)
    return _shape.reshape(t, t.array.shape)  # a view last, as the reference's result is


def is_sequence(x) -> bool:
    return isinstance(x, Sequence) and not isinstance(x, (str, bytes))
