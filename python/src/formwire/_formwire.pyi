"""Type stubs of the native module (rust/crates/formwire-py), checked by mypy.stubtest in python/tests."""

from collections.abc import Iterable
from typing import Any, Final, Literal, Optional, Union, final

from typing_extensions import Buffer, disjoint_base

__all__ = [
    "END",
    "GIL_RELEASE_BYTES",
    "Marker",
    "MultipartParser",
    "PART_END",
    "Part",
    "UrlencodedParser",
    "V8Decoder",
    "V8Encoder",
    "__version__",
    "boundary_from_content_type",
    "encode_frames",
    "parse_disposition",
    "parse_mime",
    "urlencoded_parse",
    "urlencoded_parse_dict",
    "urlencoded_serialize",
    "v8_dumps",
    "v8_loads",
]

__version__: Final[str]
GIL_RELEASE_BYTES: Final[int]

_Event = Union["Part", memoryview, bytes, "Marker", tuple[str, str], tuple[bytes, bytes]]
_SpanEvent = Union["Part", tuple[int, int], bytes, "Marker", tuple[str, str], tuple[bytes, bytes]]

@final
class Marker:
    def __reduce__(self) -> str: ...

PART_END: Final[Marker]
END: Final[Marker]

@final
class Part:
    @property
    def name(self) -> Optional[str]: ...
    @property
    def name_bytes(self) -> Optional[bytes]: ...
    @property
    def filename(self) -> Optional[str]: ...
    @property
    def filename_bytes(self) -> Optional[bytes]: ...
    @property
    def name_star(self) -> Optional[str]: ...
    @property
    def filename_star(self) -> Optional[str]: ...
    @property
    def content_type(self) -> Optional[str]: ...
    @property
    def type(self) -> Optional[str]: ...
    @property
    def is_file(self) -> bool: ...
    @property
    def headers(self) -> list[tuple[str, str]]: ...
    @property
    def raw_headers(self) -> list[tuple[bytes, bytes]]: ...
    @property
    def headers_as_written(self) -> list[tuple[bytes, bytes]]: ...
    @property
    def index(self) -> int: ...
    @property
    def body_offset(self) -> int: ...

@disjoint_base
class MultipartParser:
    def __new__(
        cls,
        boundary: Union[str, Buffer],
        *,
        allow_preamble: bool = False,
        allow_lf: bool = False,
        allow_obs_fold: bool = False,
        allow_quoted_pairs: bool = False,
        allow_missing_disposition: bool = False,
        allow_any_disposition_type: bool = False,
        allow_junk_after_close: bool = False,
        allow_utf8_header_names: bool = False,
        allow_cr: bool = False,
        allow_near_delimiters: bool = False,
        allow_8bit_parameter_names: bool = False,
        allow_rfc2231_continuations: bool = False,
        max_boundary_bytes: Optional[int] = 256,
        max_parts: Optional[int] = 1000,
        max_files: Optional[int] = 1000,
        max_fields: Optional[int] = 1000,
        max_headers: Optional[int] = 8,
        max_header_bytes: Optional[int] = 8192,
        max_field_bytes: Optional[int] = 1048576,
        max_total_field_bytes: Optional[int] = 10485760,
        max_file_bytes: Optional[int] = 10737418240,
        max_total_bytes: Optional[int] = 21474836480,
        buffer_fields: bool = False,
        field_errors: Literal["replace", "bytes"] = "replace",
    ) -> MultipartParser: ...
    def feed(self, data: Buffer) -> list[_Event]: ...
    def feed_spans(self, data: Buffer) -> list[_SpanEvent]: ...
    def close(self) -> list[_Event]: ...
    @property
    def boundary(self) -> bytes: ...
    @property
    def offset(self) -> int: ...
    @property
    def done(self) -> bool: ...
    @property
    def buffer_fields(self) -> bool: ...
    @property
    def field_errors(self) -> Literal["replace", "bytes"]: ...
    @property
    def in_field(self) -> bool: ...
    @property
    def options(self) -> dict[str, Any]: ...

def boundary_from_content_type(content_type: Union[str, Buffer]) -> bytes: ...
def parse_disposition(
    value: Union[str, Buffer],
    *,
    allow_quoted_pairs: bool = False,
    allow_any_disposition_type: bool = False,
    allow_8bit_parameter_names: bool = False,
    allow_rfc2231_continuations: bool = False,
) -> Optional[tuple[bytes, Optional[bytes], Optional[bytes], Optional[bytes]]]: ...
def parse_mime(value: Union[str, Buffer]) -> Optional[tuple[str, str, list[tuple[str, str]]]]: ...
def encode_frames(entries: list[Any], boundary: Optional[str] = None) -> tuple[str, str, list[bytes], list[Any]]: ...

@disjoint_base
class UrlencodedParser:
    def __new__(cls, *, max_pairs: Optional[int] = 10000, max_bytes: Optional[int] = 10485760) -> UrlencodedParser: ...
    def feed(self, data: Union[str, Buffer]) -> list[tuple[str, str]]: ...
    def close(self) -> list[tuple[str, str]]: ...
    @property
    def offset(self) -> int: ...

def urlencoded_parse(
    data: Union[str, Buffer], *, max_pairs: Optional[int] = 10000, max_bytes: Optional[int] = 10485760
) -> list[tuple[str, str]]: ...
def urlencoded_parse_dict(
    data: Union[str, Buffer], *, max_pairs: Optional[int] = 10000, max_bytes: Optional[int] = 10485760
) -> dict[str, str]: ...
def urlencoded_serialize(pairs: Iterable[tuple[str, str]]) -> str: ...
def v8_dumps(value: Any, *, max_depth: Optional[int] = 1000) -> bytes: ...

@disjoint_base
class V8Encoder:
    def __new__(cls, *, max_depth: Optional[int] = 1000) -> V8Encoder: ...
    def dumps(self, value: Any) -> bytes: ...

@disjoint_base
class V8Decoder:
    def __new__(
        cls,
        *,
        max_depth: Optional[int] = 1000,
        max_bytes: Optional[int] = 268435456,
        max_values: Optional[int] = 10000000,
        max_bigint_bytes: Optional[int] = 1048576,
        node_ipc: bool = False,
    ) -> V8Decoder: ...
    def loads(self, data: Buffer) -> Any: ...

def v8_loads(
    data: Buffer,
    *,
    max_depth: Optional[int] = 1000,
    max_bytes: Optional[int] = 268435456,
    max_values: Optional[int] = 10000000,
    max_bigint_bytes: Optional[int] = 1048576,
    node_ipc: bool = False,
) -> Any: ...
