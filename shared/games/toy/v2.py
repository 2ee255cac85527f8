"""Toy's rules version 2, and how a rules change ships: the new version is the game's ``GAME``, and the version
before it stays in ``retired`` for as long as games started under it are in play (docs/operations.md,
"Upgrades"). Tests use the pair to play a game across a deploy (tests/integration/test_rules_upgrade.py).

The change: a seat holding three cards may not draw (rule 2 gains a hand limit); it must play one.
"""

from __future__ import annotations


from shared.kernel import Command, Decided, replace
from shared.kernel.errors import require

from shared.games.toy import GAME as GAME_V1
from shared.games.toy import rules
from shared.games.toy.commands import DrawCard
from shared.games.toy.state import ToyState

HAND_LIMIT = 3


def decide(state: ToyState, command: Command, seat: int, entropy: bytes) -> Decided[ToyState]:
    if isinstance(command, DrawCard):
        require(len(state.hands[seat]) < HAND_LIMIT, "rules/hand_full", f"you hold {HAND_LIMIT} cards: play one")
    return rules.decide(state, command, seat, entropy)


def legal_commands(state: ToyState, seat: int) -> list[Command]:
    full = len(state.hands[seat]) >= HAND_LIMIT
    return [c for c in rules.legal_commands(state, seat) if not (full and isinstance(c, DrawCard))]


GAME = replace(GAME_V1, rules_version="toy/2", decider=replace(GAME_V1.decider, decide=decide, legal_commands=legal_commands),
               retired=(GAME_V1,))

__all__ = ["GAME", "GAME_V1", "HAND_LIMIT"]
