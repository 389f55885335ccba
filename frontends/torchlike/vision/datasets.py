"""torchvision.datasets: MNIST and FashionMNIST from the IDX files under
``root/<ClassName>/raw/`` (gzipped or not), downloaded there only with ``download=True``.

Items are (PIL image 'L', int target), or what ``transform`` / ``target_transform`` make of
them; a uint8 (H, W) numpy array stands in for the PIL image when Pillow is not installed.
``data`` (uint8 (N, H, W)) and ``targets`` (int64 (N,)) are tensors, as in torchvision."""
from __future__ import annotations

import os
from urllib.error import URLError

from janusgrad.host import vision as _V
from janusgrad.host.dropin import module_getattr as _module_getattr

from .._creation import from_numpy as _from_numpy
from ..utils.data import Dataset

__all__ = ["VisionDataset", "MNIST", "FashionMNIST"]


class StandardTransform:
    def __init__(self, transform=None, target_transform=None) -> None:
        self.transform = transform
        self.target_transform = target_transform

    def __call__(self, input, target):
        if self.transform is not None:
            input = self.transform(input)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return input, target

    @staticmethod
    def _format(transform, head: str) -> list:
        lines = repr(transform).splitlines()
        return [f"{head}{lines[0]}"] + [" " * len(head) + line for line in lines[1:]]

    def __repr__(self) -> str:
        body = [self.__class__.__name__]
        if self.transform is not None:
            body += self._format(self.transform, "Transform: ")
        if self.target_transform is not None:
            body += self._format(self.target_transform, "Target transform: ")
        return "\n".join(body)


class VisionDataset(Dataset):
    _repr_indent = 4

    def __init__(self, root=None, transforms=None, transform=None,
                 target_transform=None) -> None:
        if isinstance(root, str):
            root = os.path.expanduser(root)
        self.root = root
        has_transforms = transforms is not None
        has_separate = transform is not None or target_transform is not None
        if has_transforms and has_separate:
            raise ValueError("Only transforms or transform/target_transform can be passed as "
                             "argument")
        self.transform = transform
        self.target_transform = target_transform
        if has_separate:
            transforms = StandardTransform(transform, target_transform)
        self.transforms = transforms

    def __getitem__(self, index):
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def extra_repr(self) -> str:
        return ""

    def __repr__(self) -> str:
        head = "Dataset " + self.__class__.__name__
        body = [f"Number of datapoints: {self.__len__()}"]
        if self.root is not None:
            body.append(f"Root location: {self.root}")
        body += self.extra_repr().splitlines()
        if getattr(self, "transforms", None) is not None:
            body += [repr(self.transforms)]
        return "\n".join([head] + [" " * self._repr_indent + line for line in body])


class MNIST(VisionDataset):
    """MNIST from ``root/MNIST/raw/`` (see the module's note)."""

    mirrors = ["https://ossci-datasets.s3.amazonaws.com/mnist/",
               "http://yann.lecun.com/exdb/mnist/"]
    resources = [("train-images-idx3-ubyte.gz", "f68b3c2dcbeaaa9fbdd348bbdeb94873"),
                 ("train-labels-idx1-ubyte.gz", "d53e105ee54ea40749a09fcbcd1e9432"),
                 ("t10k-images-idx3-ubyte.gz", "9fb629c4189551a2d022fa330f9573f3"),
                 ("t10k-labels-idx1-ubyte.gz", "ec29112dd5afa0611ce80d1b7f02629c")]
    training_file = "training.pt"
    test_file = "test.pt"
    classes = ["0 - zero", "1 - one", "2 - two", "3 - three", "4 - four", "5 - five",
               "6 - six", "7 - seven", "8 - eight", "9 - nine"]

    def __init__(self, root, train: bool = True, transform=None, target_transform=None,
                 download: bool = False) -> None:
        super().__init__(root, transform=transform, target_transform=target_transform)
        self.train = train
        if download:
            self.download()
        if not self._check_exists():
            raise RuntimeError("Dataset not found. You can use download=True to download it")
        prefix = "train" if self.train else "t10k"
        self._images, self._labels = _V.read_image_label_files(
            self._raw_file(f"{prefix}-images-idx3-ubyte"),
            self._raw_file(f"{prefix}-labels-idx1-ubyte"))
        self.data = _from_numpy(self._images)
        self.targets = _from_numpy(self._labels)

    @property
    def raw_folder(self) -> str:
        return os.path.join(self.root, self.__class__.__name__, "raw")

    @property
    def processed_folder(self) -> str:
        return os.path.join(self.root, self.__class__.__name__, "processed")

    @property
    def class_to_idx(self) -> dict:
        return {c: i for i, c in enumerate(self.classes)}

    def _raw_file(self, name: str):
        return _V.find_file(self.raw_folder, name)

    def _check_exists(self) -> bool:
        return all(self._raw_file(os.path.splitext(name)[0]) is not None
                   for name, _ in self.resources)

    def download(self) -> None:
        """Fetch and extract the four files into ``raw_folder`` unless they are there."""
        if self._check_exists():
            return
        os.makedirs(self.raw_folder, exist_ok=True)
        for filename, md5 in self.resources:
            errors = []
            for mirror in self.mirrors:
                url = f"{mirror}{filename}"
                fpath = os.path.join(self.raw_folder, filename)
                try:
                    print(f"Downloading {url} to {fpath}")
                    _V.download(url, fpath, md5)
                except URLError as e:
                    errors.append(e)
                    continue
                target = os.path.splitext(fpath)[0]
                print(f"Extracting {fpath} to {self.raw_folder}")
                _V.gunzip(fpath, target)
                break
            else:
                s = f"Error downloading {filename}:\n"
                for mirror, err in zip(self.mirrors, errors):
                    s += f"Tried {mirror}, got:\n{err}\n"
                raise RuntimeError(s)

    def __getitem__(self, index: int):
        img, target = _V.gray_image(self._images[index]), int(self._labels[index])
        if self.transform is not None:
            img = self.transform(img)
        if self.target_transform is not None:
            target = self.target_transform(target)
        return img, target

    def __len__(self) -> int:
        return len(self._images)

    def extra_repr(self) -> str:
        split = "Train" if self.train is True else "Test"
        return f"Split: {split}"


class FashionMNIST(MNIST):
    """Fashion-MNIST from ``root/FashionMNIST/raw/`` (see the module's note)."""

    mirrors = ["http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/"]
    resources = [("train-images-idx3-ubyte.gz", "8d4fb7e6c68d591d4c3dfef9ec88bf0d"),
                 ("train-labels-idx1-ubyte.gz", "25c81989df183df01b3e8a0aad5dffbe"),
                 ("t10k-images-idx3-ubyte.gz", "bef4ecab320f06d8554ea6380940ec79"),
                 ("t10k-labels-idx1-ubyte.gz", "bb300cfdad3c16e7a12a480ee83cd310")]
    classes = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat", "Sandal", "Shirt",
               "Sneaker", "Bag", "Ankle boot"]


VisionDataset.__module__ = "torchvision.datasets.vision"
StandardTransform.__module__ = "torchvision.datasets.vision"
MNIST.__module__ = "torchvision.datasets.mnist"
FashionMNIST.__module__ = "torchvision.datasets.mnist"

__getattr__ = _module_getattr("torchlike", "torchvision.datasets")
