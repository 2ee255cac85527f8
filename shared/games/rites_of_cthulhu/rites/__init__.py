"""The rite registry: every rite, by id, in tablet order.

Adding a rite: write ``rites/<name>/`` in the shape of the others (``rites/base.py`` says what a ``Rite`` is)
and add it below. The Grand Cultist picks among the registered rites not yet played this game.
"""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite
from shared.games.rites_of_cthulhu.rites.cthulhu_rises import RITE as CTHULHU_RISES
from shared.games.rites_of_cthulhu.rites.dunwich_horror import RITE as DUNWICH_HORROR
from shared.games.rites_of_cthulhu.rites.mountains_of_madness import RITE as MOUNTAINS_OF_MADNESS
from shared.games.rites_of_cthulhu.rites.out_of_the_aeons import RITE as OUT_OF_THE_AEONS
from shared.games.rites_of_cthulhu.rites.the_hound import RITE as THE_HOUND
from shared.games.rites_of_cthulhu.rites.tree_on_the_hill import RITE as TREE_ON_THE_HILL

RITES: dict[str, Rite] = {
    rite.id: rite
    for rite in (CTHULHU_RISES, TREE_ON_THE_HILL, MOUNTAINS_OF_MADNESS, DUNWICH_HORROR, OUT_OF_THE_AEONS, THE_HOUND)
}
