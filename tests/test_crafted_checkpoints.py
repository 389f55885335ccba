"""Crafted checkpoint files (issue 22 §1): a file whose tensors lie about their layout, or
that is damaged, is refused with the real framework's exception type; nothing reads past a
storage or hands out uninitialised memory.

The files are generated here (nothing binary is checked in) and loaded in a subprocess, one
per dialect, so that a crash (SIGSEGV) fails the test instead of killing pytest. Each
case's exception type is compared with the real framework's where it is installed, and with
the table below always.
"""
from __future__ import annotations

import io
import json
import os
import pickle
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ------------------------------------------------------------------ crafting pickles
class _Global:
    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args):  # pickle wants reduce callables to be callable
        raise TypeError("placeholder")


class _Call:
    """Pickles as ``func(*args)`` with ``func`` a global named by module and name, then
    ``state`` set on the result (BUILD) when given."""

    def __init__(self, func: _Global, args: tuple, state=None) -> None:
        self.func, self.args, self.state = func, args, state

    def __reduce__(self):
        if self.state is None:
            return self.func, self.args
        return self.func, self.args, self.state


class _Pid:
    def __init__(self, pid: tuple) -> None:
        self.pid = pid


class _Pickler(pickle._Pickler):
    dispatch = pickle._Pickler.dispatch.copy()

    def _global(self, obj: _Global) -> None:
        self.write(pickle.GLOBAL + f"{obj.module}\n{obj.name}\n".encode())

    dispatch[_Global] = _global

    def persistent_id(self, obj):
        return obj.pid if isinstance(obj, _Pid) else None


def _dumps(obj, protocol: int = 2) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, protocol).dump(obj)
    return buf.getvalue()


# ------------------------------------------------------------------ torch files
FLOATS = struct.pack("<4f", 0.0, 1.0, 2.0, 3.0)


def _tensor(offset, size, stride, numel=4, storage="FloatStorage", key="0"):
    pid = _Pid(("storage", _Global("torch", storage), key, "cpu", numel))
    return _Call(_Global("torch._utils", "_rebuild_tensor_v2"),
                 (pid, offset, size, stride, False,
                  _Call(_Global("collections", "OrderedDict"), ())))


def _archive(obj, records=None, folder="archive", version=True) -> bytes:
    out = io.BytesIO()
    records = {"data/0": FLOATS} if records is None else records
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(f"{folder}/data.pkl", _dumps(obj))
        z.writestr(f"{folder}/byteorder", b"little")
        for name, data in records.items():
            z.writestr(f"{folder}/{name}", data)
        if version:
            z.writestr(f"{folder}/version", b"3\n")
    return out.getvalue()


def _flip_record_byte(data: bytes, name: str) -> bytes:
    """``data`` with the first byte of record ``name`` flipped (its CRC no longer holds)."""
    info = zipfile.ZipFile(io.BytesIO(data)).getinfo(name)
    n, extra = struct.unpack("<HH", data[info.header_offset + 26:info.header_offset + 30])
    at = info.header_offset + 30 + n + extra
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:]


def _renamed(data: bytes, old: str, new: str) -> bytes:
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for name in src.namelist():
            z.writestr(name.replace(old, new, 1), src.read(name))
    return out.getvalue()


