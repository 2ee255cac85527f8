"""Rise of Cthulhu rules: setup, decide, evolve and the legal commands.

Rulebook: ``shared/rulebooks/rise-of-cthulhu.md``; rulings: ``docs/rulings/rise-of-cthulhu.md``. A turn is two
actions, each a draw (Cultist Deck or Valley) or a play (a Location or the Valley); Monsters and Artifacts are
free plays in between. Drawing an Old One wakes it; its influencing player resolves its power, then the drawer
draws again. Three Old Ones awake end the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from shared.games.rise_of_cthulhu import cards
from shared.games.rise_of_cthulhu.cards import (
    ARTIFACTS,
    CULTISTS,
    LOCATIONS,
    MONSTERS,
    OLD_ONE_SLOT,
    OLD_ONES,
)
from shared.games.rise_of_cthulhu.state import (
    IDLE_TURNS_BEFORE_FORCED_DRAW,
    OLD_ONES_TO_END,
    Awakening,
    Location,
    Side,
    Table,
    facing,
    free_locations,
    highest,
    is_over,
    location,
    other,
    put,
    to_act,
    with_location,
    with_side,
)
from shared.kernel import Event, RuleViolation, ev, rng
from shared.kernel.errors import require

HOME = "home"
"""The Dark Hunter's place between the Cultist Deck and the Valley, as a command target."""

HAND_SIZE = 5
THIRD = 13
OLD_ONE_DEPTH = 6
"""Cards above the Old One in each 13-card third: the middle (6 above, 7 below)."""


# -- setup ---------------------------------------------------------------------------------------------------


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    """Shuffle the Cultists, deal five each, turn up the Valley, bury an Old One in the middle of each third."""
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
    events = [
        ev(
            "game_set_up",
            players=players,
            first=0,
            deck=deck,
            valley=valley,
            monster_deck=monsters,
            artifact_deck=artifacts,
            old_ones=sorted(OLD_ONES),
            secret={"deck": [], "monster_deck": [], "artifact_deck": []},
        )
    ]
    events += [ev("cards_dealt", seat=seat, cards=hands[seat], secret={"cards": [seat]}) for seat in range(players)]
    return events


# -- evolve --------------------------------------------------------------------------------------------------


