"""The checker, after every fault is healed: the clients' history (clients.py) against each game's log, as the cluster
holds it then, and against its audits.

- Every command acknowledged ``Mythos-Replicated: true`` is in the log: each of its events at its version with its
  hash (the hash chains everything before it, so the whole history up to it is the one the client was told).
- Exactly once: each batch a seat made in the log is one acknowledgement, and no acknowledgement is two batches.
- In order: a game's surviving acknowledgements stand in the log in the order the client received them.
- Every ``false`` one is counted, and those missing from the log (lost with a primary cut off) are reported; so are
  answers without the header (a re-sent append that found its own records: whether a replica has it is not known),
  and games whose creation was answered 201 and then lost (a create's answer says nothing of replicas).
- The chain, the audit (``GET /audit``: chain, seed, re-decision) and the offline verification of the export (what
  ``mythos audit FILE`` does, with the seed commitment the client was shown and the head hash it saw at the end).
- No game stuck: every game created was played to its end after the last fault.
- The time each fault interrupted play: per client, the longest wait between two of its acknowledgements across the
  fault's window (from its start to the deployment whole again), for the clients on the host at fault and the others.
"""

from __future__ import annotations

import contextlib
import io
import statistics
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from session_service.cli.main import audit_file
from session_service.storage.store import EventStore
from tests.partitions.clients import Ack, History, Played
from tests.partitions.nemesis import Fault
from tests.trust.helpers import Api

INTERRUPTED_S = 1.0  # a wait between a client's acknowledgements longer than this counts as an interruption


@dataclass
class Verdict:
    counts: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)  # each a violation, named with its game
    faults: list[dict[str, Any]] = field(default_factory=list)

    def problem(self, kind: str, game_id: str, detail: str = "") -> None:
        self.counts[kind] += 1
        self.problems.append(f"{kind}: {game_id} {detail}".strip())

    def of(self, *kinds: str) -> list[str]:
        return [p for p in self.problems if p.split(":")[0] in kinds]


def check(history: History, store: EventStore, api: Api, faults: list[Fault]) -> Verdict:
    verdict = Verdict()
    acks_of: dict[str, list[Ack]] = {}
    for ack in history.acks:
        acks_of.setdefault(ack.game_id, []).append(ack)
    lost: list[Ack] = []
    with tempfile.TemporaryDirectory(prefix="mt47p-exports-") as exports:
        for game in history.games.values():
            lost += check_game(verdict, game, sorted(acks_of.get(game.id, []), key=lambda a: a.at), store, api,
                               Path(exports))
    verdict.counts["games"] = len(history.games)
    verdict.faults = [interruption(fault, history.acks, lost) | ai_stall(fault, history) for fault in faults]
    return verdict


def check_game(verdict: Verdict, game: Played, acks: list[Ack], store: EventStore, api: Api, exports: Path) -> list[Ack]:
    """The checks of one game; returns its acknowledgements missing from the log."""
    records = store.records(game.id)
    if game.gone:
        verdict.counts["creates answered 201 and lost"] += 1
        if records:
            verdict.problem("answered 404 for a game that is there", game.id)
    if [r["v"] for r in records] != list(range(1, len(records) + 1)):
        verdict.problem("log not contiguous", game.id)
    logged = {r["v"]: r["hash"] for r in records}
    counts, lost, surviving = verdict.counts, [], []
    for ack in acks:
        kind = {"true": "true", "false": "false"}.get(str(ack.replicated), "unsaid")
        counts[f"acks {kind}"] += 1
        if all(logged.get(v) == h for v, h in ack.events):
            surviving.append(ack)
        else:
            counts[f"acks {kind} lost"] += 1
            lost.append(ack)
            if kind == "true":
                verdict.problem(f"acknowledged {kind} and lost", game.id, f"{ack.key} at versions {[v for v, _ in ack.events]}")
    firsts = [ack.events[0][0] for ack in surviving]
    if firsts != sorted(firsts) or len(set(firsts)) != len(firsts):
        verdict.problem("acknowledgements out of order", game.id, str(firsts))
    acknowledged = {ack.events[0] for ack in surviving}
    for first in seat_batches(records):
        if first not in acknowledged:
            verdict.problem("applied but never acknowledged (or applied twice)", game.id, f"version {first[0]}")
    counts["commands in the logs"] += len(seat_batches(records))
    audited(verdict, game, records, api, exports)
    return lost


