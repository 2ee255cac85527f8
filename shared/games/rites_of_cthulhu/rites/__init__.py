"""The rite registry: every implemented rite, by id, in tablet order.

Adding a rite: write ``rites/<name>.py`` (a ``Rite`` subclass, see ``rites/base.py``) and add one line below.
The Grand Cultist picks among the registered rites not yet played this game.
"""

from __future__ import annotations

from shared.games.rites_of_cthulhu.rites.base import Rite

RITES: dict[str, Rite] = {}


def register(rite: Rite) -> None:
    RITES[rite.id] = rite


def _load() -> None:
    from shared.games.rites_of_cthulhu.rites.cthulhu_rises import CthulhuRises
    from shared.games.rites_of_cthulhu.rites.dunwich_horror import DunwichHorror
    from shared.games.rites_of_cthulhu.rites.mountains_of_madness import MountainsOfMadness
    from shared.games.rites_of_cthulhu.rites.out_of_the_aeons import OutOfTheAeons
    from shared.games.rites_of_cthulhu.rites.the_hound import TheHound
    from shared.games.rites_of_cthulhu.rites.tree_on_the_hill import TreeOnTheHill

    for rite in (CthulhuRises(), TreeOnTheHill(), MountainsOfMadness(), DunwichHorror(), OutOfTheAeons(), TheHound()):
        register(rite)


_load()
