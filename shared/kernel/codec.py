"""A safe JSON codec for game state: frozen dataclasses, tuples, frozensets and enums.

Snapshots are stored with it and the session service ships state to the rules service with it. Decoding only
ever builds the classes a game lists in ``Game.state_types``, so a hostile payload cannot name arbitrary code.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable
from typing import Any


class StateCodec:
    def __init__(self, types: Iterable[type]):
        self._types = {t.__name__: t for t in types}

    def encode(self, obj: Any) -> Any:
        if obj is None or isinstance(obj, (bool, int, float, str)):
            return obj
        if isinstance(obj, enum.Enum):
            return {"$e": type(obj).__name__, "v": obj.value}
        if dataclasses.is_dataclass(obj):
            out = {"$": type(obj).__name__}
            for f in dataclasses.fields(obj):
                out[f.name] = self.encode(getattr(obj, f.name))
            return out
        if isinstance(obj, tuple):
            return [self.encode(x) for x in obj]
        if isinstance(obj, frozenset):
            return {"$s": [self.encode(x) for x in sorted(obj, key=repr)]}
        if isinstance(obj, dict):
            return {"$d": [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
        raise TypeError(f"state holds a {type(obj).__name__}, which the codec does not store")

    def decode(self, raw: Any) -> Any:
        if raw is None or isinstance(raw, (bool, int, float, str)):
            return raw
        if isinstance(raw, list):
            return tuple(self.decode(x) for x in raw)
        if not isinstance(raw, dict):
            raise ValueError("not an encoded state")
        if "$" in raw:
            cls = self._class(raw["$"])
            return cls(**{k: self.decode(v) for k, v in raw.items() if k != "$"})
        if "$s" in raw:
            return frozenset(self.decode(x) for x in raw["$s"])
        if "$d" in raw:
            return {self.decode(k): self.decode(v) for k, v in raw["$d"]}
        if "$e" in raw:
            return self._class(raw["$e"])(raw["v"])
        raise ValueError("not an encoded state")

    def _class(self, name: Any) -> type:
        try:
            return self._types[name]
        except (KeyError, TypeError):
            raise ValueError(f"unknown state type {name!r}") from None
