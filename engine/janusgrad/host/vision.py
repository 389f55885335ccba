"""Images and image datasets, framework-neutral: IDX files (MNIST's format), downloads,
PIL images (optional: Pillow is not a dependency), the conversion of an image to a
channels-first float array, normalisation and resizing.

Host-side by nature (files, PIL, downloads); resizing and normalising also run on tensors
(the weights of a resize are two small matrices, applied with one einsum, so a resize of a
float tensor is recorded like any op) and on device arrays (xp from the array).
"""
from __future__ import annotations

import gzip
import hashlib
import os
import shutil
import tempfile
import urllib.request

from janusgrad.array.backend import host, is_array, xp_of
from janusgrad.core.tensor import Tensor
from janusgrad.ops import elementwise as E
from janusgrad.ops.manip import einsum

try:  # optional: the datasets give PIL images when Pillow is there, uint8 arrays otherwise
    from PIL import Image as _PIL
except ImportError:  # pragma: no cover - depends on the environment
    _PIL = None


# ------------------------------------------------------------------ PIL images
def have_pil() -> bool:
    return _PIL is not None


def is_pil_image(x) -> bool:
    return _PIL is not None and isinstance(x, _PIL.Image)


def gray_image(a):
    """A uint8 (H, W) array as a PIL image of mode 'L'; the array itself without Pillow."""
    a = host.ascontiguousarray(a, dtype=host.uint8)
    if _PIL is None:
        return a
    return _PIL.fromarray(a, mode="L")


# PIL modes whose pixels are not bytes: (numpy dtype); the rest are uint8 per band
_MODE_DTYPES = {"I": "int32", "I;16": "int16", "I;16B": "int16", "F": "float32"}


def pil_array(pic, wide16: bool = False):
    """A PIL image's pixels as an (H, W, C) array: bytes as uint8 (mode '1' as 0/255),
    'I' int32, 'F' float32, 'I;16' int16 (int32 when ``wide16``)."""
    mode = pic.mode
    dtype = _MODE_DTYPES.get(mode, "uint8")
    if wide16 and mode.startswith("I;16"):
        dtype = "int32"
    a = host.array(pic, dtype=dtype, copy=True)
    if mode == "1":
        a = a * host.uint8(255)
    channels = 3 if mode == "YCbCr" else len(pic.getbands())
    return a.reshape(pic.size[1], pic.size[0], channels)


def pil_float_array(pic):
    """A PIL image's pixels as numpy reads them ((H, W) or (H, W, C)), in float32."""
    return host.asarray(pic).astype(host.float32)


def pil_resize(pic, height: int, width: int, method: str = "bilinear"):
    """Pillow's own resize (its antialiasing filters), for PIL images."""
    filters = {"nearest": _PIL.NEAREST, "bilinear": _PIL.BILINEAR, "bicubic": _PIL.BICUBIC,
               "box": _PIL.BOX, "lanczos": _PIL.LANCZOS, "hamming": _PIL.HAMMING}
    return pic.resize((width, height), filters[method])


def image_size(img, channels_first: bool) -> tuple:
    """(height, width) of a PIL image, an (H, W[, C]) array or a (..., C, H, W) tensor
    (``channels_first``; else (H, W, C))."""
    if is_pil_image(img):
        return img.size[1], img.size[0]
    shape = tuple(img.shape)
    if channels_first and not (is_array(img) and len(shape) == 2):
        return shape[-2], shape[-1]
    return shape[0], shape[1]


def compose_repr(compose) -> str:
    """``Name(`` then each transform's repr on its own indented line, then ``)``."""
    return "".join([type(compose).__name__ + "("] +
                   [f"\n    {t}" for t in compose.transforms] + ["\n)"])


# ------------------------------------------------------------------ to a float array
def to_channels_first(a, channels_first: bool = True, float_dtype="float32"):
    """An (H, W) or (H, W, C) array as (C, H, W) (or (H, W, C) when not ``channels_first``):
    uint8 pixels become ``float_dtype`` in [0, 1] (divided by 255), other types keep their
    values and dtype."""
    if a.ndim == 2:
        a = a[:, :, None]
    if channels_first:
        a = a.transpose(2, 0, 1)
    if a.dtype == host.uint8:
        dtype = host.dtype(float_dtype)
        return host.ascontiguousarray(a).astype(dtype) / dtype.type(255)
    return host.ascontiguousarray(a)


def normalize_array(a, mean, std, channel_axis: int, to_rgb: bool = False):
    """(a - mean) / std over a host array, mean and std (float32) broadcast along
    ``channel_axis`` (0: CHW, -1: HWC); ``to_rgb`` reverses the last axis first."""
    shape = (-1, 1, 1) if channel_axis == 0 else (1, 1, -1)
    m = host.float32(host.array(mean).reshape(shape))
    s = host.float32(host.array(std).reshape(shape))
    if to_rgb:
        a = a[..., ::-1]
    return (a - m) / s


