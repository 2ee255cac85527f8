"""Auditing a game: check the hash chain, re-decide every command from the revealed seed, export and verify.

The server's ``/audit`` and the offline ``mythos audit FILE`` both run this code, which is the same rules
code the rules service runs, so an export can be checked without trusting the server that produced it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import orjson

from shared.kernel import Event, Game, RuleViolation, entropy_for
from shared.kernel.entropy import commitment as seed_commitment
from shared.kernel.game import GameOver
from shared.kernel.table import TABLE_COMMANDS, Seating, Status, Table, TableAborted, TableEnded, TableOpened, table_batch
from shared.records import event_of, first_broken_link
from shared.wire.commands import MalformedCommand, decide_posted

FORMAT = "mythos-tables/game-record/2"
FORMATS = (FORMAT, "mythos-tables/game-record/1")  # 1: logged before tables (no table facts); still verified


def _normal(value: Any) -> Any:
    return orjson.loads(orjson.dumps(value))


def _batches(records: Sequence[Mapping[str, Any]]) -> Iterable[list[Mapping[str, Any]]]:
    """The records each command wrote, in order (consecutive records with one cause)."""
    for _, group in itertools.groupby(records, key=lambda r: r["cause"]["id"]):
        yield list(group)


def redecide(game: Game, seed: bytes, records: Sequence[Mapping[str, Any]]) -> dict[str, Any] | None:
    """Re-run every recorded command (the table's and the game's) with the entropy the seed gives, each by the
    rules version recorded for it (a game keeps the version it started under across deploys); the first
    divergence or None. A version this code does not provide cannot be re-decided: that is reported, never
    re-decided by other rules."""
    seatings: dict[str, Seating] = {}
    table = None
    for batch in _batches(records):
        first = batch[0]
        version = first.get("rules")
        rules = game.at_version(version) if isinstance(version, str) else None
        if rules is None or any(r.get("rules") != version for r in batch):
            return {"version": first.get("v"), "problem": "rules version not provided by this code: it cannot re-decide it",
                    "expected": game.rules_versions, "found": version}
        assert isinstance(version, str)  # rules were found for it
        seating = seatings.setdefault(version, Seating(rules))
        command = first.get("command")
        try:
            events, folded = recorded_decision(seating, table, first["cause"]["type"], command, first["cause"]["seat"], seed)
        except (RuleViolation, MalformedCommand, GameOver, KeyError, TypeError, ValueError, AssertionError) as exc:
            return {"version": first["v"], "problem": "the recorded command is not accepted by the rules", "expected": None,
                    "found": {"command": command, "refused": getattr(exc, "code", type(exc).__name__)}}
        expected = [_normal(e.to_json()) for e in events]
        found = [event_of(r).to_json() for r in batch]
        for offset in range(max(len(expected), len(found))):
            want = expected[offset] if offset < len(expected) else None
            got = found[offset] if offset < len(found) else None
            if want != got:
                return {"version": first["v"] + offset, "problem": "event differs from the rules' decision", "expected": want, "found": got}
        table = folded if folded is not None else seating.fold(table, events)
    return None


def recorded_decision(seating: Seating, table: Table | None, kind: str, command: Any, seat: int | None,
                      seed: bytes) -> tuple[list[Event], Table | None]:
    """What the rules decide for one recorded command: a table command (with the game's setup when it fills
    the table), the setup of a log from before tables, or a game command with the game's own entropy; with the
    table the events leave when deciding folded them already (a game command's), else None."""
    game = seating.game
    if not isinstance(command, Mapping):
        raise TypeError("a batch without its command")

    def setup(players: int, options: Mapping[str, Any]) -> list[Event]:
        return game.start(players, options, entropy_for(seed, 0))[1]

    if kind == "setup":  # record format 1: the game's setup is the first batch
        return setup(command["players"], command["options"]), None
    if command.get("type") in TABLE_COMMANDS:
        return table_batch(seating, table, command, seat, setup), None
    assert table is not None, "a game command before any table"
    seating.check_game_command(table)
    decided = decide_posted(game, table.game, command, seat, entropy_for(seed, table.game_events))
    return seating.played(table, decided.events, decided.state)


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
    replay: dict[str, Any] | None
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
    """The portable record of a finished (or aborted) game (docs/record-format.md)."""
    commands = [
        {"version": b[0]["v"], "seat": b[0]["cause"]["seat"], "by": b[0]["cause"]["by"], "at": b[0]["at"], "command": b[0].get("command")}
        for b in _batches(records)
    ]
    return {
        "format": FORMAT if records and records[0]["type"] == TableOpened.TYPE else FORMATS[1],
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


def verify_export(export: Mapping[str, Any], games: Mapping[str, Game], *, commitment: str | None = None,
                  head: str | None = None) -> dict[str, Any]:
    """Check an export with no server: format, chain, seed commitment, re-decision, commands, and that the
    record's own facts (game id, seats, options, outcome) are the chained ones. ``commitment`` and ``head`` are
    what the user saw during play (the seed commitment at creation, the head hash at the end): given, the
    export must carry exactly those; ``checked`` says which were."""
    problems: list[str] = []
    if export.get("format") not in FORMATS:
        return {"ok": False, "problems": [f"not a {FORMAT} record"], "checked": []}
    records, game = export.get("events") or [], games.get(export.get("game", ""))
    try:
        seed = bytes.fromhex(export.get("seed", ""))
    except (TypeError, ValueError):
        return {"ok": False, "problems": ["the seed is not hex"], "checked": []}
    report = audit_records(
        game, records, head_hash=export.get("head_hash", ""), seed=seed,
        commitment=export.get("seed_commitment", ""), rules_version=export.get("rules_version", ""),
    )
    checked = ["chain", "seed commitment", "re-decision"]
    if commitment is not None:
        checked.append("the commitment you saw")
        if commitment.lower() != export.get("seed_commitment"):
            problems.append("the export's seed commitment is not the one you saw")
    if head is not None:
        checked.append("the head hash you saw")
        if head.lower() != export.get("head_hash"):
            problems.append("the export's head hash is not the one you saw")
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
    rules = game.at_version(export.get("rules_version")) if game is not None else None
    if rules is not None and not problems:
        problems += _bound_facts(export, Seating(rules), records)
    return {**report, "ok": not problems, "problems": problems, "checked": checked}


def _bound_facts(export: Mapping[str, Any], seating: Seating, records: Sequence[Mapping[str, Any]]) -> list[str]:
    """The export's game id, seats, options and outcome must be what the chained log says, and a finished game's
    log must end with its outcome (an export cut short does not)."""
    table = seating.fold(None, (event_of(r) for r in records))
    try:
        final = seating.outcome(table)
    except ValueError:  # a table_ended whose reason neither the table nor the game gives
        return ["the recorded outcome's reason is not one this game gives"]
    problems = []
    if final is None and table.status != Status.ABORTED:
        problems.append("the game in the record is not over: the record is cut short")
    if _normal(final.to_json() if final else None) != export.get("outcome"):
        problems.append("the recorded outcome is not the outcome of the replayed game")
    if table.legacy:
        return problems
    last = records[-1]["type"]
    if last not in (TableEnded.TYPE, TableAborted.TYPE):
        problems.append("the log does not end with the game's outcome: the record is cut short")
    if export.get("game_id") != table.game_id:
        problems.append("the game id is not the one the log was opened with")
    if _normal(export.get("options")) != _normal(table.options):
        problems.append("the options are not the ones the log was opened with")
    if [(s.get("seat"), s.get("name"), s.get("ai")) for s in export.get("seats", [])] != \
            [(i, s.name, s.ai) for i, s in enumerate(table.seats)]:
        problems.append("the seats are not the ones the log records")
    return problems
