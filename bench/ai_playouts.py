"""Playouts per second of CPU, per game: the AI's cost driver (docs/ai.md, "Speed"). Not part of ``make test``.

    .venv/bin/python -m bench.ai_playouts --seconds 5 [--only rites-of-cthulhu,...] [--profile]

Positions are reached by random play from seeded starts (0-29 random commands in); each playout resamples one
of them for the seat the game waits on and plays it to the end with ``shared.ai.rollout.Rollout`` (the game's
``rollout_policy`` where it has one, else random legal commands), as the search does after its tree.
``--search`` times whole IS-MCTS searches (tree, redaction and all) instead. ``--path both`` (the default) runs the
bare simulation path (the game's ``simulate``, inside ``simulating()``: no events, no checks) and the full one
(``decide``, its events built and folded back) side by side, alternating second by second, and prints commands per
CPU second of each. ``--against DIR`` runs the full path of another checkout (``git archive 9fb6eff | tar -x -C DIR``: the
code issue 46 measured) in a second process instead, alternating with this one's bare path slice by slice, so both see
the same load. ``--random-playouts`` plays every playout (on both sides) by uniformly random legal commands to the
end, without the game's ``rollout_policy`` and ``playout_value``: the path alone, where a policy added since (Rise of
Cthulhu's) makes each command dearer and each playout shorter. ``--profile`` prints cProfile's top functions by own
time.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import inspect
import json
import os
import pstats
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from shared.ai import SeatKnowledge, search
from shared.ai import rollout as rollout_module
from shared.ai.rollout import Rollout
from shared.games import GAMES
from shared.kernel import Game, entropy_for, fold


def unguided(game: Game) -> Game:
    """``game`` with its playouts moving by uniformly random legal commands to the end (no policy, no judged end)."""
    return dataclasses.replace(game, ai=dataclasses.replace(game.ai, rollout_policy=None, playout_value=None))


def positions(game: Game, players: int, count: int, seed: int) -> list[tuple[Any, int]]:
    """Up to ``count`` running positions reached by random play, each with the first seat the game waits on."""
    rng, out = random.Random(seed), []
    for g in range(count):
        _, events = game.start(players, {}, entropy_for(bytes([g, seed % 256]) * 4, 0))
        state = fold(game, events)
        for _ in range(rng.randrange(30)):
            if game.decider.outcome(state) is not None:
                break
            seat = sorted(game.decider.to_act(state))[0]
            command = rng.choice(game.decider.legal_commands(state, seat))
            state = game.decider.decide(state, command, seat, rng.randbytes(32)).state
        if game.decider.outcome(state) is None:
            out.append((state, sorted(game.decider.to_act(state))[0]))
    return out


def playouts_per_second(game: Game, players: int, seconds: float, whole_search: bool) -> tuple[int, float, int]:
    """Playouts (or search iterations) done in ``seconds`` of CPU, the CPU spent, and the commands played out."""
    places = positions(game, players, 10, 7)
    rng = random.Random(1)
    rollout = Rollout(game, rng, None, None)
    done, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        state, seat = places[done % len(places)] if not whole_search else places[(done // 50) % len(places)]
        if whole_search:
            result = search(SeatKnowledge.of(game, state, seat), 50, random.Random(done))
            done += result.iterations
        else:
            rollout.play(game.ai.resample(state, seat, rng))
            done += 1
    return done, time.process_time() - started, rollout.commands


def measure(game: Game, players: int, seconds: float, whole_search: bool, bare: bool) -> tuple[int, float, int]:
    """``playouts_per_second`` with playouts on the bare path (``simulating()``: no events) or the full one."""
    saved, rollout_module.BARE = rollout_module.BARE, bare
    try:
        return playouts_per_second(game, players, seconds, whole_search)
    finally:
        rollout_module.BARE = saved


_DRIVER = """
from __future__ import annotations
import dataclasses, json, random, sys, time
from typing import Any
from shared.ai.rollout import Rollout
from shared.games import GAMES
from shared.kernel import Game, entropy_for, fold


""" + inspect.getsource(positions) + """

for line in sys.stdin:
    game_id, seconds, random_playouts = json.loads(line)
    game = GAMES[game_id]
    if random_playouts:
        game = dataclasses.replace(game, ai=dataclasses.replace(game.ai, rollout_policy=None, playout_value=None))
    places = positions(game, max(2, game.catalogue.min_players), 10, 7)
    counted = [0]
    decide = game.decider.decide

    def counting(*args, decide=decide):
        counted[0] += 1
        return decide(*args)

    played = dataclasses.replace(game, decider=dataclasses.replace(game.decider, decide=counting))
    rng = random.Random(1)
    rollout = Rollout(played, rng, None, None)
    done, started = 0, time.process_time()
    while time.process_time() - started < seconds:
        state, seat = places[done % len(places)]
        rollout.play(game.ai.resample(state, seat, rng))
        done += 1
    print(json.dumps([done, time.process_time() - started, counted[0]]), flush=True)