def normalize_tensor(x: Tensor, mean, std, channel_axis: int = -3):
    """(x - mean) / std with per-channel mean and std in x's dtype (recorded ops)."""
    xp = xp_of(x.array)
    nd = x.array.ndim
    axis = channel_axis % nd
    shape = [-1] + [1] * (nd - axis - 1)
    m = type(x).wrap(xp.asarray(mean, dtype=x.array.dtype).reshape(shape))
    s = type(x).wrap(xp.asarray(std, dtype=x.array.dtype).reshape(shape))
    return E.div(E.sub(x, m), s)


def has_zero(values, dtype) -> bool:
    return bool((host.asarray(values, dtype=dtype) == 0).any())


# ------------------------------------------------------------------ resizing
def output_size(height: int, width: int, size, max_size=None) -> tuple:
    """(new height, new width): a pair is taken as (h, w); one number matches the shorter
    edge, the longer one scaled by the same factor (truncated), capped at ``max_size``."""
    if isinstance(size, (list, tuple)) and len(size) == 2:
        return int(size[0]), int(size[1])
    if isinstance(size, (list, tuple)):
        size = size[0]
    short, long = (width, height) if width <= height else (height, width)
    new_short, new_long = int(size), int(size * long / short)
    if max_size is not None:
        if max_size <= size:
            raise ValueError(f"max_size = {max_size} must be strictly greater than the "
                             f"requested size for the smaller edge size = {size}")
        if new_long > max_size:
            new_short, new_long = int(max_size * new_short / new_long), max_size
    return (new_long, new_short) if width <= height else (new_short, new_long)


def resize_weights(xp, n_in: int, n_out: int, method: str = "bilinear",
                   antialias: bool = False, dtype="float32"):
    """The (n_out, n_in) matrix of one axis of a resize, pixel centres aligned (half-pixel).
    bilinear: a triangle filter, widened by the scale when shrinking with ``antialias``
    (Pillow's filter), rows normalised so the edges clamp; nearest: source floor(i * in / out).
    """
    i = xp.arange(n_out, dtype="float64")[:, None]
    j = xp.arange(n_in, dtype="float64")[None, :]
    scale = n_in / n_out
    if method == "nearest":
        src = xp.minimum(xp.floor(i * scale), n_in - 1)
        w = (j == src).astype("float64")
    elif method in ("bilinear", "linear"):
        support = max(scale, 1.0) if antialias else 1.0
        w = xp.maximum(0.0, 1.0 - xp.abs(j + 0.5 - (i + 0.5) * scale) / support)
        w = w / w.sum(axis=1, keepdims=True)
    else:
        raise ValueError(f"interpolation {method!r} is not supported (nearest, bilinear)")
    return w.astype(dtype)


def _equation(nd: int, h: int, w: int) -> str:
    letters = "abcdefgh"[:nd]
    out = letters.replace(letters[h], "y").replace(letters[w], "z")
    return f"y{letters[h]},{letters},z{letters[w]}->{out}"


def _round_into(a, dtype):
    xp = xp_of(a)
    if dtype.kind in "iub":
        info = host.iinfo(dtype)
        a = xp.clip(xp.round(a), info.min, info.max)
    return a.astype(dtype)


def resize_array(a, height: int, width: int, method: str = "bilinear",
                 antialias: bool = False, axes=(0, 1)):
    """An array resized along ``axes`` (h, w); integer arrays are computed in float32 and
    rounded back."""
    xp = xp_of(a)
    nd = a.ndim
    h, w = axes[0] % nd, axes[1] % nd
    ftype = a.dtype if a.dtype.kind == "f" else host.dtype("float32")
    wh = resize_weights(xp, a.shape[h], height, method, antialias, ftype)
    ww = resize_weights(xp, a.shape[w], width, method, antialias, ftype)
    out = xp.einsum(_equation(nd, h, w), wh, a.astype(ftype), ww)
    return _round_into(out, a.dtype)


def resize_tensor(x: Tensor, height: int, width: int, method: str = "bilinear",
                  antialias: bool = False, axes=(-2, -1)):
    """A tensor resized along ``axes``: float tensors through one recorded einsum, integer
    ones computed in float32 and rounded back (not recorded)."""
    a = x.array
    if a.dtype.kind != "f":
        return type(x).wrap(resize_array(a, height, width, method, antialias, axes))
    xp = xp_of(a)
    nd = a.ndim
    h, w = axes[0] % nd, axes[1] % nd
    wh = type(x).wrap(resize_weights(xp, a.shape[h], height, method, antialias, a.dtype))
    ww = type(x).wrap(resize_weights(xp, a.shape[w], width, method, antialias, a.dtype))
    return einsum(_equation(nd, h, w), [wh, x, ww])