def _truncated_pickle() -> bytes:
    """data.pkl cut at an opcode's end (torch's type for a cut elsewhere depends on its
    Python unpickler's internals: IndexError, struct.error ...; ours is EOFError)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("archive/data.pkl", _dumps(_tensor(0, (4,), (1,)))[:100])
        z.writestr("archive/data/0", FLOATS)
        z.writestr("archive/version", b"3\n")
    return out.getvalue()


BIG = 1 << 40
# case -> (file bytes, the exception torch 2.13 raises or None when it loads)
TORCH_CASES = {
    "ok": (_archive(_tensor(0, (4,), (1,))), None),
    "view with offset": (_archive(_tensor(1, (2, 2), (1, 1))), None),
    "size past the storage": (_archive(_tensor(0, (64,), (1,))), "RuntimeError"),
    "size one past": (_archive(_tensor(0, (5,), (1,))), "RuntimeError"),
    "huge size": (_archive(_tensor(0, (BIG,), (1,))), "RuntimeError"),
    "stride past the storage": (_archive(_tensor(0, (2,), (4,))), "RuntimeError"),
    "huge stride": (_archive(_tensor(0, (2,), (BIG,))), "RuntimeError"),
    "negative stride": (_archive(_tensor(3, (2,), (-1,))), "RuntimeError"),
    "offset past the end": (_archive(_tensor(10, (1,), (1,))), "RuntimeError"),
    "offset at the end": (_archive(_tensor(4, (1,), (1,))), "RuntimeError"),
    "negative offset": (_archive(_tensor(-2, (2,), (1,))), "RuntimeError"),
    "scalar past the end": (_archive(_tensor(4, (), ())), "RuntimeError"),
    "negative size": (_archive(_tensor(0, (-1,), (1,))), "RuntimeError"),
    "element count overflow": (_archive(_tensor(0, (1 << 62, 4), (1, 1))), "RuntimeError"),
    "extent overflow": (_archive(_tensor(0, (4,), (1 << 62,))), "RuntimeError"),
    "offset overflow": (_archive(_tensor((1 << 63) - 1, (1,), (1,))), "RuntimeError"),
    "size beyond int64": (_archive(_tensor(0, (1 << 70,), (1,))), "TypeError"),
    "stride beyond int64": (_archive(_tensor(0, (2,), (1 << 63,))), "TypeError"),
    "float size": (_archive(_tensor(0, (2.0,), (1,))), "TypeError"),
    "bool size": (_archive(_tensor(0, (True,), (1,))), "TypeError"),
    "ranks differ": (_archive(_tensor(0, (2, 2), (1,))), "RuntimeError"),
    "empty, any stride": (_archive(_tensor(100, (0,), (1000,))), None),
    "record shorter than declared": (_archive(_tensor(0, (4,), (1,), numel=100)),
                                     "RuntimeError"),
    "record longer than declared": (_archive(_tensor(0, (2,), (1,), numel=2)), "RuntimeError"),
    "missing record": (_archive(_tensor(0, (4,), (1,), key="7")), "RuntimeError"),
    "no version record": (_archive(_tensor(0, (4,), (1,)), version=False), "RuntimeError"),
    "empty file": (b"", "EOFError"),
    "zip magic only": (b"PK\x03\x04" + b"\0" * 6, "RuntimeError"),
    "truncated archive": (_archive(_tensor(0, (4,), (1,)))[:200], "RuntimeError"),
    "random bytes": (bytes(range(256)) * 3, "UnpicklingError"),
    "a pickle, not an archive": (pickle.dumps({"a": 1}, protocol=2), "RuntimeError"),
    "truncated data.pkl": (_truncated_pickle(), "EOFError"),
    "member under ..": (_renamed(_archive(_tensor(0, (4,), (1,))), "archive/", "a/../"),
                        "RuntimeError"),
    "absolute member": (_renamed(_archive(_tensor(0, (4,), (1,))), "archive/", "/archive/"),
                        "RuntimeError"),
}


# a damaged data record: torch does not check CRCs and loads the flipped bytes; torchlike
# refuses it (RuntimeError, torch's type for a corrupted archive), so this case is not
# compared with torch
CRC_CASE = _flip_record_byte(_archive(_tensor(0, (4,), (1,))), "archive/data/0")

LAYOUT_CASES = {k for k, (_, want) in TORCH_CASES.items()
                if want and k.split()[0] in ("size", "huge", "stride", "negative", "offset",
                                            "scalar", "element", "extent", "float", "bool",
                                            "ranks", "record")}


# ------------------------------------------------------------------ paddle files
def _ndarray_state(shape, data: bytes, dtype="<f4"):
    """numpy's own array pickle (``_reconstruct`` then ``__setstate__``) with a chosen
    shape and data."""
    return _Call(_Global("numpy._core.multiarray", "_reconstruct"),
                 (_Global("numpy", "ndarray"), (0,), b"b"),
                 (1, shape, _Call(_Global("numpy", "dtype"), (dtype[1:], False, True),
                                  (3, dtype[0], None, None, None, -1, -1, 0)),
                  False, data))


def _state_dict(value) -> bytes:
    return _dumps({"w": value, "StructuredToParameterName@@": {"w": "linear_0.w_0"}}, 4)


PADDLE_OK = _state_dict(_ndarray_state((4,), FLOATS))
# case -> (file bytes, the exception paddle 3.3.1 raises or None when it loads)
PADDLE_CASES = {
    "ok": (PADDLE_OK, None),
    "shape past the data": (_state_dict(_ndarray_state((64,), FLOATS)), "ValueError"),
    "shape short of the data": (_state_dict(_ndarray_state((2,), FLOATS)), "ValueError"),
    "negative shape": (_state_dict(_ndarray_state((-1,), FLOATS)), "TypeError"),
    "huge shape": (_state_dict(_ndarray_state((1 << 62, 4), FLOATS)), "MemoryError"),
    "wrong element size": (_state_dict(_ndarray_state((4,), FLOATS, "<f8")), "ValueError"),
    "empty file": (b"", "EOFError"),
    "truncated": (PADDLE_OK[:len(PADDLE_OK) // 2], "ValueError"),
    "random bytes": (bytes(range(256)) * 3, "ValueError"),
    "text": (b"hello world\n", "ValueError"),
    "a torch archive": (_archive(_tensor(0, (4,), (1,))), "ValueError"),
}
# what paddle would load as uninitialised memory, refused or made empty by paddlelike
PADDLE_OURS_ONLY = {
    "numpy.ndarray called": (_state_dict(_Call(_Global("numpy", "ndarray"), ((1 << 20,),))),
                             "UnpicklingError"),
    "array without state": (_state_dict(_Call(_Global("numpy._core.multiarray",
                                                      "_reconstruct"),
                                              (_Global("numpy", "ndarray"), (1 << 20,),
                                               b"b"))), None),
}


# ------------------------------------------------------------------ loading in a subprocess
LOADER = r"""
import json, os, sys, warnings
warnings.filterwarnings("ignore")
lib, folder = sys.argv[1], sys.argv[2]
if lib == "torch":
    import torch as m
