"""A table played to its end after seats resigned at the start, the table's AI and a seeded random policy playing
every seat: for the scenarios that pin how each game names its winners among the seats still standing
(``Decider.winners_among``; each game's rulings, "Resignation")."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any

from shared.kernel import Event, entropy_for
from shared.kernel.game import Game
from shared.kernel.table import OpenTable, Resign, Seating, Table, table_batch


def resigned_and_played_out(game: Game, players: int, resigned: Iterable[int], seed: int) -> tuple[Seating, Table]:
    """The table after ``resigned`` seats resigned before the first move and every seat was played out at random
    (``random.Random(seed)``, the game's entropy from the seed too), and its rules."""
    secret = seed.to_bytes(8, "big")
    seating = Seating(game)

    def setup(count: int, options: Mapping[str, Any]) -> list[Event]:
        return game.start(count, options, entropy_for(secret, 0))[1]

    seats = tuple({"name": f"Seat {i + 1}"} for i in range(players))
    table = seating.fold(None, table_batch(seating, None, OpenTable("g_resigned", seats, {}, "public"), None, setup))
    for seat in resigned:
        table = seating.fold(table, table_batch(seating, table, Resign(ai="random"), seat, setup))
    rand = random.Random(seed)
    while seating.outcome(table) is None:
        seat = min(seating.to_act(table))
        command = rand.choice(game.decider.legal_commands(table.game, seat))
        decided = game.checked_decide(table.game, command, seat, entropy_for(secret, table.game_events))
        _, table = seating.played(table, decided.events, decided.state)
    return seating, table
