"""Out of the Aeons (rulebook "Out of the Aeons", p. 41): bid one sealed card at a time for the 14 Brotherhood of
the Kings cards; the highest elder sign takes the card, ties discard it; the most captured points wins."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.commands import COMMANDS
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.events import FACTS, YellowCardRevealed
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.narration import NARRATOR
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.state import STATE_TYPES
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.rules import (
    begin, decide, evolve, initial, legal_commands, result, settle, simulate, timeout_command, to_act,
)
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons.views import (
    cards, invariant, resample, resample_unrevealable, view,
)

RITE = Rite(
    id="out_of_the_aeons",
    title="Out of the Aeons",
    summary=(
        "Bid one sealed card at a time for the 14 Brotherhood of the Kings cards; the highest elder sign takes the "
        "card, ties discard it. Most captured points wins; The Book of Azathoth doubles another captured card."
    ),
    privilege="Reveals the yellow cards and may discard one revealed card before the bidding, once this rite.",
    draws_replacements=False,
    not_moves=(YellowCardRevealed,),
    commands=COMMANDS,
    facts=FACTS,
    narrator=NARRATOR,
    state_types=STATE_TYPES,
    initial=initial, to_act=to_act, legal_commands=legal_commands, decide=decide, evolve=evolve, result=result,
    begin=begin, settle=settle, timeout_command=timeout_command,
    view=view, cards=cards, resample=resample, resample_unrevealable=resample_unrevealable, invariant=invariant,
    simulate=simulate,
)
