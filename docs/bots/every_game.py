"""One bot for every game: each game's own ``choose``, by the game's id (``mythos bot run docs/bots/every_game.py:BOT``)."""

import arkham_ritual
import great_old_one
import pocket_madness
import rise_of_cthulhu
import rites_of_cthulhu

BOT = {"pocket-madness": pocket_madness.choose, "arkham-ritual": arkham_ritual.choose,
       "rise-of-cthulhu": rise_of_cthulhu.choose, "great-old-one": great_old_one.choose,
       "rites-of-cthulhu": rites_of_cthulhu.choose}