def seat_batches(records: list[dict[str, Any]]) -> list[tuple[int, str]]:
    """The (version, hash) of the first record of each batch a seat's command made, in log order."""
    firsts, cause = [], None
    for record in records:
        if record["cause"].get("id") != cause:
            cause = record["cause"].get("id")
            if record["cause"].get("by") == "seat":
                firsts.append((record["v"], record["hash"]))
    return firsts


def audited(verdict: Verdict, game: Played, records: list[dict[str, Any]], api: Api, exports: Path) -> None:
    if game.gone and not records:
        return
    if not game.finished:
        verdict.problem("game stuck (not finished)", game.id)
        return
    report = api.get(f"/v1/games/{game.id}/audit").json()
    if not (report.get("chain_ok") and report.get("replay_ok") and report.get("seed_ok")
            and report.get("events") == len(records)):
        verdict.problem("audit failed", game.id, str(report))
    else:
        verdict.counts["audits ok"] += 1
    export = api.get(f"/v1/games/{game.id}/export")
    path = exports / f"{game.id}.json"
    path.write_bytes(export.content)
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        status = audit_file(str(path), commitment=game.created.get("seed_commitment"), head=game.head)
    if export.status_code != 200 or status != 0 or len(orjson.loads(export.content).get("events", [])) != len(records):
        verdict.problem("offline verification failed", game.id, said.getvalue()[-400:])
    else:
        verdict.counts["verified offline"] += 1


def interruption(fault: Fault, acks: list[Ack], lost: list[Ack]) -> dict[str, Any]:
    """How long the fault held up play, per side: for each client acknowledged before the fault and after the
    deployment was whole again, the longest wait between two of its acknowledgements that overlaps the window (a
    client plays one game after another: a new game is created between two of its acknowledgements)."""
    window = (fault.started, fault.whole)
    times: dict[tuple[str, str], list[float]] = {}
    for ack in acks:
        times.setdefault((ack.home, ack.client), []).append(ack.at)
    waits: dict[str, list[float]] = {"cut off": [], "elsewhere": []}
    for (home, _), at in times.items():
        at.sort()
        longest = max((b - a for a, b in zip(at, at[1:]) if b > window[0] and a < window[1]), default=None)
        if longest is not None and at[0] < window[0] and at[-1] > window[1]:
            waits["cut off" if home == fault.host else "elsewhere"].append(longest)
    during = [a for a in acks if window[0] <= a.at <= window[1]]
    summary: dict[str, Any] = {
        "fault": fault.kind, "host": fault.host, "held_s": round(fault.ended - fault.started, 1),
        "whole_again_after_s": round(fault.healed_in_s, 1), "processes_killed": fault.processes_killed,
        "primaries_before": sorted(fault.primaries_before.values()), "primaries_after": sorted(fault.primaries_after.values()),
        "queue_primary": [fault.queue_before, fault.queue_after],
        "acks_during": len(during), "true_during": sum(a.replicated == "true" for a in during),
        "false_during": sum(a.replicated == "false" for a in during),
        "false_lost": sum(1 for a in lost if window[0] <= a.at <= window[1]),
    }
    cut_off = [a.at for a in during if a.home == fault.host and a.at < fault.ended]
    if cut_off:  # how long the host's side went on acknowledging after the cut (its primary, until node timeout)
        summary["cut off: acknowledged for s after the cut"] = round(max(cut_off) - fault.started, 1)
    gone = [a.at for a in lost if window[0] <= a.at <= window[1]]
    if gone:
        summary["lost: acknowledged from s to s after the cut"] = [round(min(gone) - fault.started, 1),
                                                                   round(max(gone) - fault.started, 1)]
    for side, found in waits.items():
        if found:
            summary[f"{side}: clients"] = len(found)
            summary[f"{side}: longest wait s"] = round(max(found), 1)
            summary[f"{side}: median wait s"] = round(statistics.median(found), 2)
            summary[f"{side}: clients interrupted > {INTERRUPTED_S:g} s"] = sum(w > INTERRUPTED_S for w in found)
    return summary


def ai_stall(fault: Fault, history: History) -> dict[str, Any]:
    """The longest an all-AI game playing across the fault went without a move (its moves need the queue's Redis,
    the workers and the rules, on every host)."""
    stalls = []
    for moved in history.moved.values():
        if moved[0] < fault.started and moved[-1] > fault.whole:
            stalls.append(max(b - a for a, b in zip(moved, moved[1:]) if b > fault.started and a < fault.whole))
    return {"ai: games": len(stalls), "ai: longest stall s": round(max(stalls), 1)} if stalls else {"ai: games": 0}
