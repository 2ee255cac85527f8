"""Arkham Ritual (Hiroki Kasawa, Ninja Star Games 2017) for 3 to 7 players.

Rulebook: ``shared/rulebooks/arkham-ritual.md``; rulings: ``docs/rulings/arkham-ritual.md``. Each seat sees
every held card except its own; the card being passed is seen only by the Active Player who drew it.
"""

from __future__ import annotations

from shared.kernel import AiHooks, Catalogue, Decider, Game, Option

from shared.games.arkham_ritual.cards import CARD_DATA, GROUPS, MAX_PLAYERS, MIN_PLAYERS
from shared.games.arkham_ritual.commands import COMMANDS
from shared.games.arkham_ritual.events import FACTS
from shared.games.arkham_ritual.narration import NARRATOR
from shared.games.arkham_ritual.shapes import SHAPES
from shared.games.arkham_ritual.policy import playout_value
from shared.games.arkham_ritual.rules import decide, evolve, legal_commands, outcome, setup, to_act, winners_among
from shared.games.arkham_ritual.simulate import simulate
from shared.games.arkham_ritual.state import STATE_TYPES, GameEnd
from shared.games.arkham_ritual.views import invariant, resample, resample_unrevealable, view

OPTIONS = {
    "event_card": Option(
        "choice", "magical_orb", "Section 9: the fourth Event card, Magical Orb or Shining Trapezohedron.",
        choices=GROUPS["event_card"],
    ),
    "investigator_or_wary_student": Option(
        "choice", "investigator", "Section 9: the first Character card, Investigator or Wary Student.",
        choices=GROUPS["investigator_or_wary_student"],
    ),
    "cultist_or_mad_professor": Option(
        "choice", "cultist", "Section 9: the second Character card, Cultist or Mad Professor.",
        choices=GROUPS["cultist_or_mad_professor"],
    ),
    "great_old_one": Option(
        "choice", "cthulhu", "Section 9: the Great Old One in the deck.", choices=GROUPS["great_old_one"]
    ),
    "doom_track": Option(
        "bool", False, "Section 13: losses follow the Doom Track (1, 2, 3, ... one spot further each round)."
    ),
    "competitive": Option("bool", False, "Section 8 variant: only the player(s) with the most Sanity left win."),
}

GAME = Game(
    id="arkham-ritual",
    rules_version="arkham-ritual/2",
    decider=Decider(
        setup=setup, decide=decide, evolve=evolve, legal_commands=legal_commands, to_act=to_act, view=view,
        outcome=outcome, winners_among=winners_among, invariant=invariant, reasons=GameEnd, state_types=STATE_TYPES, facts=FACTS,
    ),
    catalogue=Catalogue(
        narrator=NARRATOR, shapes=SHAPES,
        title="Arkham Ritual", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS, commands=COMMANDS, options=OPTIONS,
        card_data=CARD_DATA,
    ),
    ai=AiHooks(resample=resample, resample_unrevealable=resample_unrevealable, playout_value=playout_value,
               simulate=simulate),
)

__all__ = ["GAME"]
