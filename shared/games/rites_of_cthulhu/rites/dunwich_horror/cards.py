"""The Dunwich Horror's cards (rulebook "Dunwich Horror", p. 29): the twin brothers and their farmhouse walls."""

from __future__ import annotations

from shared.games.rites_of_cthulhu.cards import entity

WILBUR = entity("Wilbur Whateley")
HORROR = entity("The Dunwich Horror")
TWINS = (WILBUR, HORROR)
WALLS_PER_TWIN = 4
""""Build the farmhouse walls by surrounding each brother with 4 random cards face down"."""


def twin_of(slot: int) -> int:
    """The twin whose farmhouse wall slot ``slot`` belongs to (slots 0-3 Wilbur, 4-7 The Dunwich Horror)."""
    return TWINS[slot // WALLS_PER_TWIN]
