"""Fits a game's playout judgement (``COEFFICIENTS`` in ``shared/games/great_old_one/policy.py`` or
``shared/games/rise_of_cthulhu/policy.py``) to random two-player games. Not part of ``make test``.

    .venv/bin/python -m bench.ai_value_fit --games 2000 [--game rise-of-cthulhu]

Plays seeded all-random games, takes every position where a turn begins (the positions a playout is judged at),
and fits a logistic regression of "this seat ends among the winners" on ``policy.features`` by Newton's method
(a small ridge keeps it stable). Games with an even seed are fitted, odd ones held out: the held-out log loss is
printed against a coin's (0.693) and against the lead in points alone. Prints the coefficients to paste.
"""

from __future__ import annotations

import argparse
import math
import random
from types import ModuleType
from typing import Any

from shared.games import GAMES
from shared.games.great_old_one import policy as great_old_one
from shared.games.great_old_one.state import Step, Turn, last_turn
from shared.games.rise_of_cthulhu import policy as rise_of_cthulhu
from shared.kernel import entropy_for, fold

POLICIES: dict[str, ModuleType] = {"great-old-one": great_old_one, "rise-of-cthulhu": rise_of_cthulhu}


def samples(games: int, players: int, game_id: str = "great-old-one") -> list[tuple[int, list[float], float]]:
    """(game, features, won) for every seat at every turn's start of ``games`` random games."""
    if game_id == "rise-of-cthulhu":
        return _rise_samples(games, players)
    policy = POLICIES[game_id]
    game = GAMES[game_id]
    out = []
    for k in range(games):
        rng, seed = random.Random(k), k.to_bytes(8, "big")
        _, events = game.start(players, {}, entropy_for(seed, 0))
        state, version, seen = fold(game, events), len(events), []
        while game.decider.outcome(state) is None:
            seat = sorted(game.decider.to_act(state))[0]
            command = rng.choice(game.decider.legal_commands(state, seat))
            before = getattr(last_turn(state), "number", 0)
            new, state = game.checked_decide(state, command, seat, entropy_for(seed, version))
            version += len(new)
            if isinstance(state.phase, Turn) and state.phase.step is Step.DRAW and state.phase.number != before:
                seen.append(state)
        winners = game.decider.outcome(state).winners
        out += [(k, policy.features(s, seat), float(seat in winners)) for s in seen for seat in range(players)]
    return out


def _rise_samples(games: int, players: int) -> list[tuple[int, list[float], float]]:
    """Rise of Cthulhu's: every position where a turn begins with nothing waiting (``policy.judged_here``'s)."""
    game, policy = GAMES["rise-of-cthulhu"], rise_of_cthulhu
    out = []
    for k in range(games):
        rng, seed = random.Random(k), k.to_bytes(8, "big")
        _, events = game.start(players, {}, entropy_for(seed, 0))
        state: Any = fold(game, events)
        version, seen = len(events), []
        while game.decider.outcome(state) is None:
            seat = sorted(game.decider.to_act(state))[0]
            command = rng.choice(game.decider.legal_commands(state, seat))
            new, state = game.checked_decide(state, command, seat, entropy_for(seed, version))
            version += len(new)
            if state.actions_taken == 0 and state.pending is None and not any(state.owed) \
                    and game.decider.outcome(state) is None:
                seen.append(state)
        winners = game.decider.outcome(state).winners
        out += [(k, policy.features(s, seat), float(seat in winners)) for s in seen for seat in range(players)]
    return out


def fit(rows: list[tuple[list[float], float]], ridge: float = 1.0, rounds: int = 12) -> list[float]:
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(rounds):
        grad = [0.0] * n
        hess = [[ridge if i == j and i else 0.0 for j in range(n)] for i in range(n)]
        for x, y in rows:
            p = 1 / (1 + math.exp(-sum(a * b for a, b in zip(w, x))))
            g, h = p - y, p * (1 - p)
            for i in range(n):
                grad[i] += g * x[i]
                row = hess[i]
                hx = h * x[i]
                for j in range(n):
                    row[j] += hx * x[j]
        for i in range(1, n):
            grad[i] += ridge * w[i]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
    return w


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def log_loss(w: list[float], rows: list[tuple[list[float], float]]) -> float:
    total = 0.0
    for x, y in rows:
        p = 1 / (1 + math.exp(-max(-30, min(30, sum(a * b for a, b in zip(w, x))))))
        p = min(max(p, 1e-9), 1 - 1e-9)
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / len(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.ai_value_fit", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--game", choices=sorted(POLICIES), default="great-old-one")
    args = parser.parse_args(argv)
    policy = POLICIES[args.game]
    data = samples(args.games, getattr(policy, "JUDGED_PLAYERS", 2), args.game)
    train = [(x, y) for k, x, y in data if k % 2 == 0]
    test = [(x, y) for k, x, y in data if k % 2 == 1]
    w = fit(train)
    lead_only = fit([([x[0], x[1]], y) for x, y in train])  # the first feature after the bias
    print(f"{args.games} games, seeds 0-{args.games - 1}: {len(train)} fitted positions, {len(test)} held out")
    print(f"held-out log loss: model {log_loss(w, test):.4f}, lead alone "
          f"{log_loss(lead_only, [([x[0], x[1]], y) for x, y in test]):.4f}, a coin {math.log(2):.4f}")
    print("COEFFICIENTS = {")
    for name, value in zip(policy.FEATURES, w):
        print(f'    "{name}": {value:.4f},')
    print("}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
