"""Rise of Cthulhu's rules: setup, decide, evolve, the seats the game waits on, legal commands and the outcome.

Rulebook: ``shared/rulebooks/rise-of-cthulhu.md``; rulings: ``docs/rulings/rise-of-cthulhu.md``. A turn is two
actions, each a draw (Cultist Deck or Valley) or a play (a Location or the Valley); Monsters and Artifacts are
free plays in between. Drawing an Old One wakes it; its influencing player resolves its power, then the drawer
draws again. Three Old Ones awake end the game. The actions are in ``actions.py``, the card powers in
``powers.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from shared.kernel import Command, Decided, Decision, Event, Outcome, interned, replace, replace_at, rng, RuleViolation
from shared.kernel.errors import require

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.actions import (
    colour_counts,
    draw_card,
    finish,
    forced_draw,
    play_cultist,
    play_to_valley,
    valley_accepts,
)
from shared.games.rise_of_cthulhu.cards import ARTIFACTS, CULTISTS, LOCATIONS, MONSTERS, OLD_ONE_SLOT, OLD_ONES
from shared.games.rise_of_cthulhu.commands import (
    DrawCard, DrawOwedCards, PlayArtifact, PlayCultist, PlayMonster, PlayToValley, ResolvePower,
)
from shared.games.rise_of_cthulhu.events import (
    FACTS,
    ArtifactDrawn,
    ArtifactPlayed,
    CardDrawn,
    CardsDealt,
    CultistCrossed,
    CultistDestroyed,
    CultistMoved,
    CultistPlayed,
    CultistSentToValley,
    DrawsOwed,
    ExtraActionGained,
    GameSetUp,
    HunterMoved,
    MonsterDrawn,
    MonsterPlayed,
    OldOneAwakened,
    PowerResolved,
    TurnPassed,
    ValleyCardTaken,
    ValleyPlayed,
)
from shared.games.rise_of_cthulhu.powers import (
    artifact_options,
    monster_targets,
    play_artifact,
    play_monster,
    power_targets,
    resolve_power,
)
from shared.games.rise_of_cthulhu.state import (
    Awakening,
    Location,
    RiseOfCthulhuState,
    Side,
    is_over,
    location,
    locations_facing,
    other,
    points,
    position,
)

HAND_SIZE = 5
THIRD = 13
OLD_ONE_DEPTH = 6
"""Cards above the Old One in each 13-card third: the middle (6 above, 7 below)."""


class Reason(StrEnum):
    """How to win: what decided the game, in the rulebook's tie-break order."""

    LOCATIONS = "locations"
    POINTS = "points"
    ARTIFACTS = "artifacts"
    MONSTERS = "monsters"
    HAND = "hand"
    TIE = "tie"


# -- setup ---------------------------------------------------------------------------------------------------


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    """Setting up: shuffle the Cultists, deal five each, turn up the Valley, bury an Old One in the middle of
    each third (which one is decided when it wakes, ruling 4)."""
    r = rng(entropy)
    cultists = sorted(CULTISTS)
    r.shuffle(cultists)
    hands = [sorted(cultists[seat * HAND_SIZE : (seat + 1) * HAND_SIZE]) for seat in range(players)]
    valley = [cultists[players * HAND_SIZE]]
    rest = cultists[players * HAND_SIZE + 1 :]
    deck: list[str] = []
    for start in range(0, len(rest), THIRD):
        third = rest[start : start + THIRD]
        deck += third[:OLD_ONE_DEPTH] + [OLD_ONE_SLOT] + third[OLD_ONE_DEPTH:]
    monsters = sorted(MONSTERS)
    r.shuffle(monsters)
    artifacts = sorted(ARTIFACTS)
    r.shuffle(artifacts)
    decision: Decision[RiseOfCthulhuState | None] = Decision(None, evolve)
    decision.emit(
        GameSetUp(players=players, first=0, deck=deck, valley=valley, monster_deck=monsters,
                  artifact_deck=artifacts, old_ones=sorted(OLD_ONES)),
        secret={"deck": [], "monster_deck": [], "artifact_deck": []},
    )
    for seat in range(players):
        decision.emit(CardsDealt(seat=seat, cards=hands[seat]), secret={"cards": [seat]})
    return decision.events


# -- decide --------------------------------------------------------------------------------------------------


