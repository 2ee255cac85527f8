"""Card data for Cthulhu: The Great Old One, Elder Edition: the whole deck, designed by the project.

The rulebook (``shared/rulebooks/cthulhu-the-great-old-one.txt``) gives the card types but not the card list,
so every card here is ``"source": "project"`` (see ``docs/rulings/great-old-one.md``, "The deck"):

- 36 Story cards, two copies each (72 cards). Each story belongs to exactly two named Story Connections,
  and each Story Connection joins exactly three stories, so every story is linked to four others. Two copies
  of one story are a Matched pair (naming both of the story's connections); two different stories that share
  a connection are a Linked pair (naming that connection).
- 15 Horror cards, each naming one Story Connection and carrying an effect that happens when it is played.
- 10 Sign cards (five Signs, two copies each) with an effect, playable at any time during any turn.
- The Cultist and the Great Old One.

99 cards: six players dealt nine each and three Story cards in the centre leave a draw pile of 42.
Card ids are positions in ``CARDS``. An owner of the physical cards can replace this data without touching
the rules, as long as the shape stays the same.
"""

from __future__ import annotations

from enum import StrEnum
from itertools import combinations
from typing import Any

SOURCE = "project"

HAND_SIZE = 9  # To Begin 1: "deal 9 cards to each player"
CENTRE_SIZE = 3  # To Begin 2: "the top 3 Story cards"
PAIRS_TO_END = 7  # How To Win: "their 7th pair"
SCORE_MATCHED, SCORE_LINKED, SCORE_HORROR, SCORE_CULTIST = 2, 1, 1, -1  # How To Win: the tally
COPIES_OF_A_STORY = 2  # Story Cards: "There are two of each Story card in the deck"


class Kind(StrEnum):
    STORY = "story"
    HORROR = "horror"
    SIGN = "sign"
    CULTIST = "cultist"
    GREAT_OLD_ONE = "great_old_one"


class Effect(StrEnum):
    """What a Horror or a Sign does when it is played (project card text: the rulebook's panels are blank)."""

    DRAW_TWO = "draw_two"
    TAKE_RANDOM = "take_random"
    GIVE_CHOSEN = "give_chosen"
    SWAP_CENTRE = "swap_centre"
    RETURN_HORROR = "return_horror"
    WARD = "ward"

STORIES: tuple[tuple[str, str, int], ...] = (
    ("the-call-of-cthulhu", "The Call of Cthulhu", 1928),
    ("the-shadow-over-innsmouth", "The Shadow over Innsmouth", 1936),
    ("dagon", "Dagon", 1919),
    ("the-temple", "The Temple", 1925),
    ("at-the-mountains-of-madness", "At the Mountains of Madness", 1936),
    ("the-dunwich-horror", "The Dunwich Horror", 1929),
    ("herbert-west-reanimator", "Herbert West–Reanimator", 1922),
    ("the-festival", "The Festival", 1925),
    ("the-hound", "The Hound", 1924),
    ("the-nameless-city", "The Nameless City", 1921),
    ("the-case-of-charles-dexter-ward", "The Case of Charles Dexter Ward", 1941),
    ("the-silver-key", "The Silver Key", 1929),
    ("the-shadow-out-of-time", "The Shadow out of Time", 1936),
    ("the-whisperer-in-darkness", "The Whisperer in Darkness", 1931),
    ("the-colour-out-of-space", "The Colour out of Space", 1927),
    ("the-haunter-of-the-dark", "The Haunter of the Dark", 1936),
    ("nyarlathotep", "Nyarlathotep", 1920),
    ("the-dreams-in-the-witch-house", "The Dreams in the Witch House", 1933),
    ("the-thing-on-the-doorstep", "The Thing on the Doorstep", 1937),
    ("pickmans-model", "Pickman's Model", 1927),
    ("the-dream-quest-of-unknown-kadath", "The Dream-Quest of Unknown Kadath", 1943),
    ("the-statement-of-randolph-carter", "The Statement of Randolph Carter", 1920),
    ("celephais", "Celephaïs", 1922),
    ("the-doom-that-came-to-sarnath", "The Doom That Came to Sarnath", 1920),
    ("the-rats-in-the-walls", "The Rats in the Walls", 1924),
    ("the-lurking-fear", "The Lurking Fear", 1923),
    ("the-shunned-house", "The Shunned House", 1937),
    ("the-picture-in-the-house", "The Picture in the House", 1921),
    ("the-music-of-erich-zann", "The Music of Erich Zann", 1922),
    ("the-outsider", "The Outsider", 1926),
    ("the-cats-of-ulthar", "The Cats of Ulthar", 1920),
    ("the-white-ship", "The White Ship", 1919),
    ("the-strange-high-house-in-the-mist", "The Strange High House in the Mist", 1931),
    ("from-beyond", "From Beyond", 1934),
    ("the-tomb", "The Tomb", 1922),
    ("the-horror-at-red-hook", "The Horror at Red Hook", 1927),
)
"""(key, title, year of first publication) of every story; each has two copies in the deck."""

