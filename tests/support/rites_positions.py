"""Fixed positions as event lists, for scenario tests and rulebook examples (no randomness).

``position(players=4, grand_cultist=0, hands={0: [...], ...}, pile=[...], rite="cthulhu_rises")`` returns the
events of a game whose current rite has just begun with exactly those hands and that pile order (top first);
cards named nowhere go to the bottom of the pile
(or are set aside unseen with ``fill_pile=False``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from shared.kernel import Event, ev
from shared.games.rites_of_cthulhu.cards import entity
from shared.games.rites_of_cthulhu.cards import DECK_SIZE


def ids(cards: Iterable[int | str]) -> list[int]:
    return [entity(c) if isinstance(c, str) else c for c in cards]


def position(players: int, grand_cultist: int, hands: Mapping[int, Iterable[int | str]], pile: Iterable[int | str] = (),
             rite: str | None = None, artifacts: Iterable[int] = (), rites_total: int = 3,
             begin: Iterable[Event] = (), before: Iterable[Event] = (), fill_pile: bool = True) -> list[Event]:
    """Events for a game at the start of a rite (or at the choice of the rite when ``rite`` is None).

    ``before`` are events folded right after the game starts (earlier rites' results, captured artifacts);
    ``begin`` replaces the rite's deal adjustments; ``artifacts`` are excavated as Coveted Artifacts (their
    immediate powers are not applied: add those events to ``begin`` when a test needs them).
    """
    dealt = {s: ids(hands.get(s, ())) for s in range(players)}
    top = ids(pile)
    named = [c for h in dealt.values() for c in h] + top
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [c for c in range(DECK_SIZE) if c not in named]
    order = [c for s in range(players) for c in dealt[s]] + (top + rest if fill_pile else rest + top)
    events = [ev("game_started", players=players, rites_total=rites_total), *before,
              ev("grand_cultist_chosen", seat=grand_cultist), ev("entities_shuffled", order=order, secret={"order": []})]
    events += [ev("cards_drawn", seat=s, cards=dealt[s], secret={"cards": [s]}) for s in range(players) if dealt[s]]
    if not fill_pile:  # only the named pile: every other card is set aside unseen
        events.append(ev("pile_cards_set_aside", cards=rest, secret={"cards": []}))
    if rite is None:
        return events
    events.append(ev("rite_chosen", rite=rite))
    events += list(begin)
    events += [ev("artifact_excavated", artifact=a, seat=None) for a in artifacts]
    events.append(ev("rite_begun", rite=rite))
    return events


def rite_begin(state, rite: str) -> list[Event]:
    """The events of ``rite``'s own deal adjustments in ``state`` (just after ``rite_chosen``)."""
    from shared.games.rites_of_cthulhu import GAME
    from shared.games.rites_of_cthulhu.rites import RITES
    from shared.kernel import Decision

    decision = Decision(state, GAME.decider.evolve, bytes(32))
    RITES[rite].begin(decision)
    return decision.events


REDEALT = [53, 44, 55, 5, 45, 51, 35, 7, 23, 20, 1, 36, 39, 12, 0, 38, 14, 52, 47, 41, 33, 29, 42, 11, 3, 17, 15, 10,
           21, 27, 28, 4, 43, 46, 9, 34, 50, 6, 40, 18, 8, 49, 13, 37, 22, 30, 19, 25, 31, 32, 16, 2, 26, 48, 24, 54]
"""The order the scenarios' entropy (``bytes(32)``) shuffles the 56 entities into when a decision's first draw of
randomness is the next rite's deal (a rite's last move, a seized Grand Cultist's seat)."""


def dealt_again(players: int) -> list[Event]:
    """The next rite's deal (Performing Rites: "The Grand Cultist shuffles the entities deck and deals 5 cards to each
    player"): the whole deck in ``REDEALT``'s order, seen by nobody, then 5 cards to each cultist, seat 0 first."""
    hands = [ev("cards_drawn", seat=s, cards=REDEALT[5 * s:5 * s + 5], secret={"cards": [s]}) for s in range(players)]
    return [ev("entities_shuffled", order=REDEALT, secret={"order": []}), *hands]