"""


class Other:
    """Full-path playouts in another checkout's code (its own process, this interpreter), by ``_DRIVER``: this
    module's ``positions`` (its source, sent along) and the loop of ``playouts_per_second``, counting the commands
    as calls of the game's ``decide``, written against what every checkout since the decider's split (``387da9e``)
    has, so the code the issue measured (``9fb6eff``) runs as it was."""

    def __init__(self, root: Path):
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.proc = subprocess.Popen([sys.executable, "-c", _DRIVER], cwd=root, env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def measure(self, game_id: str, seconds: float, random_playouts: bool) -> tuple[int, float, int]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([game_id, seconds, random_playouts]) + "\n")
        self.proc.stdin.flush()
        done, spent, commands = json.loads(self.proc.stdout.readline())
        return int(done), float(spent), int(commands)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_playouts", description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU seconds per game and path")
    parser.add_argument("--only", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--search", action="store_true", help="time IS-MCTS iterations (50 a search), not bare playouts")
    parser.add_argument("--path", choices=("both", "bare", "full"), default="both",
                        help="playouts on the bare path (no events), the full one (events built and folded back, "
                             "as before issue 46), or both side by side, alternating in slices of a second")
    parser.add_argument("--against", type=Path,
                        help="a checkout whose full path runs side by side with this one's bare path (today's code)")
    parser.add_argument("--random-playouts", action="store_true",
                        help="playouts by random legal commands to the end on both sides: the path alone, no policy")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    args = parser.parse_args(argv)
    if args.against:
        if args.search:
            parser.error("--against compares playouts, not searches")
        return against(args)
    paths = {"both": (False, True), "bare": (True,), "full": (False,)}[args.path]
    for game_id in args.only.split(","):
        game = unguided(GAMES[game_id]) if args.random_playouts else GAMES[game_id]
        players = max(2, game.catalogue.min_players)
        profile = cProfile.Profile() if args.profile else None
        if profile:
            profile.enable()
        totals = {bare: [0, 0.0, 0] for bare in paths}
        for _ in range(max(1, round(args.seconds))):  # alternate, so both paths see the same load
            for bare in paths:
                done, spent, commands = measure(game, players, args.seconds / max(1, round(args.seconds)),
                                                args.search, bare)
                totals[bare] = [totals[bare][0] + done, totals[bare][1] + spent, totals[bare][2] + commands]
        if profile:
            profile.disable()
        what = "search iterations" if args.search else "playouts"
        line = [f"{game_id} {players}p:"]
        for bare in paths:
            done, spent, commands = totals[bare]
            line.append(f"{'bare' if bare else 'full'} {done / spent:.0f} {what}/s, {commands / spent:,.0f} commands/s")
        if len(paths) == 2:
            full, bare_ = totals[False], totals[True]
            line.append(f"× {(bare_[2] / bare_[1]) / (full[2] / full[1]):.2f} commands/s, "
                        f"× {(bare_[0] / bare_[1]) / (full[0] / full[1]):.2f} {what}/s")
        print("  ".join(line), flush=True)
        if profile:
            pstats.Stats(profile).sort_stats("tottime").print_stats(20)
    return 0


def against(args: argparse.Namespace) -> int:
    """This checkout's bare path against ``--against``'s full path, alternating slice by slice."""
    other = Other(args.against)
    slices = max(1, round(args.seconds))
    try:
        for game_id in args.only.split(","):
            game = unguided(GAMES[game_id]) if args.random_playouts else GAMES[game_id]
            players = max(2, game.catalogue.min_players)
            totals = {"today": [0, 0.0, 0], "bare": [0, 0.0, 0]}
            for _ in range(slices):
                for path in totals:
                    if path == "today":
                        got = other.measure(game_id, args.seconds / slices, args.random_playouts)
                    else:
                        got = measure(game, players, args.seconds / slices, args.search, True)
                    totals[path] = [a + b for a, b in zip(totals[path], got)]
            (t_done, t_spent, t_cmds), (b_done, b_spent, b_cmds) = totals["today"], totals["bare"]
            what = "search iterations" if args.search else "playouts"
            print(f"{game_id} {players}p:  today's full path ({args.against}) {t_done / t_spent:.0f} {what}/s, "
                  f"{t_cmds / t_spent:,.0f} commands/s  bare {b_done / b_spent:.0f} {what}/s, "
                  f"{b_cmds / b_spent:,.0f} commands/s  × {(b_cmds / b_spent) / (t_cmds / t_spent):.2f} commands/s, "
                  f"× {(b_done / b_spent) / (t_done / t_spent):.2f} {what}/s", flush=True)
    finally:
        other.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
