"""Rules: decide and legal_commands per second per game, in process, on mid-game positions.

Positions are every state between commands from 30% to 70% of the way through seeded random playouts.
``legal_commands`` is asked for each acting seat; ``decide_posted`` (the command as posted read into its record at
the wire, then the kernel's checks and the game's rules, as the rules service decides it) for one random legal
command of one acting seat. The wire codec's round trip of a state (what the session service and the rules service pay per
command) is shown beside them for scale.
"""

from __future__ import annotations

import random
import time
from typing import Any

import orjson

from shared.games import GAMES
from shared.kernel import entropy_for, fold
from shared.wire.commands import decide_posted

from bench import synthetic
from bench.report import Report

SECTION = "rules"


def positions(game, playouts: int) -> list[Any]:
    found = []
    for seed in range(playouts):
        events, boundaries = synthetic.playout(game, 1000 + seed)
        total = len(events)
        for i in boundaries:
            if 0.3 * total <= i <= 0.7 * total:
                found.append(fold(game, events[:i]))
    return found


def rate(calls: list[Any], budget_s: float) -> float:
    """Calls per second over the list, cycled until the budget is spent."""
    done, start = 0, time.perf_counter()
    while True:
        for call in calls:
            call()
        done += len(calls)
        elapsed = time.perf_counter() - start
        if elapsed >= budget_s:
            return done / elapsed


def measure(report: Report, playouts: int, budget_s: float) -> None:
    details: dict[str, Any] = report.details.setdefault(SECTION, {})
    for game in GAMES.values():
        rand = random.Random(7)
        states = positions(game, playouts)
        rand.shuffle(states)
        states = states[:300]
        entropy = entropy_for(b"bench", 1)
        legal = [(lambda s=s, seat=seat: game.decider.legal_commands(s, seat)) for s in states for seat in sorted(game.decider.to_act(s))]
        decisions = []
        for s in states:
            choices = {seat: game.decider.legal_commands(s, seat) for seat in sorted(game.decider.to_act(s))}
            seat = rand.choice([seat for seat, legal in choices.items() if legal])
            command = rand.choice(choices[seat]).to_wire()
            decisions.append(lambda s=s, c=command, seat=seat: decide_posted(game, s, c, seat, entropy))
        codec = [lambda s=s: game.codec.decode(orjson.loads(orjson.dumps(game.codec.encode(s)))) for s in states]
        figures = {"positions": len(states), "legal_commands_per_s": rate(legal, budget_s),
                   "decide_per_s": rate(decisions, budget_s), "codec_round_trips_per_s": rate(codec, budget_s)}
        details[game.id] = figures
        report.figure(SECTION, f"{game.id}: decide", figures["decide_per_s"], "/s", note=f"{len(states)} mid-game positions")
        report.figure(SECTION, f"{game.id}: legal_commands", figures["legal_commands_per_s"], "/s")
        report.figure(SECTION, f"{game.id}: state codec round trip", figures["codec_round_trips_per_s"], "/s",
                      note="encode+JSON+decode, paid per command on the wire")