def decide(state: RiseOfCthulhuState, command: Command, seat: int, entropy: bytes) -> Decided[RiseOfCthulhuState]:
    decision = Decision(state, evolve, entropy)
    if isinstance(command, ResolvePower):
        require(state.pending is not None, "rules/no_power_to_resolve", "No Old One's power is waiting to be resolved.")
        resolve_power(decision, seat, command.target)
        finish(decision, seat)
        return decision.decided()
    _require_no_awakening(state)
    if isinstance(command, DrawOwedCards):
        require(state.owed[seat] > 0, "rules/no_owed_draws", "You owe no draws from the Cultist Deck.")
        finish(decision, seat)
        return decision.decided()
    require(state.owed[seat] == 0, "rules/owed_draws_first",
            "You must first draw the cards you owe from the Cultist Deck.")
    match command:
        case DrawCard(source=source):
            draw_card(decision, seat, source)
        case PlayCultist(card=card, location=where, recall_hunter=recall):
            play_cultist(decision, seat, card, where, recall)
        case PlayToValley(card=card, hunter_to=to):
            play_to_valley(decision, seat, card, to)
        case PlayMonster():
            play_monster(decision, seat, command)
        case PlayArtifact():
            play_artifact(decision, seat, command)
        case _:
            raise TypeError(f"rise of cthulhu: no rule for {command!r}")
    finish(decision, seat)
    return decision.decided()


def _require_no_awakening(state: RiseOfCthulhuState) -> None:
    pending = state.pending
    if pending is not None:
        raise RuleViolation(
            "rules/awaiting_old_one_power",
            f"{OLD_ONES[pending.old_one]['name']} has woken: its power must be resolved first.",
        )


# -- evolve --------------------------------------------------------------------------------------------------


