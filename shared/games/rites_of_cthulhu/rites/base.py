"""What one rite (mini-game) of Rites of Cthulhu is: a ``Rite`` value built from pure functions, like the kernel's
``Game``, so the overarching game (``rules.py``) calls every rite the same way and never looks inside one.

Every rite is a subpackage of the same shape as a game (``cards.py``, ``state.py``, ``events.py``,
``commands.py``, ``rules.py``, ``views.py``, ``narration.py``, and ``__init__.py`` building its ``RITE = Rite(...)``, every function
named by keyword as a game's ``GAME = Game(...)`` is), registered in ``rites/__init__.py``. The rite owns its
board and turn structure (its state, a frozen dataclass); the shared ``Tabletop`` (hands, pile, artifact
modifiers) belongs to the game and changes only through ``rites/table.py``.

A rite decides inside the game's ``Decision`` (``decide``, ``begin``, ``settle`` emit into it): ``here(d)`` is
the table and the rite's own state in the position the decision has reached, and ``d.rng`` the command's one
PRNG. Its ``evolve`` folds its own facts and may change the table too (a rite that re-deals).

Patterns the rites use, all supported here:
  * Sealed simultaneous choices (Out of the Aeons bids, The Hound henchmen): ``to_act`` lists every seat still
    to choose; each choice is stored in the rite state and its event carries the card as a secret field; the view
    shows only "has chosen"; the reveal is one event once all have chosen.
  * Knock races (The Dunwich Horror): several seats waited on at once; the first command the server applies
    wins (commands are serialised), the rest are refused because the state moved on.
  * Private peeks (The Hound): an event with the peeked card secret to the peeker, recorded in the rite state.

Power-plays and artifacts may happen at any moment, by any seat: they touch only the table and the artifacts,
never the rite state, so a rite must not assume a hand is unchanged between two of its own commands beyond what
it checks in ``decide``. Rites must make progress under random play: every loop consumes cards or empties a pile.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from shared.kernel import Command, Decision, Fact
from shared.kernel.narration import Narrator
from shared.kernel.events import Viewer

from shared.games.rites_of_cthulhu.rites.table import draw
from shared.games.rites_of_cthulhu.state import Performing, RitesState, Tabletop


class RiteEnd(StrEnum):
    """How a rite ends (the ``reason`` of ``rite_won`` and ``rite_failed``)."""

    EMPTIED_HAND = "emptied_hand"
    FEWEST_CARDS = "fewest_cards"
    OVERTHROW = "overthrow"
    HOLDS_CTHULHU = "holds_cthulhu"
    CTHULHU_NOT_CAPTURED = "cthulhu_not_captured"
    TWINS_FREED = "twins_freed"
    YELLOW_CARDS_TAKEN = "yellow_cards_taken"
    GRAVEYARD_LOOTED = "graveyard_looted"
    NO_GHOULS_LEFT = "no_ghouls_left"
    GRAND_CULTIST_SEIZED = "grand_cultist_seized"


@dataclass(frozen=True, slots=True)
class RiteResult:
    """The end of a rite: ``winner`` takes the Coveted Artifact pile (None: nobody does, the pile is thrown out).

    ``may_trade_artifact``: the winner may trade one Coveted Artifact for any artifact of the artifact deck
    (the overthrow reward of Cthulhu Rises).
    """

    winner: int | None
    reason: RiteEnd
    may_trade_artifact: bool = False


def here(d: Decision[RitesState]) -> tuple[Tabletop, Any]:
    """The table and the current rite's own state in the position the decision ``d`` has reached."""
    stage = d.state.stage
    assert isinstance(stage, Performing), "a rite decides only while it is performed"
    return d.state.table, stage.rite


def _nothing(d: Decision[RitesState]) -> None:
    """No deal adjustment, no move the rite makes by itself."""


def _keeps_nothing(table: Tabletop, state: Any) -> frozenset[int]:
    """No card must stay in its hand."""
    return frozenset()


def _no_check(table: Tabletop, state: Any) -> None:
    """No consistency rule of the rite's own beyond card conservation (which the game checks)."""


def _pile_size(table: Tabletop, state: Any) -> int:
    """A draw reaches the pile only."""
    return len(table.pile)