CONNECTIONS: tuple[tuple[str, str, tuple[str, str, str]], ...] = (
    ("esoteric-order-of-dagon", "The Esoteric Order of Dagon", ("the-shadow-over-innsmouth", "dagon", "the-temple")),
    ("great-cthulhu", "Great Cthulhu", ("the-call-of-cthulhu", "dagon", "at-the-mountains-of-madness")),
    ("miskatonic-university", "Miskatonic University", ("the-dunwich-horror", "at-the-mountains-of-madness", "herbert-west-reanimator")),
    ("the-necronomicon", "The Necronomicon", ("the-festival", "the-hound", "the-nameless-city")),
    ("yog-sothoth", "Yog-Sothoth", ("the-dunwich-horror", "the-case-of-charles-dexter-ward", "the-silver-key")),
    ("the-great-race", "The Elder Races", ("the-shadow-out-of-time", "the-whisperer-in-darkness", "the-nameless-city")),
    ("out-of-the-sky", "Out of the Sky", ("the-colour-out-of-space", "the-whisperer-in-darkness", "the-haunter-of-the-dark")),
    ("the-crawling-chaos", "The Crawling Chaos", ("nyarlathotep", "the-haunter-of-the-dark", "the-dreams-in-the-witch-house")),
    ("witch-haunted-arkham", "Witch-Haunted Arkham", ("the-dreams-in-the-witch-house", "the-thing-on-the-doorstep", "the-colour-out-of-space")),
    ("the-stolen-body", "The Stolen Body", ("the-thing-on-the-doorstep", "the-case-of-charles-dexter-ward", "herbert-west-reanimator")),
    ("ghouls", "Ghouls", ("pickmans-model", "the-hound", "the-dream-quest-of-unknown-kadath")),
    ("randolph-carter", "Randolph Carter", ("the-statement-of-randolph-carter", "the-silver-key", "the-dream-quest-of-unknown-kadath")),
    ("the-dreamlands", "The Dreamlands", ("celephais", "the-doom-that-came-to-sarnath", "nyarlathotep")),
    ("cities-lost-to-time", "Cities Lost to Time", ("the-doom-that-came-to-sarnath", "the-temple", "the-shadow-out-of-time")),
    ("tainted-blood", "Tainted Blood", ("the-rats-in-the-walls", "the-lurking-fear", "the-shadow-over-innsmouth")),
    ("cursed-houses", "Cursed Houses", ("the-shunned-house", "the-picture-in-the-house", "the-rats-in-the-walls")),
    ("mad-artists", "Mad Artists", ("pickmans-model", "the-music-of-erich-zann", "the-call-of-cthulhu")),
    ("charnel-secrets", "Charnel Secrets", ("the-statement-of-randolph-carter", "the-picture-in-the-house", "the-outsider")),
    ("beyond-the-veil", "Beyond the Veil", ("celephais", "the-music-of-erich-zann", "the-outsider")),
    ("old-new-england", "Old New England", ("the-festival", "the-shunned-house", "the-lurking-fear")),
    ("voyages-in-dream", "Voyages in Dream", ("the-cats-of-ulthar", "the-white-ship", "the-strange-high-house-in-the-mist")),
    ("eyes-that-see-beyond", "Eyes That See Beyond", ("the-cats-of-ulthar", "from-beyond", "the-tomb")),
    ("other-spheres", "Other Spheres", ("the-white-ship", "from-beyond", "the-horror-at-red-hook")),
    ("forbidden-revels", "Forbidden Revels", ("the-strange-high-house-in-the-mist", "the-tomb", "the-horror-at-red-hook")),
)
"""(key, name, the three stories it links) of every Story Connection."""

EFFECTS: dict[Effect, str] = {
    Effect.DRAW_TWO: "Draw two cards from the deck (as many as it holds).",
    Effect.TAKE_RANDOM: "Take a card at random from the hand of an opponent of your choice whose hand is not warded.",
    Effect.GIVE_CHOSEN: "Give a card of your choice from your hand to an opponent of your choice.",
    Effect.SWAP_CENTRE: "Switch a Story card from your hand with a Story card in the centre.",
    Effect.RETURN_HORROR: "Return a Horror card in an opponent's play area to that opponent's hand.",
    Effect.WARD: "Until the start of your next turn, no card can be taken from your hand.",
}
"""Every effect a Horror or Sign card can carry, with its card text."""

