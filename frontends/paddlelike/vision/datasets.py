"""paddle.vision.datasets: MNIST and FashionMNIST read from IDX files (gzipped or not).

As paddle: ``image_path``/``label_path`` are read directly; without them the files are looked
for in ``~/.cache/paddle/dataset/<name>/`` (MD5-checked) and downloaded when ``download``.
Items are (PIL image 'L', int64 label of shape (1,)) with the 'pil' backend ((H, W) uint8
arrays in place of PIL images when Pillow is not installed), (float32 (H, W) array, label)
with 'cv2'; ``transform`` applies to the image. Unlike paddle, any number of records reads
(paddle's reader needs a multiple of 100)."""
from __future__ import annotations

import os
import sys

from janusgrad.host import vision as _V
from janusgrad.host.dropin import module_getattr as _module_getattr

from ..io import Dataset
from . import image as _image

__all__ = ["MNIST", "FashionMNIST"]


def _data_home() -> str:
    return os.path.join(os.path.expanduser("~"), ".cache", "paddle", "dataset")


def _download(url: str, module_name: str, md5sum: str) -> str:
    """paddle.dataset.common.download: the cached file if its MD5 matches, else up to three
    tries (each announced on stderr), then RuntimeError."""
    dirname = os.path.join(_data_home(), module_name)
    os.makedirs(dirname, exist_ok=True)
    filename = os.path.join(dirname, url.split("/")[-1])
    retry, retry_limit = 0, 3
    while not (os.path.exists(filename) and _V.md5_of(filename) == md5sum):
        if os.path.exists(filename):
            sys.stderr.write(f"file {_V.md5_of(filename)}  md5 {md5sum}\n")
        if retry < retry_limit:
            retry += 1
        else:
            raise RuntimeError(f"Cannot download {url} within retry limit {retry_limit}")
        sys.stderr.write(f"Cache file {filename} not found, downloading {url} \n")
        sys.stderr.write("Begin to download\n")
        try:
            _V.download(url, filename)
        except (OSError, ValueError) as e:
            sys.stderr.write(f"{e}\n")
    return filename


def _check_exists_and_download(path, url, md5, module_name, download=True):
    if path and os.path.exists(path):
        return path
    if download:
        return _download(url, module_name, md5)
    raise ValueError(f"{path} not exists and auto download disabled")


class MNIST(Dataset):
    """MNIST from IDX files (see the module's note)."""

    NAME = "mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "9fb629c4189551a2d022fa330f9573f3"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "ec29112dd5afa0611ce80d1b7f02629c"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "f68b3c2dcbeaaa9fbdd348bbdeb94873"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "d53e105ee54ea40749a09fcbcd1e9432"

    def __init__(self, image_path=None, label_path=None, mode: str = "train", transform=None,
                 download: bool = True, backend=None) -> None:
        assert mode.lower() in ["train", "test"], \
            f"mode should be 'train' or 'test', but got {mode}"
        if backend is None:
            backend = _image.get_image_backend()
        if backend not in ["pil", "cv2"]:
            raise ValueError(f"Expected backend are one of ['pil', 'cv2'], but got {backend}")
        self.backend = backend
        self.mode = mode.lower()
        train = self.mode == "train"
        self.image_path = image_path
        if self.image_path is None:
            assert download, "image_path is not set and downloading automatically is disabled"
            self.image_path = _check_exists_and_download(
                image_path, self.TRAIN_IMAGE_URL if train else self.TEST_IMAGE_URL,
                self.TRAIN_IMAGE_MD5 if train else self.TEST_IMAGE_MD5, self.NAME, download)
        self.label_path = label_path
        if self.label_path is None:
            assert download, "label_path is not set and downloading automatically is disabled"
            self.label_path = _check_exists_and_download(
                label_path, self.TRAIN_LABEL_URL if train else self.TEST_LABEL_URL,
                self.TRAIN_LABEL_MD5 if train else self.TEST_LABEL_MD5, self.NAME, download)
        self.transform = transform
        # uint8 (N, H, W) images and int64 (N,) labels (paddle keeps lists of arrays)
        self.images, self.labels = _V.read_image_label_files(self.image_path, self.label_path)
        from .. import get_default_dtype
        self.dtype = get_default_dtype()

    def __getitem__(self, idx):
        label = _V.label_array(self.labels, idx)
        if self.backend == "pil":
            image = _V.gray_image(self.images[idx])
        else:
            image = _V.float_image(self.images, idx)
        if self.transform is not None:
            image = self.transform(image)
        if self.backend == "pil":
            return image, label
        return image.astype(self.dtype), label

    def __len__(self) -> int:
        return len(self.labels)


class FashionMNIST(MNIST):
    """Fashion-MNIST from IDX files (see the module's note)."""

    NAME = "fashion-mnist"
    URL_PREFIX = "https://dataset.bj.bcebos.com/fashion_mnist/"
    TEST_IMAGE_URL = URL_PREFIX + "t10k-images-idx3-ubyte.gz"
    TEST_IMAGE_MD5 = "bef4ecab320f06d8554ea6380940ec79"
    TEST_LABEL_URL = URL_PREFIX + "t10k-labels-idx1-ubyte.gz"
    TEST_LABEL_MD5 = "bb300cfdad3c16e7a12a480ee83cd310"
    TRAIN_IMAGE_URL = URL_PREFIX + "train-images-idx3-ubyte.gz"
    TRAIN_IMAGE_MD5 = "8d4fb7e6c68d591d4c3dfef9ec88bf0d"
    TRAIN_LABEL_URL = URL_PREFIX + "train-labels-idx1-ubyte.gz"
    TRAIN_LABEL_MD5 = "25c81989df183df01b3e8a0aad5dffbe"


MNIST.__module__ = "paddle.vision.datasets.mnist"
FashionMNIST.__module__ = "paddle.vision.datasets.mnist"

__getattr__ = _module_getattr("paddlelike", "paddle.vision.datasets")
