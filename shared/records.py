"""The stored event record, its hash chain, and what a client sees of it.

A record is what the session service appends for each event: the event (type, data, secret audience), its
version, the causing command, server time, the rules version, and ``hash = sha256(prev_hash ‖
canonical_json(record without hash))``. The first record of a command's batch also holds the full command, so
a finished game can be re-decided; clients never see it while the game runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from shared.kernel import Event, redact
from shared.kernel.narration import Voice

GENESIS = "0" * 64


def canonical_json(value: Any) -> bytes:
    """The one byte form hashed and compared: sorted keys, no spaces, UTF-8."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def record_hash(prev_hash: str, record: Mapping[str, Any]) -> str:
    body = {k: v for k, v in record.items() if k != "hash"}
    return hashlib.sha256(prev_hash.encode() + canonical_json(body)).hexdigest()


def make_records(
    events: Sequence[Event],
    *,
    version: int,
    prev_hash: str,
    cause: Mapping[str, Any],
    command: Mapping[str, Any] | None,
    at: str,
    rules_version: str,
) -> list[dict[str, Any]]:
    """Records for ``events`` appended after ``version``, chained onto ``prev_hash``."""
    records = []
    for offset, event in enumerate(events, start=1):
        record: dict[str, Any] = {
            "v": version + offset,
            **event.to_json(),
            "cause": dict(cause),
            "at": at,
            "rules": rules_version,
            "prev": prev_hash,
        }
        if offset == 1 and command is not None:
            record["command"] = dict(command)
        record["hash"] = prev_hash = record_hash(prev_hash, record)
        records.append(record)
    return records


def event_of(record: Mapping[str, Any]) -> Event:
    return Event.from_json(record)


def first_broken_link(records: Iterable[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Walk the chain from genesis: None when every version follows and every hash holds, else what broke."""
    prev, expected_version = GENESIS, 1
    for record in records:
        if record.get("v") != expected_version:
            return {"version": expected_version, "problem": "missing or out of order", "found": record.get("v")}
        if record.get("prev") != prev or record_hash(prev, record) != record.get("hash"):
            return {"version": expected_version, "problem": "hash mismatch", "expected_prev": prev}
        prev, expected_version = record["hash"], expected_version + 1
    return None


def client_event(record: Mapping[str, Any], viewer: Any, voice: Voice | None = None, game: str | None = None) -> dict[str, Any]:
    """The API's event shape, redacted for ``viewer`` (a seat, None, or EVERYONE once the game is over), with its
    sentence as ``voice`` tells it to its reader (``shared.kernel.table_narration.voice_for``), built from the
    redacted data only: the words can say no more than the event does."""
    data = redact(event_of(record), viewer)
    out = {
        "version": record["v"],
        "type": record["type"],
        "at": record["at"],
        "seat": record["cause"].get("seat"),
        "by": record["cause"].get("by"),
        "data": data,
        "hash": record["hash"],
        "prev_hash": record["prev"],
    }
    if voice is not None:
        out["text"] = voice.tell(record["type"], data).to_json()
    if game is not None:  # the game's type, which a generated client reads the event's components by
        out["game"] = game
    return out