elif lib == "paddle":
    import paddle as m
else:
    m = __import__(lib)
for name in sorted(os.listdir(folder)):
    print(json.dumps({"start": name}), flush=True)
    path = os.path.join(folder, name)
    try:
        if lib in ("torch", "torchlike"):
            got = m.load(path, weights_only=True)
        else:
            got = m.load(path, return_numpy=True)["w"]
        got = getattr(got, "tolist", lambda: got)()
        out = {"case": name, "type": None, "value": repr(got)[:200]}
    except BaseException as e:
        out = {"case": name, "type": type(e).__name__, "message": str(e)[:2000]}
    print(json.dumps(out), flush=True)
"""


def _case_file(name: str) -> str:
    return name.replace(" ", "_").replace(",", "").replace(".", "_")


def _load_all(lib: str, cases: dict, folder) -> dict:
    """Load every case's file with ``lib`` in one subprocess: case -> its outcome. A crash
    fails here, naming the case that was loading."""
    os.makedirs(folder, exist_ok=True)
    names = {}
    for name, data in cases.items():
        names[_case_file(name)] = name
        with open(os.path.join(folder, _case_file(name)), "wb") as f:
            f.write(data)
    proc = subprocess.run([sys.executable, "-c", LOADER, lib, str(folder)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    started = [x["start"] for x in lines if "start" in x]
    assert proc.returncode == 0, (f"{lib} died (exit {proc.returncode}) loading "
                                  f"{names.get(started[-1]) if started else None!r}: "
                                  f"{proc.stderr[-2000:]}")
    return {names[x["case"]]: x for x in lines if "case" in x}


@pytest.fixture(scope="module")
def torchlike_outcomes(tmp_path_factory):
    cases = {k: v for k, (v, _) in TORCH_CASES.items()}
    cases["crc"] = CRC_CASE
    return _load_all("torchlike", cases, tmp_path_factory.mktemp("torchlike"))


@pytest.fixture(scope="module")
def torch_outcomes(tmp_path_factory):
    pytest.importorskip("torch")
    cases = {k: v for k, (v, _) in TORCH_CASES.items()}
    return _load_all("torch", cases, tmp_path_factory.mktemp("torch"))


@pytest.mark.parametrize("case", TORCH_CASES)
def test_torchlike_refuses_a_crafted_file_as_torch_does(case, torchlike_outcomes):
    got = torchlike_outcomes[case]
    assert got["type"] == TORCH_CASES[case][1], got
    if case in LAYOUT_CASES:  # the message names the record the storage came from
        assert "archive/data/0" in got["message"], got


@pytest.mark.parametrize("case", TORCH_CASES)
def test_the_table_is_what_real_torch_does(case, torch_outcomes, torchlike_outcomes):
    want, got = torch_outcomes[case], torchlike_outcomes[case]
    assert want["type"] == TORCH_CASES[case][1], want
    if want["type"] is None:
        assert got["value"] == want["value"]
    elif want["type"] == "RuntimeError" and case not in ("no version record",):
        # torch's own words lead ours (ours go on to name the record)
        assert got["message"].startswith(want["message"].split(" (record")[0][:40]), \
            (got, want)


def test_a_damaged_record_is_refused(torchlike_outcomes):
    got = torchlike_outcomes["crc"]
    assert got["type"] == "RuntimeError" and "data/0" in got["message"], got


@pytest.fixture(scope="module")
def paddlelike_outcomes(tmp_path_factory):
    cases = {k: v for k, (v, _) in {**PADDLE_CASES, **PADDLE_OURS_ONLY}.items()}
    return _load_all("paddlelike", cases, tmp_path_factory.mktemp("paddlelike"))


@pytest.fixture(scope="module")
def paddle_outcomes(tmp_path_factory):
    pytest.importorskip("paddle")
    cases = {k: v for k, (v, _) in PADDLE_CASES.items()}
    return _load_all("paddle", cases, tmp_path_factory.mktemp("paddle"))


@pytest.mark.parametrize("case", {**PADDLE_CASES, **PADDLE_OURS_ONLY})
def test_paddlelike_refuses_a_crafted_file_as_paddle_does(case, paddlelike_outcomes):
    want = {**PADDLE_CASES, **PADDLE_OURS_ONLY}[case][1]
    got = paddlelike_outcomes[case]
    assert got["type"] == want, got
    if want == "ValueError" and case in ("truncated", "random bytes", "text"):
        assert got["message"].startswith("`paddle.load` can not parse the file:"), got
    if case == "array without state":
        assert got["value"] == "[]", got  # no uninitialised memory


@pytest.mark.parametrize("case", PADDLE_CASES)
def test_the_paddle_table_is_what_real_paddle_does(case, paddle_outcomes,
                                                   paddlelike_outcomes):
    want, got = paddle_outcomes[case], paddlelike_outcomes[case]
    assert want["type"] == PADDLE_CASES[case][1], want
    if want["type"] is None:
        assert got["value"] == want["value"]
    elif want["type"] == "ValueError":
        assert os.path.basename(got["message"]) == os.path.basename(want["message"])


# ------------------------------------------------------------------ the engine's check
def test_check_layout_names_the_rule_each_layout_breaks():
    from janusgrad.host import io as EIO
    E = EIO.LayoutError
    for args, reason in [((16, 4, 0, (5,), (1,)), E.BOUNDS), ((16, 4, -1, (1,), (1,)), E.OFFSET),
                         ((16, 4, 3, (2,), (-1,)), E.EXTENT), ((16, 4, 0, (-1,), (1,)), E.NUMEL),
                         ((16, 4, 0, (2,), ()), E.RANK), ((16, 4, 0, (1.0,), (1,)), E.NOT_INT),
                         ((16, 4, 0, (1 << 63,), (1,)), E.INT64)]:
        with pytest.raises(E) as info:
            EIO.check_layout(*args)
        assert info.value.reason == reason, args
    assert EIO.check_layout(16, 4, 3, (), ()) == 1
    assert EIO.check_layout(16, 4, 100, (0, 5), (1000, 1)) == 0
    assert EIO.check_layout(16, 4, 0, (2, 2), (2, 1)) == 4
    flat = np.arange(4, dtype=np.float32)
    with pytest.raises(E):
        EIO.strided_from_flat(flat, 0, (64,), (1,))  # the engine checks before any view
    np.testing.assert_array_equal(EIO.strided_from_flat(flat, 3, (2,), (0,)), [3, 3])


def test_the_crafting_helpers_write_what_real_torch_reads():
    """The crafting helpers write what torch reads (the tables above rest on them)."""
    torch = pytest.importorskip("torch")
    got = torch.load(io.BytesIO(_archive(_tensor(1, (2, 2), (1, 1)))), weights_only=True)
    assert got.tolist() == [[1.0, 2.0], [2.0, 3.0]]
