"""Arkham Ritual (Hiroki Kasawa, Ninja Star Games 2017) for 3 to 7 players.

Rulebook: ``shared/rulebooks/arkham-ritual.md``; rulings: ``docs/rulings/arkham-ritual.md``. Each seat sees
every held card except its own; the card being passed is seen only by the Active Player who drew it.
"""

from shared.kernel import Game, Option
from shared.games.arkham_ritual import cards, rules
from shared.games.arkham_ritual.state import STATE_TYPES

OPTIONS = {
    "event_card": Option(
        "choice", "magical_orb", "Section 9: the fourth Event card, Magical Orb or Shining Trapezohedron.",
        choices=cards.GROUPS["event_card"],
    ),
    "investigator_or_wary_student": Option(
        "choice", "investigator", "Section 9: the first Character card, Investigator or Wary Student.",
        choices=cards.GROUPS["investigator_or_wary_student"],
    ),
    "cultist_or_mad_professor": Option(
        "choice", "cultist", "Section 9: the second Character card, Cultist or Mad Professor.",
        choices=cards.GROUPS["cultist_or_mad_professor"],
    ),
    "great_old_one": Option(
        "choice", "cthulhu", "Section 9: the Great Old One in the deck.", choices=cards.GROUPS["great_old_one"]
    ),
    "doom_track": Option(
        "bool", False, "Section 13: losses follow the Doom Track (1, 2, 3, ... one spot further each round)."
    ),
    "competitive": Option(
        "bool", False, "Section 8 variant: only the player(s) with the most Sanity left win."
    ),
}

GAME = Game(
    id="arkham-ritual",
    title="Arkham Ritual",
    min_players=3,
    max_players=7,
    rules_version="arkham-ritual/1",
    setup=rules.setup,
    decide=rules.decide,
    evolve=rules.evolve,
    legal_commands=rules.legal_commands,
    to_act=rules.to_act,
    view=rules.view,
    outcome=rules.outcome,
    resample=rules.resample,
    resample_unrevealable=rules.resample_unrevealable,
    invariant=rules.invariant,
    commands=rules.COMMANDS,
    state_types=STATE_TYPES,
    options=OPTIONS,
    card_data=cards.CARD_DATA,
)

__all__ = ["GAME"]
