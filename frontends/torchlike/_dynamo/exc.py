"""torch._dynamo.exc: the exception types torch.compile raises (worded by the dialect)."""
from __future__ import annotations


class TorchDynamoException(RuntimeError):
    pass


class Unsupported(TorchDynamoException):
    """A graph break under ``fullgraph=True`` (janusgrad: what the trace cannot capture)."""

    def __init__(self, msg: str, gb_type: str = "", skip_frame: bool = False, *,
                 case_name: str | None = None, real_stack=None) -> None:
        super().__init__(msg)
        self.msg = msg
        self.gb_type = gb_type
        self.skip_frame = skip_frame
        self.case_name = case_name
        self.real_stack = real_stack


class InvalidBackend(TorchDynamoException):
    def __init__(self, name: str) -> None:
        super().__init__(f"Invalid backend: {name!r}, see `torch._dynamo.list_backends()` "
                         "for available backends.")
