"""Auditing a game: check the hash chain, re-decide every command from the revealed seed, export and verify.

The server's ``/audit`` and the offline ``mythos audit FILE`` both run this code, which is the same rules
code the rules service runs, so an export can be checked without trusting the server that produced it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from shared.kernel import Game, RuleViolation, entropy_for, fold
from shared.kernel.entropy import commitment as seed_commitment
from shared.kernel.game import GameOver, MalformedCommand
from shared.records import event_of, first_broken_link

FORMAT = "mythos-tables/game-record/1"


def _normal(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value))


def _batches(records: Sequence[Mapping[str, Any]]) -> Iterable[list[Mapping[str, Any]]]:
    """The records each command wrote, in order (consecutive records with one cause)."""
    for _, group in itertools.groupby(records, key=lambda r: r["cause"]["id"]):
        yield list(group)


def redecide(game: Game, seed: bytes, records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Re-run setup and every recorded command with the entropy the seed gives; the first divergence or None."""
    for record in records:
        if record.get("rules") != game.rules_version:
            return {"version": record.get("v"), "problem": "rules version differs: this server cannot re-decide it",
                    "expected": game.rules_version, "found": record.get("rules")}
    state: Any = None
    for batch in _batches(records):
        first = batch[0]
        command, entropy = first.get("command"), entropy_for(seed, first["v"] - 1)
        try:
            if first["cause"]["type"] == "setup":
                _, events = game.start(command["players"], command["options"], entropy)
            else:
                events = game.checked_decide(state, command, first["cause"]["seat"], entropy)
        except (RuleViolation, MalformedCommand, GameOver, KeyError, TypeError) as exc:
            return {"version": first["v"], "problem": "the recorded command is not accepted by the rules", "expected": None,
                    "found": {"command": command, "refused": getattr(exc, "code", type(exc).__name__)}}
        expected = [_normal(e.to_json()) for e in events]
        found = [event_of(r).to_json() for r in batch]
        for offset in range(max(len(expected), len(found))):
            want = expected[offset] if offset < len(expected) else None
            got = found[offset] if offset < len(found) else None
            if want != got:
                return {"version": first["v"] + offset, "problem": "event differs from the rules' decision", "expected": want, "found": got}
        state = fold(game, events, state)
    return None


def audit_records(
    game: Game | None,
    records: Sequence[Mapping[str, Any]],
    *,
    head_hash: str,
    seed: bytes | None,
    commitment: str,
    rules_version: str,
) -> dict[str, Any]:
    """The audit report: the chain always; the re-decision and the seed check once the seed is revealed."""
    divergence = first_broken_link(records)
    if divergence is None and records and records[-1]["hash"] != head_hash:
        divergence = {"version": records[-1]["v"] + 1, "problem": "the log ends before the published head hash"}
    chain_ok = divergence is None
    replay_ok = seed_ok = None
    if seed is not None:
        seed_ok = seed_commitment(seed) == commitment
        if game is None:
            replay = {"version": 1, "problem": "this server does not know the game type"}
        else:
            replay = redecide(game, seed, records)
        replay_ok = replay is None and seed_ok
        divergence = divergence or replay
        if divergence is None and not seed_ok:
            divergence = {"version": 0, "problem": "the revealed seed does not match the published commitment"}
    return {
        "chain_ok": chain_ok,
        "replay_ok": replay_ok,
        "first_divergence": divergence,
        "head_hash": head_hash,
        "events": len(records),
        "rules_version": rules_version,
        "seed_ok": seed_ok,
    }


def export_record(
    *,
    game_id: str,
    game: str,
    rules_version: str,
    options: Mapping[str, Any],
    seats: Sequence[Mapping[str, Any]],
    seed: bytes,
    commitment: str,
    records: Sequence[Mapping[str, Any]],
    outcome: Mapping[str, Any] | None,
) -> dict[str, Any]:
    """The portable record of a finished game (docs/record-format.md)."""
    commands = [
        {"version": b[0]["v"], "seat": b[0]["cause"]["seat"], "by": b[0]["cause"]["by"], "at": b[0]["at"], "command": b[0].get("command")}
        for b in _batches(records)
    ]
    return {
        "format": FORMAT,
        "game_id": game_id,
        "game": game,
        "rules_version": rules_version,
        "options": dict(options),
        "seats": list(seats),
        "seed": seed.hex(),
        "seed_commitment": commitment,
        "head_hash": records[-1]["hash"] if records else "",
        "outcome": outcome,
        "commands": commands,
        "events": list(records),
    }


def verify_export(export: Mapping[str, Any], games: Mapping[str, Game]) -> dict[str, Any]:
    """Check an export with no server: format, chain, seed commitment, re-decision, commands and outcome."""
    problems: list[str] = []
    if export.get("format") != FORMAT:
        return {"ok": False, "problems": [f"not a {FORMAT} record"]}
    records, game = export.get("events") or [], games.get(export.get("game", ""))
    report = audit_records(
        game, records, head_hash=export.get("head_hash", ""), seed=bytes.fromhex(export.get("seed", "")),
        commitment=export.get("seed_commitment", ""), rules_version=export.get("rules_version", ""),
    )
    if not report["chain_ok"]:
        problems.append(f"hash chain broken at version {report['first_divergence']['version']}")
    if not report["seed_ok"]:
        problems.append("the seed does not match its commitment")
    if report["chain_ok"] and not report["replay_ok"] and report["first_divergence"]:
        problems.append(f"re-decision diverges at version {report['first_divergence']['version']}: {report['first_divergence']['problem']}")
    listed = [(c["version"], c["seat"], c["command"]) for c in export.get("commands", [])]
    logged = [(b[0]["v"], b[0]["cause"]["seat"], b[0].get("command")) for b in _batches(records)]
    if listed != logged:
        problems.append("the command list does not match the commands in the log")
    if game is not None and not problems:
        final = game.outcome(game.replay(event_of(r) for r in records))
        if _normal(final.to_json() if final else None) != export.get("outcome"):
            problems.append("the recorded outcome is not the outcome of the replayed game")
    return {**report, "ok": not problems, "problems": problems}
