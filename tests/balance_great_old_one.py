"""Balance check for Cthulhu: The Great Old One: seeded random games, not a pytest module.

Run: ``python -m tests.balance_great_old_one [games per player count, default 1000]``.

For each table size it plays that many seeded games of uniformly random legal commands (the same chooser as the
property tests: a random seat among those with a legal command, out-of-turn Signs included, then a random
command) and prints: win rate by seat (a shared win counts 1/k to each of k winners), game length in turns and
commands, how games end, and how often the Great Old One decides the game: its holder wins with the Cultist, or
its holder would have won on score but loses.
The figures are recorded in ``docs/rulings/great-old-one.md``.
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import Counter

from shared.games.great_old_one import GAME
from shared.games.great_old_one.rules import score
from shared.kernel import entropy_for, fold
from tests.support.properties import choose


def play(players: int, seed: int, options: dict | None = None, max_commands: int = 3000):
    """One seeded random game: (final state, commands played)."""
    chooser = random.Random(seed)
    game_seed = seed.to_bytes(8, "big")
    _, events = GAME.start(players, options or {}, entropy_for(game_seed, 0))
    version = len(events)
    state = fold(GAME, events)
    for count in range(max_commands):
        if GAME.decider.outcome(state) is not None:
            return state, count
        seat, command = choose(GAME, state, chooser)
        new, state = GAME.checked_decide(state, command, seat, entropy_for(game_seed, version))
        version += len(new)
    raise AssertionError(f"no outcome after {max_commands} commands (players {players}, seed {seed})")


def great_old_one_decided(state, result) -> str | None:
    """'cultist' when its holder wins with the Cultist; 'spoiled' when it costs its holder a win on score."""
    holder = result.details["great_old_one"]
    if result.reason == "great_old_one_with_cultist":
        return "cultist"
    if holder is None:
        return None
    rank = [(score(a), len(a.pairs)) for a in state.areas]
    if rank[holder] >= max(rank):
        return "spoiled"
    return None


def report(players: int, games: int, options: dict | None = None) -> dict:
    wins = [0.0] * players
    turns, commands = [], []
    ends, reasons, decided = Counter(), Counter(), Counter()
    for seed in range(games):
        state, count = play(players, seed, options)
        result = GAME.decider.outcome(state)
        for s in result.winners:
            wins[s] += 1 / len(result.winners)
        turns.append(state.phase.last.number)
        commands.append(count)
        ends[result.details["end"]] += 1
        reasons[result.reason] += 1
        decided[great_old_one_decided(state, result)] += 1
    return {
        "players": players,
        "games": games,
        "win_rate": [w / games for w in wins],
        "turns": (statistics.mean(turns), statistics.median(turns), max(turns)),
        "commands": (statistics.mean(commands), max(commands)),
        "ends": {k: v / games for k, v in ends.items()},
        "reasons": {k: v / games for k, v in reasons.items()},
        "goo_cultist": decided["cultist"] / games,
        "goo_spoiled": decided["spoiled"] / games,
    }


def main(argv: list[str]) -> None:
    games = int(argv[0]) if argv else 1000
    for options in ({}, {"finish_round": True}):
        table(games, options)


def table(games: int, options: dict) -> None:
    label = "the rulebook end (a 7th pair ends the game at once)" if not options else "variant finish_round (the round is played out)"
    print(f"\nCthulhu: The Great Old One — {label}: {games} seeded random games per table size (seeds 0..{games - 1})")
    print("players | win rate by seat (seat 0 starts)     | turns mean/median/max | commands mean/max | 7th pair | deck out | GOO+Cultist wins | GOO spoils a win | GOO decides")
    for players in range(GAME.catalogue.min_players, GAME.catalogue.max_players + 1):
        r = report(players, games, options)
        rates = " ".join(f"{w:.1%}" for w in r["win_rate"])
        t, c = r["turns"], r["commands"]
        decides = r["goo_cultist"] + r["goo_spoiled"]
        print(
            f"{players} | {rates} | {t[0]:.1f}/{t[1]:.0f}/{t[2]} | {c[0]:.0f}/{c[1]} | {r['ends'].get('seventh_pair', 0):.1%} | "
            f"{r['ends'].get('deck_exhausted', 0):.1%} | {r['goo_cultist']:.1%} | {r['goo_spoiled']:.1%} | {decides:.1%}"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