# ------------------------------------------------------------------ IDX files
_IDX_TYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
_IDX_CODES = {"u1": 0x08, "i1": 0x09, "i2": 0x0B, "i4": 0x0C, "f4": 0x0D, "f8": 0x0E}


def _read_bytes(path) -> bytes:
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":  # gzip, whatever the file is called
        data = gzip.decompress(data)
    return data


def read_idx(path):
    """The array an IDX file holds (gzipped or not), in native byte order."""
    data = _read_bytes(path)
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] not in _IDX_TYPES:
        raise ValueError(f"{os.fspath(path)} is not an IDX file (bad magic number)")
    dtype = host.dtype(_IDX_TYPES[data[2]])
    nd = data[3]
    shape = tuple(int(v) for v in host.frombuffer(data, dtype=">u4", count=nd, offset=4))
    count = 1
    for d in shape:
        count *= d
    offset = 4 + 4 * nd
    if len(data) - offset < count * dtype.itemsize:
        raise ValueError(f"{os.fspath(path)} is truncated: its header announces shape "
                         f"{shape}, but only {len(data) - offset} bytes of data follow")
    a = host.frombuffer(data, dtype=dtype, count=count, offset=offset).reshape(shape)
    return a.astype(dtype.newbyteorder("="))


def write_idx(path, a) -> None:
    """Write an array as an IDX file; gzipped when ``path`` ends in .gz."""
    a = host.asarray(a)
    key = a.dtype.kind + str(a.dtype.itemsize)
    key = {"u1": "u1", "i1": "i1", "i2": "i2", "i4": "i4", "f4": "f4", "f8": "f8"}.get(key)
    if key is None:
        raise TypeError(f"IDX files cannot hold {a.dtype} data")
    header = bytes([0, 0, _IDX_CODES[key], a.ndim]) + \
        host.asarray(a.shape, dtype=">u4").tobytes()
    body = header + a.astype(host.dtype(key).newbyteorder(">")).tobytes()
    if os.fspath(path).endswith(".gz"):
        body = gzip.compress(body)
    with open(path, "wb") as f:
        f.write(body)


def find_file(folder, name):
    """``folder/name`` or ``folder/name.gz`` (or, for a name ending in .gz, the file without
    it), whichever exists first; None when neither does."""
    base = name[:-3] if name.endswith(".gz") else name
    for candidate in (name, base, base + ".gz"):
        p = os.path.join(folder, candidate)
        if os.path.isfile(p):
            return p
    return None


# ------------------------------------------------------------------ downloads
def md5_of(path) -> str:
    h = hashlib.md5()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def download(url: str, path, md5: str | None = None, timeout: float = 30.0) -> str:
    """Fetch ``url`` into ``path`` (through a temporary file, so a failed download leaves
    nothing behind) and check its MD5 when given. Raises OSError (urllib's URLError for
    no network) or ValueError for a wrong checksum."""
    folder = os.path.dirname(os.fspath(path)) or "."
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out, urllib.request.urlopen(url, timeout=timeout) as r:
            shutil.copyfileobj(r, out)
        if md5 is not None and md5_of(tmp) != md5:
            raise ValueError(f"the file downloaded from {url} does not have the MD5 {md5}")
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return os.fspath(path)


def gunzip(src, dst) -> str:
    with gzip.open(src, "rb") as f, open(dst, "wb") as out:
        shutil.copyfileobj(f, out)
    return os.fspath(dst)


def read_image_label_files(image_path, label_path) -> tuple:
    """(images, labels) of an IDX pair: images as read (uint8 (N, H, W) for MNIST), labels
    as int64 (N,); their counts must agree."""
    images, labels = read_idx(image_path), read_idx(label_path)
    if images.ndim != 3 or labels.ndim != 1:
        raise ValueError(f"expected an (N, H, W) image file and an (N,) label file, got shapes "
                         f"{images.shape} and {labels.shape}")
    if len(images) != len(labels):
        raise ValueError(f"{os.fspath(image_path)} holds {len(images)} images but "
                         f"{os.fspath(label_path)} {len(labels)} labels")
    return images, labels.astype(host.int64)


def label_array(labels, i: int):
    """Label ``i`` as an int64 array of shape (1,) (a copy)."""
    return host.array(labels[i:i + 1], dtype=host.int64)


def float_image(images, i: int, dtype="float32"):
    return images[i].astype(dtype)
