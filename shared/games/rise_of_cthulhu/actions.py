"""Rise of Cthulhu's turn: the two actions (a draw from the Cultist Deck or the Valley, a play on a Location or
the Valley), the Dark Hunter, set abilities, Old Ones waking from the deck, and the end of a turn.

Each rule takes the command's ``Decision`` and emits facts into it, reading the position its earlier steps
made. Rulebook sections: How to play, Dark Hunter, Old Ones, Set Abilities; rulings in
``docs/rulings/rise-of-cthulhu.md``.
"""

from __future__ import annotations

from shared.kernel import Decision
from shared.kernel.errors import require

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.cards import CULTISTS, OLD_ONE_SLOT
from shared.games.rise_of_cthulhu.events import (
    ArtifactDrawn,
    CardDrawn,
    CultistDestroyed,
    CultistPlayed,
    HunterMoved,
    MonsterDrawn,
    OldOneAwakened,
    TurnPassed,
    ValleyPlayed,
)
from shared.games.rise_of_cthulhu.state import (
    OLD_ONES_TO_END,
    RiseOfCthulhuState,
    Side,
    facing,
    free_locations,
    highest,
    is_over,
    location,
    other,
    position,
)

Play = Decision[RiseOfCthulhuState]

# -- the end of a turn and owed draws -------------------------------------------------------------------------


def finish(decision: Play, actor: int) -> None:
    """Draw what the actor owes, then pass the turn once its actions are spent and nothing waits."""
    while True:
        s = decision.state
        if is_over(s) or s.pending is not None or s.owed[actor] == 0:
            break
        draw_from_deck(decision, actor, action=False)
    s = decision.state
    if is_over(s) or s.pending is not None or any(s.owed) or s.actions_taken < s.actions_allowed:
        return
    turn = other(s.current)
    decision.emit(TurnPassed(seat=turn, must_draw=position(s, turn) in s.seen))


def forced_draw(s: RiseOfCthulhuState) -> bool:
    """Loop ruling: a turn that began in a position seen since the last Cultist Deck draw must include a Cultist
    Deck draw, so its last action must be one if none was made; every other turn keeps all its choices."""
    return s.must_draw and not s.deck_drawn and s.actions_taken == s.actions_allowed - 1


def _require_not_forced(s: RiseOfCthulhuState) -> None:
    require(
        not forced_draw(s),
        "rules/must_draw_from_cultist_deck",
        "This turn began in a position already played since the last Cultist Deck draw: to end the loop, it must "
        "include a draw from the Cultist Deck.",
    )


# -- draws ---------------------------------------------------------------------------------------------------


def draw_from_deck(decision: Play, seat: int, action: bool) -> None:
    """Draw the top card; an Old One there wakes instead (its identity is decided now, see the rulings)."""
    s = decision.state
    top = s.deck[0]
    if top != OLD_ONE_SLOT:
        decision.emit(CardDrawn(seat=seat, source="deck", card=top, action=action), secret={"card": [seat]})
        return
    name = decision.rng.choice(sorted(s.sleeping))
    where = next(loc for loc in cards.placement(name) if location(s, loc).old_one is None)
    last = len(s.awake) + 1 >= OLD_ONES_TO_END
    owed_now = s.owed[seat] - (0 if action else 1)
    decision.emit(OldOneAwakened(
        seat=seat,
        old_one=name,
        location=where,
        influencer=facing(location(s, where)),
        hunter_returned=s.hunter == where,
        action=action,
        owed=0 if last else owed_now + 1,
    ))


def draw_card(decision: Play, seat: int, source: str) -> None:
    """How to play: an action draws the top card of the Cultist Deck or of the Valley."""
    s = decision.state
    if source == "deck":
        require(bool(s.deck), "rules/cultist_deck_empty", "The Cultist Deck is empty.")
        draw_from_deck(decision, seat, action=True)
    else:
        _require_not_forced(s)
        require(bool(s.valley), "rules/valley_empty", "The Valley has no card to draw.")
        decision.emit(CardDrawn(seat=seat, source="valley", card=s.valley[-1], action=True))


# -- plays on a Location ---------------------------------------------------------------------------------------


