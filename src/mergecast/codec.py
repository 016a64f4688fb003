"""Models to JSON-ready data and back: the stable form of the store, `--json` output and
episode.json. Generic over frozen dataclasses, enums, dates, tuples and mappings.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def to_dict(obj: Any) -> Any:
    """Convert a model (recursively) to JSON-ready data."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_dict(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, dt.datetime):
        return obj.isoformat()
    if isinstance(obj, dt.date):
        return obj.isoformat()
    if isinstance(obj, Mapping):
        return {str(k): to_dict(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_dict(v) for v in obj]
    return obj


def from_dict(cls: type[T], data: Any) -> T:
    """Rebuild a model from `to_dict` output; unknown keys are ignored."""
    return typing.cast(T, _decode(cls, data))


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


# JSON leaves each model type accepts; a stored row with another type is malformed, and is
# refused here (naming the row) rather than failing later inside analysis.
_LEAVES: dict[Any, tuple[type, ...]] = {str: (str,), bool: (bool,), int: (int,),
                                        float: (int, float)}


def _decode(tp: Any, data: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(tp)
        if data is None and type(None) in args:
            return None
        options = [a for a in args if a is not type(None)]
        return _decode(options[0], data)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {
            f.name: _decode(hints[f.name], data[f.name])
            for f in dataclasses.fields(tp)
            if f.name in _expect(data, dict, tp)
        }
        return tp(**kwargs)
    if origin is tuple:
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in _expect(data, list, tp))
        return tuple(_decode(a, v) for a, v in zip(args, _expect(data, list, tp), strict=True))
    if origin in (Mapping, dict, typing.Mapping):
        kt, vt = typing.get_args(tp)
        return {_decode(kt, k): _decode(vt, v) for k, v in _expect(data, dict, tp).items()}
    if tp is dt.datetime:
        return dt.datetime.fromisoformat(_expect(data, str, tp))
    if tp is dt.date:
        return dt.date.fromisoformat(_expect(data, str, tp))
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    if tp is int and isinstance(data, str):
        return int(data)  # a mapping's key: JSON keys are strings
    if tp in _LEAVES:
        if isinstance(data, bool) and tp is not bool:  # bool is an int to isinstance
            raise TypeError(f"expected {_name(tp)}, got bool")
        value = _expect(data, _LEAVES[tp], tp)
        return float(value) if tp is float else value
    return data


def _expect(data: Any, kind: type | tuple[type, ...], tp: Any) -> Any:
    if not isinstance(data, kind):
        raise TypeError(f"expected {_name(tp)}, got {type(data).__name__}")
    return data


def _name(tp: Any) -> str:
    return tp.__name__ if isinstance(tp, type) and not typing.get_args(tp) else str(tp)