HORRORS: tuple[tuple[str, str, Effect, str], ...] = (
    ("Deep One", "esoteric-order-of-dagon", Effect.TAKE_RANDOM, "They croaked and bleated and barked in the hideous voices of the deep."),
    ("Star-Spawn of Cthulhu", "great-cthulhu", Effect.DRAW_TWO, "The Thing cannot be described."),
    ("Shoggoth", "miskatonic-university", Effect.RETURN_HORROR, "Tekeli-li! Tekeli-li!"),
    ("Wilbur's Twin", "yog-sothoth", Effect.GIVE_CHOSEN, "It looked more like the father than Wilbur did."),
    ("Yithian", "the-great-race", Effect.SWAP_CENTRE, "Minds that had crossed the gulfs of time."),
    ("Mi-Go", "out-of-the-sky", Effect.TAKE_RANDOM, "The things come from another planet."),
    ("The Haunter of the Dark", "the-crawling-chaos", Effect.GIVE_CHOSEN, "I am it and it is I."),
    ("Brown Jenkin", "witch-haunted-arkham", Effect.TAKE_RANDOM, "The thing had nuzzled him in the dark."),
    ("The Reanimated", "the-stolen-body", Effect.DRAW_TWO, "The awful thing had risen again."),
    ("Ghoul", "ghouls", Effect.TAKE_RANDOM, "Their rubbery limbs and meeping speech."),
    ("Gug", "randolph-carter", Effect.RETURN_HORROR, "A paw two feet and a half across."),
    ("Nightgaunt", "the-dreamlands", Effect.GIVE_CHOSEN, "Faceless, they tickle and carry away."),
    ("The Martense Kin", "tainted-blood", Effect.DRAW_TWO, "Degenerate, burrowing, and hungry."),
    ("The Rats of Exham Priory", "cursed-houses", Effect.SWAP_CENTRE, "The scurrying of the rats behind the walls."),
    ("The Winged Hound", "the-necronomicon", Effect.DRAW_TWO, "The baying of some gigantic hound."),
)
"""(name, Story Connection it names, effect, story excerpt) of every Horror card."""

SIGNS: tuple[tuple[str, Effect, int], ...] = (
    ("The Elder Sign", Effect.WARD, 2),
    ("The Voorish Sign", Effect.DRAW_TWO, 2),
    ("The Sign of Koth", Effect.TAKE_RANDOM, 2),
    ("The Yellow Sign", Effect.GIVE_CHOSEN, 2),
    ("The Sign of Kish", Effect.RETURN_HORROR, 2),
)
"""(name, effect, copies) of every Sign."""

STORY_KEYS: tuple[str, ...] = tuple(key for key, _, _ in STORIES)
STORY_CONNECTIONS: dict[str, tuple[str, ...]] = {
    key: tuple(sorted(conn for conn, _, members in CONNECTIONS if key in members)) for key in STORY_KEYS
}


def _build() -> tuple[dict[str, Any], ...]:
    cards: list[dict[str, Any]] = []
    for key, title, year in STORIES:
        for copy in range(1, COPIES_OF_A_STORY + 1):
            links = sorted({other for conn, _, members in CONNECTIONS if key in members for other in members} - {key})
            cards.append(
                {
                    "id": len(cards), "kind": Kind.STORY, "story": key, "name": title, "year": year, "copy": copy,
                    "connections": list(STORY_CONNECTIONS[key]), "linked": links, "source": SOURCE,
                }
            )
    for name, connection, effect, excerpt in HORRORS:
        cards.append(
            {
                "id": len(cards), "kind": Kind.HORROR, "name": name, "connection": connection, "effect": effect,
                "text": EFFECTS[effect], "excerpt": excerpt, "source": SOURCE,
            }
        )
    for name, effect, copies in SIGNS:
        for _ in range(copies):
            cards.append({"id": len(cards), "kind": Kind.SIGN, "name": name, "effect": effect, "text": EFFECTS[effect], "source": SOURCE})
    cards.append(
        {
            "id": len(cards), "kind": Kind.CULTIST, "name": "The Cultist", "source": SOURCE,
            "text": "Worth -1 point in your play area; wins the game with the Great Old One in your hand.",
        }
    )
    cards.append(
        {
            "id": len(cards), "kind": Kind.GREAT_OLD_ONE, "name": "The Great Old One", "source": SOURCE,
            "text": "If it is in your hand when the game ends you lose, unless the Cultist is in your play area: then you win.",
        }
    )
    return tuple(cards)