def _add(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(sorted(hand + (card,)))


def _remove(items: tuple[str, ...], card: str) -> tuple[str, ...]:
    index = items.index(card)
    return items[:index] + items[index + 1 :]


def _take(state: Table, seat: int, card: str) -> Table:
    """The card leaves the seat's hand (and what the opponent knew of it)."""
    known = state.known[seat]
    return replace(
        state,
        hands=put(state.hands, seat, _remove(state.hands[seat], card)),
        known=put(state.known, seat, _remove(known, card) if card in known else known),
    )


def _give(state: Table, seat: int, card: str, public: bool) -> Table:
    known = state.known[seat]
    return replace(
        state,
        hands=put(state.hands, seat, _add(state.hands[seat], card)),
        known=put(state.known, seat, _add(known, card) if public else known),
    )


def _edit_side(state: Table, name: str, seat: int, cultists: tuple[str, ...] | None = None, monsters=None) -> Table:
    loc = location(state, name)
    side = loc.sides[seat]
    side = Side(side.cultists if cultists is None else cultists, side.monsters if monsters is None else monsters)
    return replace(state, locations=with_location(state, with_side(loc, seat, side)))


def _count(state: Table, action: bool, seat: int) -> Table:
    """An action uses one of the turn's actions; any other draw pays off one owed draw."""
    if action:
        return replace(state, actions_taken=state.actions_taken + 1)
    return replace(state, owed=put(state.owed, seat, state.owed[seat] - 1))


def evolve(state: Table | None, event: Event) -> Table:
    d = event.data
    match event.type:
        case "game_set_up":
            players = d["players"]
            return Table(
                players=players,
                deck=tuple(d["deck"]),
                valley=tuple(d["valley"]),
                discard=(),
                spent=(),
                monster_deck=tuple(d["monster_deck"]),
                artifact_deck=tuple(d["artifact_deck"]),
                hands=((),) * players,
                known=((),) * players,
                locations=tuple(Location(name) for name in LOCATIONS),
                hunter=None,
                sleeping=tuple(sorted(d["old_ones"])),
                awake=(),
                current=d["first"],
                owed=(0,) * players,
                artifacts_acquired=(0,) * players,
                monsters_played=(0,) * players,
            )
        case "cards_dealt":
            return replace(state, hands=put(state.hands, d["seat"], tuple(sorted(d["cards"]))))
        case "card_drawn":
            seat, card = d["seat"], d["card"]
            if d["source"] == "deck":
                state = replace(state, deck=state.deck[1:], deck_drawn=state.deck_drawn or seat == state.current)
            else:
                state = replace(state, valley=state.valley[:-1])
            state = _give(state, seat, card, public=d["source"] == "valley")
            return _count(state, d["action"], seat)
        case "old_one_awakened":
            seat, name, where = d["seat"], d["old_one"], d["location"]
            loc = location(state, where)
            state = replace(
                state,
                deck=state.deck[1:],
                deck_drawn=state.deck_drawn or seat == state.current,
                locations=with_location(state, Location(loc.name, loc.sides, name)),
                sleeping=_remove(state.sleeping, name),
                awake=state.awake + (name,),
                hunter=None if d["hunter_returned"] else state.hunter,
            )
            state = _count(state, d["action"], seat)
            pending = None if d["influencer"] is None else Awakening(name, where, d["influencer"], seat)
            return replace(state, owed=put(state.owed, seat, d["owed"]), pending=pending)
        case "power_resolved":
            return replace(state, pending=None)
        case "draws_owed":
            return replace(state, owed=put(state.owed, d["seat"], state.owed[d["seat"]] + d["count"]))
        case "cultist_played":
            seat, card, where = d["seat"], d["card"], d["location"]
            state = _take(state, seat, card)
            state = _edit_side(state, where, seat, location(state, where).sides[seat].cultists + (card,))
            return replace(state, actions_taken=state.actions_taken + 1) if d["action"] else state
        case "valley_played":
            state = _take(state, d["seat"], d["card"])
            return replace(state, valley=state.valley + (d["card"],), actions_taken=state.actions_taken + 1)
        case "hunter_moved":
            return replace(state, hunter=d["to"])
        case "cultist_destroyed":
            seat, card, where = d["seat"], d["card"], d["location"]
            state = _edit_side(state, where, seat, _remove(location(state, where).sides[seat].cultists, card))
            return replace(state, discard=state.discard + (card,))
        case "monster_drawn":
            state = replace(state, monster_deck=state.monster_deck[1:])
            return _give(state, d["seat"], d["card"], public=False)
        case "artifact_drawn":
            seat = d["seat"]
            state = replace(state, artifact_deck=state.artifact_deck[1:])
            state = replace(state, artifacts_acquired=put(state.artifacts_acquired, seat, state.artifacts_acquired[seat] + 1))
            return _give(state, seat, d["card"], public=False)
        case "monster_played":
            seat, card = d["seat"], d["card"]
            state = _take(state, seat, card)
            state = replace(state, monsters_played=put(state.monsters_played, seat, state.monsters_played[seat] + 1))
            if d["stays"]:
                return _edit_side(state, d["location"], seat, monsters=location(state, d["location"]).sides[seat].monsters + (card,))
            return replace(state, spent=state.spent + (card,))
        case "artifact_played":
            state = _take(state, d["seat"], d["card"])
            return replace(state, spent=state.spent + (d["card"],))
        case "cultist_moved":
            seat, card = d["seat"], d["card"]
            state = _edit_side(state, d["from"], seat, _remove(location(state, d["from"]).sides[seat].cultists, card))
            return _edit_side(state, d["to"], seat, location(state, d["to"]).sides[seat].cultists + (card,))
        case "cultist_crossed":
            seat, card, where = d["seat"], d["card"], d["location"]
            state = _edit_side(state, where, other(seat), _remove(location(state, where).sides[other(seat)].cultists, card))
            return _edit_side(state, where, seat, location(state, where).sides[seat].cultists + (card,))
        case "cultist_sent_to_valley":
            seat, card, where = d["seat"], d["card"], d["location"]
            state = _edit_side(state, where, seat, _remove(location(state, where).sides[seat].cultists, card))
            return replace(state, valley=state.valley + (card,))
        case "valley_card_taken":
            state = replace(state, valley=_remove(state.valley, d["card"]))
            return _give(state, d["seat"], d["card"], public=True)
        case "extra_action_gained":
            return replace(state, actions_allowed=state.actions_allowed + 1)
        case "turn_passed":
            return replace(
                state,
                current=d["seat"],
                actions_taken=0,
                actions_allowed=2,
                deck_drawn=False,
                idle_turns=d["idle_turns"],
                must_draw=d["must_draw"],
            )
        case _:
            raise TypeError(f"rise-of-cthulhu: unknown event {event.type!r}")


# -- decide --------------------------------------------------------------------------------------------------


class Emitter:
    """Collect events while folding them, so a multi-step rule reads the state its own earlier steps made."""

    def __init__(self, state: Table, entropy: bytes):
        self.state = state
        self.events: list[Event] = []
        self._entropy = entropy
        self._rng = None

    @property
    def rng(self):
        if self._rng is None:
            self._rng = rng(self._entropy)
        return self._rng

    def emit(self, type: str, secret: Mapping[str, list[int]] | None = None, **data: Any) -> None:
        event = ev(type, secret=secret, **data)
        self.events.append(event)
        self.state = evolve(self.state, event)


def decide(state: Table, command: Mapping[str, Any], seat: int, entropy: bytes) -> list[Event]:
    em = Emitter(state, entropy)
    kind = command["type"]
    require(seat in to_act(state), "rules/not_your_turn", "It is not your turn to act.")
    if kind == "resolve_power":
        require(state.pending is not None, "rules/no_power_to_resolve", "No Old One's power is waiting to be resolved.")
        _resolve_power(em, seat, command.get("target"))
        _finish(em, seat)
        return em.events
    _require_no_awakening(state)
    if kind == "draw_owed_cards":
        require(state.owed[seat] > 0, "rules/no_owed_draws", "You owe no draws from the Cultist Deck.")
        _finish(em, seat)
        return em.events
    require(
        state.owed[seat] == 0,
        "rules/owed_draws_first",
        "You must first draw the cards you owe from the Cultist Deck.",
    )
    match kind:
        case "draw_card":
            _draw_card(em, seat, command["source"])
        case "play_cultist":
            _play_cultist(em, seat, command["card"], command["location"], command["recall_hunter"])
        case "play_to_valley":
            _play_to_valley(em, seat, command["card"], command["hunter_to"])
        case "play_monster":
            _play_monster(em, seat, command)
        case "play_artifact":
            _play_artifact(em, seat, command)
        case _:
            raise RuleViolation("rules/unknown_command", f"Rise of Cthulhu has no command {kind!r}.")
    _finish(em, seat)
    return em.events


def _require_no_awakening(state: Table) -> None:
    pending = state.pending
    if pending is not None:
        raise RuleViolation(
            "rules/awaiting_old_one_power",
            f"{OLD_ONES[pending.old_one]['name']} has woken: its power must be resolved first.",
        )


def _finish(em: Emitter, actor: int) -> None:
    """Draw what the actor owes, then pass the turn once its actions are spent and nothing waits."""
    while True:
        s = em.state
        if is_over(s) or s.pending is not None or s.owed[actor] == 0:
            break
        _draw_from_deck(em, actor, action=False)
    s = em.state
    if is_over(s) or s.pending is not None or any(s.owed) or s.actions_taken < s.actions_allowed:
        return
    idle = 0 if s.deck_drawn else s.idle_turns + 1
    em.emit("turn_passed", seat=other(s.current), idle_turns=idle, must_draw=idle >= IDLE_TURNS_BEFORE_FORCED_DRAW)


def _draw_from_deck(em: Emitter, seat: int, action: bool) -> None:
    """Draw the top card; an Old One there wakes instead (its identity is decided now, see the rulings)."""
    s = em.state
    top = s.deck[0]
    if top != OLD_ONE_SLOT:
        em.emit("card_drawn", seat=seat, source="deck", card=top, action=action, secret={"card": [seat]})
        return
    name = em.rng.choice(sorted(s.sleeping))
    where = next(loc for loc in cards.placement(name) if location(s, loc).old_one is None)
    last = len(s.awake) + 1 >= OLD_ONES_TO_END
    owed_now = s.owed[seat] - (0 if action else 1)
    em.emit(
        "old_one_awakened",
        seat=seat,
        old_one=name,
        location=where,
        influencer=facing(location(s, where)),
        hunter_returned=s.hunter == where,
        action=action,
        owed=0 if last else owed_now + 1,
    )


def _require_not_forced(s: Table) -> None:
    require(
        not _forced_draw(s),
        "rules/must_draw_from_cultist_deck",
        "Nobody has drawn from the Cultist Deck for six turns: this turn must include a draw from it.",
    )


def _forced_draw(s: Table) -> bool:
    """Stalling ruling: after six turns without a Cultist Deck draw, the last action must be one."""
    return s.must_draw and not s.deck_drawn and s.actions_taken == s.actions_allowed - 1


def _draw_card(em: Emitter, seat: int, source: str) -> None:
    s = em.state
    if source == "deck":
        require(bool(s.deck), "rules/cultist_deck_empty", "The Cultist Deck is empty.")
        _draw_from_deck(em, seat, action=True)
    else:
        _require_not_forced(s)
        require(bool(s.valley), "rules/valley_empty", "The Valley has no card to draw.")
        em.emit("card_drawn", seat=seat, source="valley", card=s.valley[-1], action=True)


def _require_cultist_in_hand(s: Table, seat: int, card: str) -> None:
    require(card in s.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.", card=card)
    require(card in CULTISTS, "rules/not_a_cultist", "Only Cultist cards can be played there.", card=card)


def _require_playable_location(s: Table, where: str, old_one_allowed: bool = False) -> None:
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


def _play_cultist(em: Emitter, seat: int, card: str, where: str, recall: bool) -> None:
    s = em.state
    _require_not_forced(s)
    _require_cultist_in_hand(s, seat, card)
    _require_playable_location(s, where)
    _check_recall(s, seat, card, where, recall)
    em.emit("cultist_played", seat=seat, card=card, location=where, action=True)
    _set_abilities(em, seat, card, where, recall)


def _colour_set(side: Side, card: str) -> bool:
    return sum(1 for c in side.cultists if cards.colour(c) == cards.colour(card)) + 1 >= 3


def _recall_options(s: Table, seat: int, card: str, where: str) -> list[bool]:
    if s.hunter is not None and _colour_set(location(s, where).sides[seat], card):
        return [False, True]
    return [False]


def _check_recall(s: Table, seat: int, card: str, where: str, recall: bool) -> None:
    if recall:
        require(
            s.hunter is not None,
            "rules/dark_hunter_already_home",
            "The Dark Hunter is already in its place.",
        )
        require(
            _colour_set(location(s, where).sides[seat], card),
            "rules/no_colour_set",
            "Only a play that makes three Cultists of one colour at a Location may send the Dark Hunter back.",
        )


def _set_abilities(em: Emitter, seat: int, card: str, where: str, recall: bool) -> None:
    """Set abilities: three of a colour (may recall the Dark Hunter), of a number (Monster), a run (Artifact)."""
    side = location(em.state, where).sides[seat]
    if recall:
        em.emit("hunter_moved", to=None, by="colour_set")
    same_number = sum(1 for c in side.cultists if cards.number(c) == cards.number(card))
    if same_number >= 3 and em.state.monster_deck:
        em.emit("monster_drawn", seat=seat, card=em.state.monster_deck[0], secret={"card": [seat]})
    if _in_run(side, card) and em.state.artifact_deck:
        em.emit("artifact_drawn", seat=seat, card=em.state.artifact_deck[0], secret={"card": [seat]})


def _in_run(side: Side, card: str) -> bool:
    """Three of one colour in order, the played card among them."""
    colour, n = cards.colour(card), cards.number(card)
    present = {cards.number(c) for c in side.cultists if cards.colour(c) == colour}
    return any(all(k in present for k in range(low, low + 3)) for low in range(n - 2, n + 1))


def _valley_accepts(s: Table, card: str) -> bool:
    if not s.valley:
        return True
    top = s.valley[-1]
    return cards.number(card) > cards.number(top) or cards.colour(card) == cards.colour(top)


def _hunter_destinations(s: Table) -> list[str]:
    return [loc for loc in free_locations(s) if loc != s.hunter]


def _play_to_valley(em: Emitter, seat: int, card: str, hunter_to: str) -> None:
    s = em.state
    _require_not_forced(s)
    _require_cultist_in_hand(s, seat, card)
    require(
        _valley_accepts(s, card),
        "rules/valley_needs_higher_or_same_colour",
        "A card played on the Valley must be higher than its top card or of the same colour.",
    )
    require(
        hunter_to in _hunter_destinations(s),
        "rules/dark_hunter_must_move_to_free_location",
        "The Dark Hunter must move to another Location without an Old One.",
        hunter_to=hunter_to,
    )
    em.emit("valley_played", seat=seat, card=card)
    _move_hunter(em, hunter_to, "valley")


def _move_hunter(em: Emitter, to: str | None, by: str) -> None:
    em.emit("hunter_moved", to=to, by=by)
    if to is not None:
        _hunt(em, to)


def _hunt(em: Emitter, where: str) -> None:
    """The Dark Hunter destroys the highest Cultist; equal highest on both sides lose one each."""
    loc = location(em.state, where)
    tops = [highest(side) for side in loc.sides]
    values = [cards.number(c) for c in tops if c is not None]
    if not values:
        return
    best = max(values)
    for seat, card in enumerate(tops):
        if card is not None and cards.number(card) == best:
            em.emit("cultist_destroyed", seat=seat, card=card, location=where, by="dark_hunter")


def _opponent_cultists(s: Table, seat: int, only_free: bool) -> list[tuple[str, str]]:
    return [
        (loc.name, card)
        for loc in s.locations
        if not (only_free and loc.old_one is not None)
        for card in loc.sides[other(seat)].cultists
    ]


# -- Old One powers ------------------------------------------------------------------------------------------


def power_targets(s: Table) -> list[str | None]:
    pending = s.pending
    effect = OLD_ONES[pending.old_one]["effect"]
    if effect == "hastur":
        return [card for _, card in _opponent_cultists(s, pending.influencer, only_free=True)] or [None]
    if effect == "yog_sothoth":
        return _hunter_destinations(s) + ([HOME] if s.hunter is not None else [])
    return [None]


def _resolve_power(em: Emitter, seat: int, target: str | None) -> None:
    s = em.state
    pending = s.pending
    require(
        target in power_targets(s),
        "rules/invalid_power_target",
        f"That is not a choice {OLD_ONES[pending.old_one]['name']}'s power allows.",
        target=target,
    )
    opponent = other(seat)
    match OLD_ONES[pending.old_one]["effect"]:
        case "azathoth":
            if s.artifact_deck:
                em.emit("artifact_drawn", seat=seat, card=s.artifact_deck[0], secret={"card": [seat]})
        case "hastur":
            if target is not None:
                where = next(n for n, c in _opponent_cultists(s, seat, only_free=True) if c == target)
                em.emit("cultist_destroyed", seat=opponent, card=target, location=where, by=pending.old_one)
        case "yog_sothoth":
            _move_hunter(em, None if target == HOME else target, pending.old_one)
        case "shub_niggurath":
            em.emit("draws_owed", seat=seat, count=2)
        case "cthulhu":
            for loc in s.locations:
                card = highest(loc.sides[opponent])
                if loc.old_one is None and card is not None:
                    em.emit("cultist_destroyed", seat=opponent, card=card, location=loc.name, by=pending.old_one)
        case "nyarlathotep":
            if s.monster_deck:
                em.emit("monster_drawn", seat=seat, card=s.monster_deck[0], secret={"card": [seat]})
        case effect:
            raise AssertionError(f"unknown Old One effect {effect!r}")
    em.emit("power_resolved", seat=seat, old_one=pending.old_one)


# -- Monsters and Artifacts ----------------------------------------------------------------------------------


def monster_targets(s: Table, seat: int, monster: str, where: str) -> list[tuple[str | None, bool]]:
    """(target, recall_hunter) pairs the Monster allows at ``where``; empty when it cannot go there."""
    card = MONSTERS[monster]
    loc = location(s, where)
    if s.hunter == where or (loc.old_one is not None and not card["old_one_locations"]):
        return []
    match card["effect"]:
        case "destroy_highest" | "stay" | "carry_hunter" | "destroy_all":
            return [(None, False)]
        case "to_valley":
            return [(c, False) for c in loc.sides[other(seat)].cultists]
        case "move_own":
            return [
                (c, False)
                for src in s.locations
                if src.name != where and src.old_one is None
                for c in src.sides[seat].cultists
            ]
        case "free_play":
            return [
                (c, recall) for c in s.hands[seat] if c in CULTISTS for recall in _recall_options(s, seat, c, where)
            ]
        case "steal_low":
            limit = card["max_number"]
            return [(c, False) for c in loc.sides[other(seat)].cultists if cards.number(c) <= limit]
    raise AssertionError(card["effect"])


def _play_monster(em: Emitter, seat: int, command: Mapping[str, Any]) -> None:
    s = em.state
    monster, where = command["card"], command["location"]
    target, recall = command["target"], command["recall_hunter"]
    require(monster in s.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.", card=monster)
    require(monster in MONSTERS, "rules/not_a_monster", "That card is not a Monster.", card=monster)
    _require_playable_location(s, where, old_one_allowed=MONSTERS[monster]["old_one_locations"])
    require(
        (target, recall) in monster_targets(s, seat, monster, where),
        "rules/invalid_monster_target",
        f"{MONSTERS[monster]['name']} cannot do that here.",
        target=target,
    )
    effect = MONSTERS[monster]["effect"]
    em.emit("monster_played", seat=seat, card=monster, location=where, stays=effect == "stay")
    loc = location(em.state, where)
    match effect:
        case "destroy_highest":
            card = highest(loc.sides[other(seat)])
            if card is not None:
                em.emit("cultist_destroyed", seat=other(seat), card=card, location=where, by=monster)
        case "stay":
            pass
        case "carry_hunter":
            _move_hunter(em, where, monster)
        case "to_valley":
            em.emit("cultist_sent_to_valley", seat=other(seat), card=target, location=where)
        case "move_own":
            src = next(loc.name for loc in s.locations if target in loc.sides[seat].cultists)
            em.emit("cultist_moved", seat=seat, card=target, **{"from": src, "to": where})
        case "free_play":
            em.emit("cultist_played", seat=seat, card=target, location=where, action=False)
            _set_abilities(em, seat, target, where, recall)
        case "destroy_all":
            for side_seat, side in enumerate(loc.sides):
                for card in side.cultists:
                    em.emit("cultist_destroyed", seat=side_seat, card=card, location=where, by=monster)
        case "steal_low":
            em.emit("cultist_crossed", seat=seat, card=target, location=where)


def artifact_options(s: Table, seat: int, artifact: str) -> list[tuple[str | None, str | None, bool]]:
    """(target, location, recall_hunter) triples the Artifact allows now."""
    match ARTIFACTS[artifact]["effect"]:
        case "draw_two" | "extra_action":
            return [(None, None, False)]
        case "move_hunter":
            return [(t, None, False) for t in _hunter_destinations(s) + ([HOME] if s.hunter is not None else [])]
        case "play_on_old_one":
            return [
                (c, loc.name, recall)
                for loc in s.locations
                if loc.old_one is not None and s.hunter != loc.name
                for c in s.hands[seat]
                if c in CULTISTS
                for recall in _recall_options(s, seat, c, loc.name)
            ]
        case "destroy_one":
            return [(c, None, False) for _, c in _opponent_cultists(s, seat, only_free=False)]
        case "take_from_valley":
            return [(c, None, False) for c in sorted(set(s.valley))]
    raise AssertionError(artifact)


def _play_artifact(em: Emitter, seat: int, command: Mapping[str, Any]) -> None:
    s = em.state
    artifact = command["card"]
    target, where, recall = command["target"], command["location"], command["recall_hunter"]
    require(artifact in s.hands[seat], "rules/card_not_in_hand", "That card is not in your hand.", card=artifact)
    require(artifact in ARTIFACTS, "rules/not_an_artifact", "That card is not an Artifact.", card=artifact)
    require(
        (target, where, recall) in artifact_options(s, seat, artifact),
        "rules/invalid_artifact_target",
        f"The {ARTIFACTS[artifact]['name']} cannot do that now.",
        target=target,
    )
    em.emit("artifact_played", seat=seat, card=artifact)
    match ARTIFACTS[artifact]["effect"]:
        case "draw_two":
            em.emit("draws_owed", seat=seat, count=2)
        case "extra_action":
            em.emit("extra_action_gained", seat=seat)
        case "move_hunter":
            _move_hunter(em, None if target == HOME else target, artifact)
        case "play_on_old_one":
            em.emit("cultist_played", seat=seat, card=target, location=where, action=False)
            _set_abilities(em, seat, target, where, recall)
        case "destroy_one":
            src = next(n for n, c in _opponent_cultists(s, seat, only_free=False) if c == target)
            em.emit("cultist_destroyed", seat=other(seat), card=target, location=src, by=artifact)
        case "take_from_valley":
            em.emit("valley_card_taken", seat=seat, card=target)


# -- legal commands ------------------------------------------------------------------------------------------


def legal_commands(state: Table, seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    if state.pending is not None:
        return [{"type": "resolve_power", "target": t} for t in power_targets(state)]
    if state.owed[seat] > 0:
        return [{"type": "draw_owed_cards"}]
    hand = state.hands[seat]
    out: list[dict[str, Any]] = [{"type": "draw_card", "source": "deck"}]
    if not _forced_draw(state):
        if state.valley:
            out.append({"type": "draw_card", "source": "valley"})
        playable = [loc for loc in free_locations(state) if loc != state.hunter]
        destinations = _hunter_destinations(state)
        for card in hand:
            if card not in CULTISTS:
                continue
            for where in playable:
                for recall in _recall_options(state, seat, card, where):
                    out.append({"type": "play_cultist", "card": card, "location": where, "recall_hunter": recall})
            if _valley_accepts(state, card):
                out += [{"type": "play_to_valley", "card": card, "hunter_to": to} for to in destinations]
    for card in hand:
        if card in MONSTERS:
            for where in LOCATIONS:
                for target, recall in monster_targets(state, seat, card, where):
                    out.append(
                        {"type": "play_monster", "card": card, "location": where, "target": target, "recall_hunter": recall}
                    )
        elif card in ARTIFACTS:
            for target, where, recall in artifact_options(state, seat, card):
                out.append(
                    {"type": "play_artifact", "card": card, "target": target, "location": where, "recall_hunter": recall}
                )
    return out