@dataclass(frozen=True)
class Rite:
    """One rite. ``initial`` is its state when the Grand Cultist picks it; ``begin`` its deal adjustments (set
    cards aside, re-deal, lay out walls or graves; every random result recorded as event data); ``settle`` the
    moves it makes by itself after every command (close a gate whose last players ran out of cards), called
    until it emits nothing; ``result`` its end, checked after every command; ``cards`` every entity card its
    state holds (for conservation). ``resample`` redistributes everything a seat cannot know;
    ``resample_unrevealable`` (where other seats' moves can show a seat something of the rite's own; else
    ``resample``) only what no single move of another seat can show it (see ``views.py``); both leave the cards in
    ``keep`` where they are.
    ``timeout_command`` is what the turn timer plays for a silent seat the rite waits on: what the rulebook implies
    (decline an option, pass a knock), else one of its legal commands at random; it reads only what that seat may
    know."""

    id: str
    title: str
    summary: str
    privilege: str
    commands: Mapping[str, type[Command]]
    facts: tuple[type[Fact], ...]
    state_types: tuple[type, ...]
    initial: Callable[[Tabletop], Any]
    to_act: Callable[[Tabletop, Any], frozenset[int]]
    legal_commands: Callable[[Tabletop, Any, int], list[Command]]
    """Empty for a seat ``to_act`` does not list: the game asks it of any seat without asking ``to_act`` first."""
    decide: Callable[[Decision[RitesState], Command, int], None]
    evolve: Callable[[Tabletop, Any, Fact], tuple[Tabletop, Any]]
    result: Callable[[Tabletop, Any], RiteResult | None]
    view: Callable[[Tabletop, Any, Viewer], dict[str, Any]]
    cards: Callable[[Any], tuple[int, ...]]
    resample: Callable[[Tabletop, Any, int, random.Random, frozenset[int]], tuple[Tabletop, Any]]
    timeout_command: Callable[[Tabletop, Any, int, random.Random], Command]
    resample_unrevealable: Callable[[Tabletop, Any, int, random.Random, frozenset[int]], tuple[Tabletop, Any]] | None = None
    begin: Callable[[Decision[RitesState]], None] = _nothing
    settle: Callable[[Decision[RitesState]], None] = _nothing
    keeps_in_hand: Callable[[Tabletop, Any], frozenset[int]] = _keeps_nothing
    """Cards that may not leave a hand now except by being played (Cthulhu in the first gate of Cthulhu Rises): no
    artifact sets them aside or forces them, and a forced trade is not answered with them unless nothing else is
    left."""
    invariant: Callable[[Tabletop, Any], None] = _no_check
    draws_replacements: bool = True
    """False where power-plays draw no replacements (Out of the Aeons deals out every card)."""
    revealed_by_begin: frozenset[int] = frozenset()
    """Cards whose place choosing this rite makes public (the Dunwich twins, handed over from hands)."""
    narrator: Narrator = field(default_factory=Narrator)
    """The rite's own events in words (its ``narration.py``, beside its views)."""
    replacement_draw: Callable[[Decision[RitesState], int, int], int] = draw
    """How cards come into a hand outside the rite's own moves (a power-play's replacements, the Lamp, the Drug):
    ``(d, seat, count) -> drawn``, from the pile, fewer if it runs short; The Dunwich Horror reshuffles its
    discards when the pile runs out, as its own draws do."""
    drawable: Callable[[Tabletop, Any], int] = _pile_size
    """How many cards ``replacement_draw`` can reach (the pile; with The Dunwich Horror's discards too)."""
    not_moves: tuple[type[Fact], ...] = ()
    """Facts the rite emits by itself that are no cultist's move (Out of the Aeons turning its first yellow card
    over): they do not close the window of a "before" artifact's second invocation (``Tabletop.moves``)."""
    simulate: Callable[[Tabletop, Any, Command, int], tuple[Tabletop, Any, int] | None] | None = None
    """The AI's playouts' fast path for a rite move the rite itself listed (``AiHooks.simulate``, the game's
    ``simulate.py``): ``(table, state, command, seat) -> (table, state, moves)``, what ``decide`` and the folds of
    its facts leave (``moves``: how many of them were cultists' moves), without a ``Decision`` or the checks, and
    settled as ``settle`` settles it; or ``None`` to leave the command to ``decide``."""

    @property
    def settles(self) -> bool:
        """Does the rite make moves by itself after a command (a ``settle`` of its own)?"""
        return self.settle is not _nothing


# -- commands several rites share (one command name, one record across the game) -----------------------------------


@dataclass(frozen=True, slots=True)
class DrawCard(Command, type="draw_card"):
    """Draw one card from the entities pile. The Tree on the Hill and At the Mountains of Madness ("The Play"):
    only when no card of your hand can be played, and you may then play the drawn card. The Dunwich Horror ("The
    Deal"): a cultist who handed a twin over draws her hand back to 5 before the first turn."""


@dataclass(frozen=True, slots=True)
class EndTurn(Command, type="end_turn"):
    """End your turn. The Tree on the Hill and At the Mountains of Madness ("The Play"): after drawing, or (Mountains)
    after playing at least one card. The Dunwich Horror: only when you can neither reveal, capture nor discard two
    (a project ruling), drawing back to 5."""