CARDS: tuple[dict[str, Any], ...] = _build()
DECK_SIZE = len(CARDS)
STORY_OF: tuple[str | None, ...] = tuple(c.get("story") for c in CARDS)
EFFECT_OF: tuple[Effect | None, ...] = tuple(c.get("effect") for c in CARDS)
HORROR_CONNECTION: tuple[str | None, ...] = tuple(c.get("connection") for c in CARDS)
CULTIST = next(c["id"] for c in CARDS if c["kind"] is Kind.CULTIST)
GREAT_OLD_ONE = next(c["id"] for c in CARDS if c["kind"] is Kind.GREAT_OLD_ONE)
STORY_CARDS: frozenset[int] = frozenset(c["id"] for c in CARDS if c["kind"] is Kind.STORY)
HORROR_CARDS: frozenset[int] = frozenset(c["id"] for c in CARDS if c["kind"] is Kind.HORROR)
SIGN_CARDS: frozenset[int] = frozenset(c["id"] for c in CARDS if c["kind"] is Kind.SIGN)


def _pair(a: int, b: int) -> tuple[bool, tuple[str, ...]] | None:
    """Story Cards: a Matched pair (two copies) names both connections; a Linked pair names the ones shared."""
    sa, sb = STORY_OF[a], STORY_OF[b]
    if a == b or sa is None or sb is None:
        return None
    if sa == sb:
        return True, STORY_CONNECTIONS[sa]
    shared = tuple(sorted(set(STORY_CONNECTIONS[sa]) & set(STORY_CONNECTIONS[sb])))
    return (False, shared) if shared else None


# Every two cards that make a pair, worked out once: legal commands, views and the AI's playouts ask at every position.
_PAIRS: dict[tuple[int, int], tuple[bool, tuple[str, ...]]] = {
    (a, b): pair for a in range(DECK_SIZE) for b in range(DECK_SIZE) if (pair := _pair(a, b)) is not None
}


def pair_connections(a: int, b: int) -> tuple[bool, tuple[str, ...]] | None:
    """Story Cards: a Matched pair (two copies) names both connections; a Linked pair names the ones shared."""
    return _PAIRS.get((a, b))


# Each card's partners above it (a bit for each card ``b > a`` it makes a pair with): a hand's pairs by bit arithmetic
_ABOVE: tuple[int, ...] = tuple(sum(1 << b for b in range(a + 1, DECK_SIZE) if (a, b) in _PAIRS) for a in range(DECK_SIZE))


def pairs_in(hand: tuple[int, ...]) -> list[tuple[int, int]]:
    """Every pair in a (sorted) hand, in ``combinations(hand, 2)`` order: the lower card first."""
    held = 0
    for c in hand:
        held |= 1 << c
    out = []
    for a in hand:
        partners = _ABOVE[a] & held
        while partners:
            low = partners & -partners
            out.append((a, low.bit_length() - 1))
            partners ^= low
    return out


def pair_count(hand: tuple[int, ...]) -> int:
    """How many pairs ``pairs_in(hand)`` lists."""
    held = 0
    for c in hand:
        held |= 1 << c
    return sum((_ABOVE[a] & held).bit_count() for a in hand)


def _check() -> None:
    assert len(set(STORY_KEYS)) == len(STORY_KEYS)
    assert all(len(STORY_CONNECTIONS[k]) == 2 for k in STORY_KEYS), "every story belongs to two connections"
    keys = {conn for conn, _, _ in CONNECTIONS}
    assert all(conn in keys for _, conn, _, _ in HORRORS)
    assert len({conn for _, conn, _, _ in HORRORS}) == len(HORRORS), "one Horror per connection at most"
    for x, y in combinations(STORY_KEYS, 2):
        assert len(set(STORY_CONNECTIONS[x]) & set(STORY_CONNECTIONS[y])) <= 1, (x, y)


_check()

CARD_DATA: dict[str, Any] = {
    "cards": list(CARDS),
    "stories": [{"key": k, "name": n, "year": y, "connections": list(STORY_CONNECTIONS[k]), "source": SOURCE} for k, n, y in STORIES],
    "connections": [{"key": k, "name": n, "stories": list(m), "source": SOURCE} for k, n, m in CONNECTIONS],
    "effects": {effect.value: text for effect, text in EFFECTS.items()},
    "scoring": {"matched_pair": SCORE_MATCHED, "linked_pair": SCORE_LINKED, "horror": SCORE_HORROR, "cultist": SCORE_CULTIST},
}
