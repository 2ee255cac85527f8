"""The Dunwich Horror's commands (besides the shared ``draw_card`` and ``end_turn``)."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type

from shared.games.rites_of_cthulhu.rites.base import DrawCard, EndTurn

PAIR = "two different entity card ids from your hand, in any order (loaded ascending)"
WALL = "a wall slot: 0-3 surround Wilbur Whateley (7), 4-7 The Dunwich Horror (6)"


@dataclass(frozen=True, slots=True)
class CardPair(Command):
    """Two cards from the hand; a pair is a set, so it is held in ascending order."""

    cards: tuple[int, ...] = arg(PAIR, min_items=2, max_items=2)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))


@dataclass(frozen=True, slots=True)
class RevealWall(CardPair, type="reveal_wall"):
    """Turn a face-down wall card over with a pair whose elder sign sum or difference equals its twin's elder sign;
    then capture it with a second pair or knock ("Dunwich Horror", The Play)."""

    wall: int = arg(WALL)


@dataclass(frozen=True, slots=True)
class CaptureWall(CardPair, type="capture_wall"):
    """Capture a revealed wall card with a pair whose sum or difference equals its elder sign: the one you just
    revealed, or an earlier one at the start of your turn; one capture a turn ("Dunwich Horror", The Play)."""

    wall: int = arg(WALL)


@dataclass(frozen=True, slots=True)
class CallKnock(Command, type="call_knock"):
    """Knock on the table instead of capturing the card you revealed: every other cultist may claim it
    ("Dunwich Horror", The Play)."""


@dataclass(frozen=True, slots=True)
class Knock(CardPair, type="knock"):
    """Claim the card another cultist knocked for, with a pair whose sum or difference equals its elder sign: the
    first valid claim the server applies wins ("Dunwich Horror", The Play and Privilege)."""


@dataclass(frozen=True, slots=True)
class PassKnock(Command, type="pass_knock"):
    """Let the card another cultist knocked for go: once every other cultist has passed it stays face up."""


@dataclass(frozen=True, slots=True)
class DiscardAndDraw(CardPair, type="discard_and_draw"):
    """Forego your turn to discard two cards and draw two ("Dunwich Horror", The Play)."""


COMMANDS = by_type(RevealWall, CaptureWall, CallKnock, Knock, PassKnock, DiscardAndDraw, EndTurn, DrawCard)