def add_card(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(sorted((*hand, card)))


def remove_card(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    index = items.index(card)
    return items[:index] + items[index + 1 :]


def _take(state: RiseOfCthulhuState, seat: int, card: str) -> RiseOfCthulhuState:
    """The card leaves the seat's hand (and what the opponent knew of it)."""
    known = state.known[seat]
    return replace(
        state,
        hands=replace_at(state.hands, seat, remove_card(state.hands[seat], card)),
        known=replace_at(state.known, seat, remove_card(known, card) if card in known else known),
    )


def _give(state: RiseOfCthulhuState, seat: int, card: str, public: bool) -> RiseOfCthulhuState:
    known = state.known[seat]
    return replace(
        state,
        hands=replace_at(state.hands, seat, add_card(state.hands[seat], card)),
        known=replace_at(state.known, seat, add_card(known, card) if public else known),
    )


def _side(state: RiseOfCthulhuState, name: str, seat: int, cultists: tuple[str, ...] | None = None,
          monsters: tuple[str, ...] | None = None) -> RiseOfCthulhuState:
    """``state`` with ``seat``'s side of Location ``name`` holding new ``cultists`` and/or ``monsters``."""
    index = LOCATIONS.index(name)
    loc = state.locations[index]
    side = loc.sides[seat]
    side = Side(side.cultists if cultists is None else cultists, side.monsters if monsters is None else monsters)
    loc = replace(loc, sides=replace_at(loc.sides, seat, side))
    return replace(state, locations=replace_at(state.locations, index, loc))


def _count(state: RiseOfCthulhuState, action: bool, seat: int) -> RiseOfCthulhuState:
    """An action uses one of the turn's actions; any other draw pays off one owed draw."""
    if action:
        return replace(state, actions_taken=state.actions_taken + 1)
    return replace(state, owed=replace_at(state.owed, seat, state.owed[seat] - 1))


def _cultists(state: RiseOfCthulhuState, name: str, seat: int) -> tuple[str, ...]:
    return location(state, name).sides[seat].cultists


def _set_up(fact: GameSetUp) -> RiseOfCthulhuState:
    return RiseOfCthulhuState(
        players=fact.players,
        deck=tuple(fact.deck),
        valley=tuple(fact.valley),
        discard=(),
        spent=(),
        monster_deck=tuple(fact.monster_deck),
        artifact_deck=tuple(fact.artifact_deck),
        hands=((),) * fact.players,
        known=((),) * fact.players,
        locations=tuple(Location(name) for name in LOCATIONS),
        hunter=None,
        sleeping=tuple(sorted(fact.old_ones)),
        awake=(),
        current=fact.first,
        owed=(0,) * fact.players,
        artifacts_acquired=(0,) * fact.players,
        monsters_played=(0,) * fact.players,
    )


def evolve(state: RiseOfCthulhuState | None, event: Event) -> RiseOfCthulhuState:
    """One fold step per fact: no checks, no randomness."""
    match FACTS.parse(event):
        case GameSetUp() as fact:
            return _set_up(fact)
        case fact if state is None:
            raise TypeError(f"rise-of-cthulhu: {fact!r} before the game is set up")
        case CardsDealt(seat=seat, cards=dealt):
            return replace(state, hands=replace_at(state.hands, seat, tuple(sorted(dealt))))
        case CardDrawn(seat=seat, source=source, card=card, action=action):
            if source == "deck":
                state = replace(state, deck=state.deck[1:], deck_drawn=state.deck_drawn or seat == state.current,
                                seen=frozenset())
            else:
                state = replace(state, valley=state.valley[:-1])
            return _count(_give(state, seat, card, public=source == "valley"), action, seat)
        case OldOneAwakened(seat=seat, old_one=name, location=where, influencer=influencer, action=action,
                            hunter_returned=hunter_returned, owed=owed):
            loc = location(state, where)
            state = replace(
                state,
                deck=state.deck[1:],
                deck_drawn=state.deck_drawn or seat == state.current,
                seen=frozenset(),
                locations=replace_at(state.locations, LOCATIONS.index(where), replace(loc, old_one=name)),
                sleeping=remove_card(state.sleeping, name),
                awake=(*state.awake, name),
                hunter=None if hunter_returned else state.hunter,
            )
            state = _count(state, action, seat)
            pending = None if influencer is None else Awakening(name, where, influencer, seat)
            return replace(state, owed=replace_at(state.owed, seat, owed), pending=pending)
        case PowerResolved():
            return replace(state, pending=None)
        case DrawsOwed(seat=seat, count=count):
            return replace(state, owed=replace_at(state.owed, seat, state.owed[seat] + count))
        case CultistPlayed(seat=seat, card=card, location=where, action=action):
            state = _take(state, seat, card)
            state = _side(state, where, seat, (*_cultists(state, where, seat), card))
            return replace(state, actions_taken=state.actions_taken + 1) if action else state
        case ValleyPlayed(seat=seat, card=card):
            state = _take(state, seat, card)
            return replace(state, valley=(*state.valley, card), actions_taken=state.actions_taken + 1)
        case HunterMoved(to=to):
            return replace(state, hunter=to)
        case CultistDestroyed(seat=seat, card=card, location=where):
            state = _side(state, where, seat, remove_card(_cultists(state, where, seat), card))
            return replace(state, discard=(*state.discard, card))
        case MonsterDrawn(seat=seat, card=card):
            return _give(replace(state, monster_deck=state.monster_deck[1:]), seat, card, public=False)
        case ArtifactDrawn(seat=seat, card=card):
            acquired = replace_at(state.artifacts_acquired, seat, state.artifacts_acquired[seat] + 1)
            state = replace(state, artifact_deck=state.artifact_deck[1:], artifacts_acquired=acquired)
            return _give(state, seat, card, public=False)
        case MonsterPlayed(seat=seat, card=card, location=where, stays=stays):
            state = _take(state, seat, card)
            played = replace_at(state.monsters_played, seat, state.monsters_played[seat] + 1)
            state = replace(state, monsters_played=played)
            if stays:
                return _side(state, where, seat, monsters=(*location(state, where).sides[seat].monsters, card))
            return replace(state, spent=(*state.spent, card))
        case ArtifactPlayed(seat=seat, card=card):
            return replace(_take(state, seat, card), spent=(*state.spent, card))
        case CultistMoved(seat=seat, card=card, from_location=source, to_location=where):
            state = _side(state, source, seat, remove_card(_cultists(state, source, seat), card))
            return _side(state, where, seat, (*_cultists(state, where, seat), card))
        case CultistCrossed(seat=seat, card=card, location=where):
            state = _side(state, where, other(seat), remove_card(_cultists(state, where, other(seat)), card))
            return _side(state, where, seat, (*_cultists(state, where, seat), card))
        case CultistSentToValley(seat=seat, card=card, location=where):
            state = _side(state, where, seat, remove_card(_cultists(state, where, seat), card))
            return replace(state, valley=(*state.valley, card))
        case ValleyCardTaken(seat=seat, card=card):
            return _give(replace(state, valley=remove_card(state.valley, card)), seat, card, public=True)
        case ExtraActionGained():
            return replace(state, actions_allowed=state.actions_allowed + 1)
        case TurnPassed(seat=seat, must_draw=must_draw):
            return replace(state, current=seat, actions_taken=0, actions_allowed=2, deck_drawn=False,
                           seen=state.seen | {position(state, seat)}, must_draw=must_draw)
        case fact:
            raise TypeError(f"rise-of-cthulhu: no fold for {fact!r}")


# -- who acts, what they may do, and the end ------------------------------------------------------------------


def to_act(state: RiseOfCthulhuState) -> frozenset[int]:
    """The influencer of a woken Old One, else a seat owing draws, else the player whose turn it is."""
    if is_over(state):
        return frozenset()
    if state.pending is not None:
        return frozenset({state.pending.influencer})
    owed = state.owed
    if any(owed):
        return frozenset(seat for seat in range(state.players) if owed[seat] > 0)
    return frozenset({state.current})


_DRAW_DECK, _DRAW_VALLEY = DrawCard(source="deck"), DrawCard(source="valley")
_play_cultist, _play_to_valley = interned(PlayCultist), interned(PlayToValley)


def legal_commands(state: RiseOfCthulhuState, seat: int) -> list[Command]:
    if seat not in to_act(state):
        return []
    if state.pending is not None:
        return [ResolvePower(target=t) for t in power_targets(state)]
    if state.owed[seat] > 0:
        return [DrawOwedCards()]
    hand = state.hands[seat]
    cultists = [card for card in hand if card in CULTISTS]
    out: list[Command] = [_DRAW_DECK]
    if not forced_draw(state):
        if state.valley:
            out.append(_DRAW_VALLEY)
        if cultists:
            hunter = state.hunter
            # ``free_locations`` but the Dark Hunter's: where a Cultist may go, and the Dark Hunter (hunter_destinations)
            playable = tuple([loc.name for loc in state.locations if loc.old_one is None and loc.name != hunter])
            recalls = _recall_places(state, seat, playable) if hunter else {}
            for card in cultists:
                out += _cultist_plays(card, playable, recalls.get(cards.colour(card), 0), valley_accepts(state, card))
    if len(cultists) < len(hand):
        for card in hand:
            if card in MONSTERS:
                for where in LOCATIONS:
                    for target, recall in monster_targets(state, seat, card, where):
                        out.append(PlayMonster(card=card, location=where, target=target, recall_hunter=recall))
            elif card in ARTIFACTS:
                for target, place, recall in artifact_options(state, seat, card):
                    out.append(PlayArtifact(card=card, target=target, location=place, recall_hunter=recall))
    return out


def _recall_places(state: RiseOfCthulhuState, seat: int, playable: tuple[str, ...]) -> dict[str, int]:
    """``recall_options`` for every card at once: by colour, the ``playable`` Locations (a bit each, in order)
    where ``seat``'s side holds two Cultists of it, so that a third makes the set that may recall the Dark Hunter."""
    out: dict[str, int] = {}
    for i, where in enumerate(playable):
        for tone, count in colour_counts(location(state, where).sides[seat]).items():
            if count >= 2:
                out[tone] = out.get(tone, 0) | 1 << i
    return out


@functools.cache
def _cultist_plays(card: str, playable: tuple[str, ...], recall: int, to_valley: bool) -> tuple[Command, ...]:
    """A Cultist's commands in ``legal_commands``' order: on each ``playable`` Location (and there recalling the
    Dark Hunter where ``recall`` has its bit), then on the Valley with the Dark Hunter moving to each. Made once
    per distinct arguments (a few thousand at most): a playout lists a hand's plays on every move."""
    out: list[Command] = []
    for i, where in enumerate(playable):
        out.append(_play_cultist(card, where, False))
        if recall >> i & 1:
            out.append(_play_cultist(card, where, True))
    if to_valley:
        out += [_play_to_valley(card, to) for to in playable]
    return tuple(out)


def outcome(state: RiseOfCthulhuState) -> Outcome | None:
    """How to win: most Locations (points instead if tied or Azathoth woke), then artifacts, monsters, fewest
    cards in hand; a full tie means both lose."""
    if not is_over(state):
        return None
    seats = range(state.players)
    pts = tuple(points(state, s) for s in seats)
    locs = tuple(locations_facing(state, s) for s in seats)
    azathoth = "azathoth" in state.awake
    steps: list[tuple[Reason, tuple[int, ...]]] = [] if azathoth else [(Reason.LOCATIONS, locs)]
    steps += [
        (Reason.POINTS, pts),
        (Reason.ARTIFACTS, state.artifacts_acquired),
        (Reason.MONSTERS, state.monsters_played),
        (Reason.HAND, tuple(-len(h) for h in state.hands)),
    ]
    details = {
        "azathoth": azathoth,
        "locations": list(locs),
        "points": list(pts),
        "artifacts_acquired": list(state.artifacts_acquired),
        "monsters_played": list(state.monsters_played),
        "hand_sizes": [len(h) for h in state.hands],
    }
    scores = pts
    for reason, values in steps:
        if values[0] != values[1]:
            return Outcome(reason, (0 if values[0] > values[1] else 1,), scores, details)
    return Outcome(Reason.TIE, (), scores, details)


def winners_among(state: RiseOfCthulhuState, standing: frozenset[int]) -> tuple[int, ...]:
    """How to win between the two seats; a seat standing alone (the other resigned) has nobody to lose to."""
    if len(standing) < state.players:
        return tuple(sorted(standing))
    final = outcome(state)
    return () if final is None else final.winners
