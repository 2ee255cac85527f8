"""Balance check for Rise of Cthulhu: two uniformly random AIs over many seeded games.

Run: ``python -m tests.balance_rise_of_cthulhu [games]`` (default 1000, seeds 0..games-1). Prints how often each
seat wins, how long games last, how often Azathoth wakes, how often each tie-break decides, and how often the
project's rulings (forced Cultist Deck draw, neutral Old One Locations) come into play. Not a pytest module.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from shared.games.rise_of_cthulhu import GAME
from tests.support.properties import random_playout


def run(games: int) -> dict:
    wins: Counter = Counter()
    reasons: Counter = Counter()
    reasons_azathoth: Counter = Counter()
    commands, turns, deck_left = [], [], []
    azathoth = 0
    forced_turns = forced_games = 0
    fizzled = awakenings = 0
    monsters = artifacts = 0
    cross_seat_powers = 0
    woke: Counter = Counter()
    where: Counter = Counter()
    power_used: Counter = Counter()
    power_won: Counter = Counter()
    card_used: Counter = Counter()
    card_won: Counter = Counter()
    for seed in range(games):
        play = random_playout(GAME, 2, seed)
        result = GAME.decider.outcome(play.state)
        if result.winners:
            wins[result.winners[0]] += 1
        else:
            wins["tie"] += 1
        reasons[result.reason] += 1
        commands.append(len(play.commands))
        turns.append(1 + sum(1 for e in play.events if e.type == "turn_passed"))
        deck_left.append(len(play.state.deck))
        forced = sum(1 for e in play.events if e.type == "turn_passed" and e.data["must_draw"])
        forced_turns += forced
        forced_games += forced > 0
        if "azathoth" in play.state.awake:
            azathoth += 1
            reasons_azathoth[result.reason] += 1
        for e in play.events:
            if e.type == "old_one_awakened":
                awakenings += 1
                woke[e.data["old_one"]] += 1
                where[e.data["location"]] += 1
                fizzled += e.data["influencer"] is None
                cross_seat_powers += e.data["influencer"] not in (None, e.data["seat"])
            elif e.type == "power_resolved":
                power_used[e.data["old_one"]] += 1
                power_won[e.data["old_one"]] += e.data["seat"] in result.winners
            elif e.type in ("monster_played", "artifact_played"):
                monsters += e.type == "monster_played"
                card_used[e.data["card"]] += 1
                card_won[e.data["card"]] += e.data["seat"] in result.winners
            elif e.type == "artifact_drawn":
                artifacts += 1
    return {
        "games": games,
        "wins": wins,
        "reasons": reasons,
        "reasons_azathoth": reasons_azathoth,
        "commands": commands,
        "turns": turns,
        "deck_left": deck_left,
        "azathoth": azathoth,
        "forced_turns": forced_turns,
        "forced_games": forced_games,
        "fizzled": fizzled,
        "awakenings": awakenings,
        "cross_seat_powers": cross_seat_powers,
        "monsters": monsters,
        "artifacts": artifacts,
        "woke": woke,
        "where": where,
        "power_used": power_used,
        "power_won": power_won,
        "card_used": card_used,
        "card_won": card_won,
    }


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%"


def report(r: dict, seconds: float) -> None:
    n = r["games"]
    print(f"Rise of Cthulhu balance: {n} seeded games (seeds 0..{n - 1}), two uniformly random AIs, {seconds:.0f} s")
    print(
        f"wins: seat 0 (first player) {r['wins'][0]} ({pct(r['wins'][0], n)}), "
        f"seat 1 {r['wins'][1]} ({pct(r['wins'][1], n)}), both lose {r['wins']['tie']} ({pct(r['wins']['tie'], n)})"
    )
    for label, key in (("commands", "commands"), ("turns", "turns")):
        xs = r[key]
        print(
            f"{label} per game: mean {statistics.mean(xs):.1f}, median {statistics.median(xs):.0f}, "
            f"min {min(xs)}, max {max(xs)}"
        )
    print(f"cards left in the Cultist Deck at the end: mean {statistics.mean(r['deck_left']):.1f}, min {min(r['deck_left'])}")
    print(f"Azathoth woke in {r['azathoth']} games ({pct(r['azathoth'], n)})")
    print("decided by: " + ", ".join(f"{k} {v} ({pct(v, n)})" for k, v in r["reasons"].most_common()))
    if r["azathoth"]:
        print(
            "  of which with Azathoth awake: "
            + ", ".join(f"{k} {v}" for k, v in r["reasons_azathoth"].most_common())
        )
    a = r["awakenings"]
    print(
        f"Old Ones woken: {a}; on a neutral Location (power lost) {r['fizzled']} ({pct(r['fizzled'], a)}); "
        f"resolved by the drawer's opponent {r['cross_seat_powers']} ({pct(r['cross_seat_powers'], a)})"
    )
    print("  which: " + ", ".join(f"{k} {v}" for k, v in sorted(r["woke"].items())))
    print("  where: " + ", ".join(f"{k} {v}" for k, v in sorted(r["where"].items())))
    print(
        f"forced Cultist Deck draw (a turn begun in a repeated position): {r['forced_turns']} turns in {r['forced_games']} games "
        f"({pct(r['forced_games'], n)})"
    )
    print(f"per game: Monsters played {r['monsters'] / n:.2f}, Artifacts acquired {r['artifacts'] / n:.2f}")
    print(
        "games won by the player who resolved the power: "
        + ", ".join(f"{k} {pct(r['power_won'][k], v)} of {v}" for k, v in sorted(r["power_used"].items()))
    )
    print(
        "games won by the player who played the card: "
        + ", ".join(f"{k} {pct(r['card_won'][k], v)} of {v}" for k, v in sorted(r["card_used"].items()))
    )


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 1000
    start = time.time()
    result = run(games)
    report(result, time.time() - start)


if __name__ == "__main__":
    main(sys.argv)