def require_cultist_in_hand(s: RiseOfCthulhuState, seat: int, card: str) -> None:
    require(card in s.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.", card=card)
    require(card in CULTISTS, "rules/not_a_cultist", "Only Cultist cards can be played there.", card=card)


def require_playable_location(s: RiseOfCthulhuState, where: str, old_one_allowed: bool = False) -> None:
    require(
        s.hunter != where,
        "rules/dark_hunter_blocks_location",
        "No Cultist or Monster can be played where the Dark Hunter stands.",
        location=where,
    )
    if not old_one_allowed:
        require(
            location(s, where).old_one is None,
            "rules/old_one_location",
            "Cultists cannot be played at a Location with an Old One unless a card allows it.",
            location=where,
        )


def play_cultist(decision: Play, seat: int, card: str, where: str, recall: bool) -> None:
    """How to play: an action plays a Cultist on the player's side of a Location without an Old One."""
    s = decision.state
    _require_not_forced(s)
    require_cultist_in_hand(s, seat, card)
    require_playable_location(s, where)
    _check_recall(s, seat, card, where, recall)
    decision.emit(CultistPlayed(seat=seat, card=card, location=where, action=True))
    set_abilities(decision, seat, card, where, recall)


def _colour_set(side: Side, card: str) -> bool:
    return sum(1 for c in side.cultists if cards.colour(c) == cards.colour(card)) + 1 >= 3


def recall_options(s: RiseOfCthulhuState, seat: int, card: str, where: str) -> list[bool]:
    """Whether playing ``card`` at ``where`` may send the Dark Hunter home (three of a colour, Hunter out)."""
    if s.hunter is not None and _colour_set(location(s, where).sides[seat], card):
        return [False, True]
    return [False]


def colour_counts(side: Side) -> dict[str, int]:
    """The side's Cultists by colour (``_colour_set`` for every card at once: a card makes a set where its colour
    counts two)."""
    out: dict[str, int] = {}
    for c in side.cultists:
        tone = cards.colour(c)
        out[tone] = out.get(tone, 0) + 1
    return out


def _check_recall(s: RiseOfCthulhuState, seat: int, card: str, where: str, recall: bool) -> None:
    if recall:
        require(s.hunter is not None, "rules/dark_hunter_already_home", "The Dark Hunter is already in its place.")
        require(
            _colour_set(location(s, where).sides[seat], card),
            "rules/no_colour_set",
            "Only a play that makes three Cultists of one colour at a Location may send the Dark Hunter back.",
        )


def set_abilities(decision: Play, seat: int, card: str, where: str, recall: bool) -> None:
    """Set abilities: three of a colour (may recall the Dark Hunter), of a number (Monster), a run (Artifact)."""
    side = location(decision.state, where).sides[seat]
    if recall:
        decision.emit(HunterMoved(to=None, by="colour_set"))
    same_number = sum(1 for c in side.cultists if cards.number(c) == cards.number(card))
    if same_number >= 3 and decision.state.monster_deck:
        decision.emit(MonsterDrawn(seat=seat, card=decision.state.monster_deck[0]), secret={"card": [seat]})
    if in_run(side, card) and decision.state.artifact_deck:
        decision.emit(ArtifactDrawn(seat=seat, card=decision.state.artifact_deck[0]), secret={"card": [seat]})


def in_run(side: Side, card: str) -> bool:
    """Three of one colour in order, the played card among them (n-2 to n, n-1 to n+1 or n to n+2)."""
    number, colour = cards.number, cards.colour
    tone, n = colour(card), number(card)
    present = {number(c) for c in side.cultists if colour(c) == tone}
    return n in present and (n - 1 in present and (n - 2 in present or n + 1 in present)
                             or n + 1 in present and n + 2 in present)


# -- the Valley and the Dark Hunter ----------------------------------------------------------------------------


def valley_accepts(s: RiseOfCthulhuState, card: str) -> bool:
    if not s.valley:
        return True
    top = s.valley[-1]
    return cards.number(card) > cards.number(top) or cards.colour(card) == cards.colour(top)


def hunter_destinations(s: RiseOfCthulhuState) -> list[str]:
    return [loc for loc in free_locations(s) if loc != s.hunter]


def play_to_valley(decision: Play, seat: int, card: str, hunter_to: str) -> None:
    """Dark Hunter: an action plays a Cultist on the Valley, and the Dark Hunter must move."""
    s = decision.state
    _require_not_forced(s)
    require_cultist_in_hand(s, seat, card)
    require(
        valley_accepts(s, card),
        "rules/valley_needs_higher_or_same_colour",
        "A card played on the Valley must be higher than its top card or of the same colour.",
    )
    require(
        hunter_to in hunter_destinations(s),
        "rules/dark_hunter_must_move_to_free_location",
        "The Dark Hunter must move to another Location without an Old One.",
        hunter_to=hunter_to,
    )
    decision.emit(ValleyPlayed(seat=seat, card=card))
    move_hunter(decision, hunter_to, "valley")


def move_hunter(decision: Play, to: str | None, by: str) -> None:
    decision.emit(HunterMoved(to=to, by=by))
    if to is not None:
        _hunt(decision, to)


def _hunt(decision: Play, where: str) -> None:
    """The Dark Hunter destroys the highest Cultist; equal highest on both sides lose one each."""
    loc = location(decision.state, where)
    tops = [highest(side) for side in loc.sides]
    values = [cards.number(c) for c in tops if c is not None]
    if not values:
        return
    best = max(values)
    for seat, card in enumerate(tops):
        if card is not None and cards.number(card) == best:
            decision.emit(CultistDestroyed(seat=seat, card=card, location=where, by="dark_hunter"))


def opponent_cultists(s: RiseOfCthulhuState, seat: int, only_free: bool) -> list[tuple[str, str]]:
    """(Location, card) for every Cultist on the opponent's sides (only at Locations without an Old One)."""
    return [
        (loc.name, card)
        for loc in s.locations
        if not (only_free and loc.old_one is not None)
        for card in loc.sides[other(seat)].cultists
    ]
