"""The Hound's commands."""

from __future__ import annotations

from dataclasses import dataclass

from shared.kernel import Command, arg, by_type

GRAVE = "a grave's index in the graveyard (players + 1 graves)"
HAND_CARD = "an entity card id from your hand"


@dataclass(frozen=True, slots=True)
class PeekGrave(Command, type="peek_grave"):
    """The Grand Cultist's privilege before her first turn: peek at any one face-down grave ("The Hound",
    Privilege of the Grand Cultist)."""

    grave: int = arg(GRAVE)


@dataclass(frozen=True, slots=True)
class DeclinePeek(Command, type="decline_peek"):
    """The Grand Cultist does not use the privileged peek and takes her first turn."""


@dataclass(frozen=True, slots=True)
class PlaceGhoul(Command, type="place_ghoul"):
    """Place a ghoul from your hand next to a grave where you have none yet, draw a replacement, and peek at the
    grave unless it is face up ("The Hound", First Turn and Subsequent turns)."""

    card: int = arg(HAND_CARD)
    grave: int = arg(GRAVE)


@dataclass(frozen=True, slots=True)
class KeepGhoul(Command, type="keep_ghoul"):
    """Leave your ghoul at the grave you peeked at: two ghouls there dig it up, else your turn ends."""


@dataclass(frozen=True, slots=True)
class MoveGhoul(Command, type="move_ghoul"):
    """Move your ghoul once to another grave, without peeking at it ("The Hound", Subsequent turns)."""

    grave: int = arg(GRAVE)


@dataclass(frozen=True, slots=True)
class CallHenchman(Command, type="call_henchman"):
    """Seal a henchman of your ghoul's cult for the dig; revealed with your partner's ("Digging a grave")."""

    card: int = arg("a card of your ghoul's cult, from your hand")


@dataclass(frozen=True, slots=True)
class PsychOut(Command, type="psych_out"):
    """Seal a dummy henchman, kept face down at the reveal: it psychs your partner's henchman out and goes back to
    your hand ("Psyching Out Your Digging Partner")."""

    card: int = arg(HAND_CARD)


@dataclass(frozen=True, slots=True)
class NoHenchman(Command, type="no_henchman"):
    """Seal no henchman for the dig: only your ghoul counts."""


@dataclass(frozen=True, slots=True)
class PassTurn(Command, type="pass_turn"):
    """Pass your turn when you can send no ghoul (an empty hand, or your ghouls at every grave left): a project
    ruling."""


COMMANDS = by_type(PeekGrave, DeclinePeek, PlaceGhoul, KeepGhoul, MoveGhoul, CallHenchman, PsychOut, NoHenchman,
                   PassTurn)
