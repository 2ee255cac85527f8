"""The Hound's facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shared.kernel import Fact


@dataclass(frozen=True, slots=True)
class GraveyardLaid(Fact, type="graveyard_laid"):
    """``count`` face-down graves from the pile: ``graves`` (secret until dug up or the game ends)."""

    count: int
    graves: list[int]


@dataclass(frozen=True, slots=True)
class GravePeeked(Fact, type="grave_peeked"):
    """``seat`` peeked at grave ``grave``: ``card`` (only that seat sees it); ``privilege``: the Grand Cultist's."""

    seat: int
    grave: int
    card: int
    privilege: bool


@dataclass(frozen=True, slots=True)
class PeekDeclined(Fact, type="peek_declined"):
    """``seat`` did not use the privileged peek."""

    seat: int


@dataclass(frozen=True, slots=True)
class TurnPassedWithoutGhoul(Fact, type="turn_passed_without_ghoul"):
    """``seat`` could send no ghoul and passed."""

    seat: int


@dataclass(frozen=True, slots=True)
class HoundTurnBegan(Fact, type="hound_turn_began"):
    """``seat``'s turn begins: it places a ghoul."""

    seat: int


@dataclass(frozen=True, slots=True)
class GhoulPlaced(Fact, type="ghoul_placed"):
    """``seat`` placed ``card`` face up as a ghoul next to grave ``grave``."""

    seat: int
    card: int
    grave: int


@dataclass(frozen=True, slots=True)
class GhoulKept(Fact, type="ghoul_kept"):
    """``seat`` left its ghoul at grave ``grave``."""

    seat: int
    grave: int


@dataclass(frozen=True, slots=True)
class GhoulMoved(Fact, type="ghoul_moved"):
    """``seat`` moved its ghoul ``card`` from grave ``source`` to grave ``grave`` (without a peek)."""

    seat: int
    card: int
    source: int
    grave: int


@dataclass(frozen=True, slots=True)
class GraveDugUp(Fact, type="grave_dug_up"):
    """Two ghouls dig grave ``grave``: it is turned face up (``card``); ``partners`` seal their henchmen; the dig
    was made on ``turn``'s turn."""

    grave: int
    card: int
    partners: list[int]
    turn: int


@dataclass(frozen=True, slots=True)
class HenchmanSealed(Fact, type="henchman_sealed"):
    """``seat`` sealed its ``choice`` (secret to it) and ``card`` (secret to it unless hands are open)."""

    seat: int
    grave: int
    choice: str
    card: int | None


@dataclass(frozen=True, slots=True)
class HenchmenRevealed(Fact, type="henchmen_revealed"):
    """Both partners' sealed choices, turned over together: {seat, shown, card if a henchman}."""

    grave: int
    shown: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class HenchmanPsychedOut(Fact, type="henchman_psyched_out"):
    """``seat``'s henchman ``card`` was psyched out by a dummy and is discarded."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class DummiesDiscarded(Fact, type="dummies_discarded"):
    """Both partners psyched out: both dummies ``cards`` are discarded."""

    grave: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class DummyReturned(Fact, type="dummy_returned"):
    """``seat``'s dummy ``card`` goes back to its hand unseen (secret to it unless hands are open)."""

    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class GraveLooted(Fact, type="grave_looted"):
    """``seat`` loots grave ``grave`` (``card``); ``totals``: each partner's [seat, ghoul plus henchman]."""

    seat: int
    grave: int
    card: int
    totals: list[list[int]]


@dataclass(frozen=True, slots=True)
class DigTied(Fact, type="dig_tied"):
    """Equal totals and equal ghouls: grave ``grave`` (``card``) stays face up for later."""

    grave: int
    card: int
    totals: list[list[int]]


@dataclass(frozen=True, slots=True)
class DigCleared(Fact, type="dig_cleared"):
    """The partners' ghouls and counted henchmen ``cards`` are discarded."""

    grave: int
    cards: list[int]


@dataclass(frozen=True, slots=True)
class GraveyardEmptied(Fact, type="graveyard_emptied"):
    """Every grave is looted; each seat's ``points``."""

    points: list[int]


FACTS = (GraveyardLaid, GravePeeked, PeekDeclined, TurnPassedWithoutGhoul, HoundTurnBegan, GhoulPlaced, GhoulKept,
         GhoulMoved, GraveDugUp, HenchmanSealed, HenchmenRevealed, HenchmanPsychedOut, DummiesDiscarded, DummyReturned,
         GraveLooted, DigTied, DigCleared, GraveyardEmptied)
