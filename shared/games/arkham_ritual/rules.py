"""Arkham Ritual's rules as a Decider: setup, decide, evolve, legal commands, views, outcome, resample.

Rulebook: ``shared/rulebooks/arkham-ritual.md`` (sections cited as "5-1", "10-4"…); rulings where it is silent:
``docs/rulings/arkham-ritual.md``. Every seat sees every held card but its own; the card being passed is seen by
the Active Player who drew it (and by whoever saw it on top of the Deck); Dummy players' cards are public.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from marshmallow import Schema, fields

from shared.kernel import EVERYONE, Event, Outcome, ev, rng, sees
from shared.kernel.errors import RuleViolation, require
from shared.games.arkham_ritual import cards as C
from shared.games.arkham_ritual.state import (
    ArkhamRitual,
    Drawing,
    Finished,
    Offered,
    Passing,
    Peeking,
    Resolving,
    Round,
    RoundResult,
)

# -- commands ------------------------------------------------------------------------------------------------


class DrawCard(Schema):
    """6-1 (2): the Active Player draws the top card of the Deck and looks at it."""


class PassCard(Schema):
    """6-1 (3) and 6-2-2: pass the face-down card to a player with a hand on the table (``to=None``: nobody is left)."""

    to = fields.Integer(required=False, allow_none=True, load_default=None)


class TakeCard(Schema):
    """6-2-1: discard your card face up and take the passed card without looking at it."""


class ReturnTopCard(Schema):
    """10-2 Magical Orb: put the card you looked at back on top of the Deck."""


class RemoveTopCard(Schema):
    """10-2 Magical Orb: remove the card you looked at from the game, face down."""


COMMANDS: dict[str, type[Schema]] = {
    "draw_card": DrawCard,
    "pass_card": PassCard,
    "take_card": TakeCard,
    "return_top_card": ReturnTopCard,
    "remove_top_card": RemoveTopCard,
}

# -- small helpers -------------------------------------------------------------------------------------------


def dummies_for(players: int) -> int:
    """14: two Dummy players at 3 players, one at 4, none from 5."""
    return max(0, 5 - players)


def others(players: int, seat: int) -> list[int]:
    """Every seat but ``seat``: the audience of a card ``seat`` holds."""
    return [s for s in range(players) if s != seat]


def participants(state: ArkhamRitual) -> int:
    """14: Dummy players count as players when counting players."""
    return state.players + state.dummy_count


def held_cards(r: Round) -> list[int]:
    """The cards of every seat, then every Dummy player (participant order)."""
    return [c for c in r.hands if c is not None] + [c for c in r.dummies if c is not None]


class _Log:
    """Events emitted by one decision, folded as they are emitted so later rules see their effect."""

    def __init__(self, state: ArkhamRitual | None):
        self.state = state
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)


# -- setup ---------------------------------------------------------------------------------------------------


def setup(players: int, options: Mapping[str, Any], entropy: bytes) -> list[Event]:
    """3: 7 Sanity each, the 22 cards chosen by the options; then the first round (5, 5-1)."""
    chosen = C.cards_in_play({group: options.get(group, keys[0]) for group, keys in C.GROUPS.items()})
    log = _Log(None)
    log.add(
        ev(
            "game_started",
            players=players,
            dummies=dummies_for(players),
            cards=list(chosen),
            doom_track=bool(options.get("doom_track", False)),
            competitive=bool(options.get("competitive", False)),
            sanity=C.START_SANITY,
        )
    )
    _start_round(log, rng(entropy))
    return log.events


def _start_round(log: _Log, rnd: random.Random) -> None:
    """5: shuffle all 22 cards, deal one to each player (Dummies face up), the rest is the Deck; 5-1: Active Player."""
    state = log.state
    number = 1 if state.round is None else state.round.number + 1
    log.add(ev("round_started", round=number))
    order = sorted(state.cards)
    rnd.shuffle(order)
    for seat in range(state.players):
        log.add(ev("hand_dealt", seat=seat, card=order[seat], secret={"card": others(state.players, seat)}))
    for dummy in range(state.dummy_count):
        log.add(ev("dummy_dealt", dummy=dummy, card=order[state.players + dummy]))
    deck = order[state.players + state.dummy_count :]
    log.add(ev("deck_formed", size=len(deck), cards=deck, secret={"cards": []}))
    if state.round is None:
        log.add(ev("active_player_chosen", seat=rnd.randrange(state.players), rule="random"))
    else:
        log.add(ev("active_player_chosen", seat=_lowest_sanity_seat(state), rule="lowest_sanity"))


def _lowest_sanity_seat(state: ArkhamRitual) -> int:
    """5-1: lowest Sanity; on a tie, the closest clockwise from the last Active Player (who comes last)."""
    last = state.round.active
    lowest = min(state.sanity)
    for step in range(1, state.players + 1):
        seat = (last + step) % state.players
        if state.sanity[seat] == lowest:
            return seat
    raise AssertionError("no seat has the lowest sanity")


# -- decide --------------------------------------------------------------------------------------------------


def to_act(state: ArkhamRitual) -> frozenset[int]:
    match state.phase:
        case Drawing() | Passing():
            return frozenset({state.round.active})
        case Offered(holder=holder):
            return frozenset({holder})
        case Peeking(seat=seat):
            return frozenset({seat})
        case _:
            return frozenset()


def decide(state: ArkhamRitual, command: Mapping[str, Any], seat: int, entropy: bytes) -> list[Event]:
    phase = state.phase
    kind = command["type"]
    require(not isinstance(phase, Finished), "rules/game_over", "The game is over.")
    acting = to_act(state)
    if seat not in acting:
        raise RuleViolation(
            "rules/not_your_turn", f"It is seat {min(acting)}'s decision, not yours.", {"to_act": sorted(acting)}
        )
    log = _Log(state)
    match phase:
        case Drawing():
            require(kind == "draw_card", "rules/must_draw_first", "Draw the top card of the Deck first.")
            card = state.round.deck[0]
            log.add(ev("card_drawn", seat=seat, card=card, secret={"card": [seat]}))
        case Passing():
            require(
                kind != "take_card",
                "rules/active_player_may_not_keep_the_card",
                "The Active Player must pass the card to a Follower and may not keep it.",
            )
            require(kind == "pass_card", "rules/must_pass_the_card", "Pass the card you drew to a Follower.")
            _check_target(state, command["to"], seat)
            log.add(ev("card_passed", seat=seat, to=command["to"]))
        case Offered():
            if kind == "take_card":
                _take(log, seat, entropy)
            elif kind == "pass_card":
                to = command["to"]
                if to is None:
                    require(
                        not state.round.on_table,
                        "rules/must_pass_to_a_hand_on_the_table",
                        "Some players still have a hand on the table: pass the card to one of them.",
                        on_table=sorted(state.round.on_table),
                    )
                    log.add(ev("card_unclaimed", seat=seat, card=phase.card))
                    _end_round(log, "all_passed", rng(entropy))
                else:
                    _check_target(state, to, seat)
                    log.add(ev("card_passed", seat=seat, to=to))
            else:
                raise RuleViolation(
                    "rules/must_take_or_pass", "Take the card you were passed, or pass it on without looking."
                )
        case Peeking():
            if kind == "return_top_card":
                log.add(ev("top_card_returned", seat=seat))
            elif kind == "remove_top_card":
                log.add(ev("top_card_removed", seat=seat, card=phase.card, secret={"card": [seat]}))
            else:
                raise RuleViolation(
                    "rules/must_return_or_remove_the_top_card",
                    "Return the card you looked at to the top of the Deck, or remove it from the game face down.",
                )
            _end_turn(log, entropy)
        case _:
            raise AssertionError(f"no decision in {phase!r}")
    return log.events


def _check_target(state: ArkhamRitual, to: Any, seat: int) -> None:
    """6-1 (3), 6-2-2, 14: the card goes to a seat with a hand on the table; never to a Dummy, never kept."""
    if to is not None and state.players <= to < state.players + state.dummy_count:
        raise RuleViolation("rules/dummy_players_never_receive_cards", "A Dummy player never receives a card.")
    require(
        to is not None and 0 <= to < state.players,
        "rules/no_such_player",
        "Name the seat you pass the card to.",
    )
    require(to != seat, "rules/must_pass_to_a_hand_on_the_table", "You may not pass the card to yourself.")
    require(
        to in state.round.on_table,
        "rules/must_pass_to_a_hand_on_the_table",
        "Pass the card to a player who still has a hand on the table.",
        on_table=sorted(state.round.on_table),
    )


def _take(log: _Log, seat: int, entropy: bytes) -> None:
    """6-2-1: discard your card face up, take the passed card, then resolve the discarded Event (10-2)."""
    state = log.state
    card = state.phase.card
    discarded = state.round.hands[seat]
    log.add(
        ev("card_taken", seat=seat, card=card, discarded=discarded, secret={"card": others(state.players, seat)})
    )
    match C.key(discarded):
        case "elder_sign":
            _end_round(log, "elder_sign", rng(entropy))
        case "gate":
            holder = _great_old_one_holder(log.state)
            if holder is None:
                log.add(ev("gate_found_no_great_old_one", seat=seat))
                _end_turn(log, entropy)
            else:
                _end_round(log, "great_old_one", rng(entropy), holder)
        case "magical_orb" if log.state.round.deck:
            log.add(ev("top_card_seen", seat=seat, card=log.state.round.deck[0], by="magical_orb", secret={"card": [seat]}))
        case "shining_trapezohedron" if log.state.round.deck:
            top = log.state.round.deck[0]
            sane = C.is_sane(top)
            log.add(
                ev("top_card_seen", seat=seat, card=top, by="shining_trapezohedron", sane=sane, secret={"card": [seat]})
            )
            _change_sanity(log, seat, 1 if sane else -1, "shining_trapezohedron")
            if log.state.sanity[seat] == 0:
                _end_game(log)
            else:
                _end_turn(log, entropy)
        case _:
            _end_turn(log, entropy)


def _great_old_one_holder(state: ArkhamRitual) -> int | None:
    """10-2 Gate, FAQ Q4: the participant (seat, then Dummy ``players + d``) holding a Great Old One, if any."""
    for index, card in enumerate(state.round.hands + state.round.dummies):
        if card is not None and C.is_great_old_one(card):
            return index
    return None


def _change_sanity(log: _Log, seat: int, change: int, cause: str) -> None:
    """Q5: Sanity stays between 0 and 7; only a real change is recorded."""
    before = log.state.sanity[seat]
    after = max(0, min(C.MAX_SANITY, before + change))
    if after != before:
        log.add(ev("sanity_changed", seat=seat, change=after - before, sanity=after, cause=cause))


def _end_turn(log: _Log, entropy: bytes) -> None:
    """6-3: the round ends when the Deck is empty; otherwise the Deck goes clockwise to the next hand on the table."""
    state = log.state
    r = state.round
    if not r.deck:
        _end_round(log, "deck_empty", rng(entropy))
        return
    nxt = next(
        ((r.active + step) % state.players for step in range(1, state.players) if (r.active + step) % state.players in r.on_table),
        (r.active + 1) % state.players,
    )
    log.add(ev("deck_passed", seat=r.active, to=nxt))


def _end_round(log: _Log, cause: str, rnd: random.Random, goo_holder: int | None = None) -> None:
    """7 (or 10-4): reveal, judge or resolve the Great Old One, then 8: the game ends or a new round starts."""
    r = log.state.round
    log.add(ev("round_ended", round=r.number, cause=cause, cards=list(r.hands), dummy_cards=list(r.dummies)))
    if goo_holder is None:
        _judge(log)
    else:
        _resolve_great_old_one(log, goo_holder)
    if 0 in log.state.sanity:
        _end_game(log)
        return
    if log.state.doom_track:
        log.add(ev("doom_advanced", spot=log.state.doom + 1))
    _start_round(log, rnd)


def survivors(state: ArkhamRitual) -> list[bool]:
    """7-1, 7-2 and the character cards (10-3): who survives the ritual, seats then Dummies."""
    held = held_cards(state.round)
    keys = {C.key(c) for c in held}
    types = Counter(C.artifact_type(c) for c in held if C.is_artifact(c))
    cultist = "cultist" in keys
    professor = "mad_professor" in keys
    out = []
    for card in held:
        clash = C.is_artifact(card) and types[C.artifact_type(card)] > 1
        ok = (not C.is_sane(card) if cultist else C.is_sane(card)) and not clash
        if professor and not C.is_artifact(card):
            ok = False
        if C.key(card) == "wary_student":
            ok = False
        out.append(ok)
    return out


def normal_loss(state: ArkhamRitual, failed: int) -> int:
    """7-3: the number of players who did not survive; 13: the Doom Track spot instead."""
    return state.doom if state.doom_track else failed


def _judge(log: _Log) -> None:
    """7-1 to 7-3 with Investigator and Wary Student (10-3)."""
    state = log.state
    survived = survivors(state)
    failed = survived.count(False)
    loss = normal_loss(state, failed)
    log.add(ev("ritual_judged", survived=survived, failed=failed, loss=loss))
    for seat in range(state.players):
        card = state.round.hands[seat]
        if not survived[seat]:
            wary = C.key(card) == "wary_student"
            _change_sanity(log, seat, -(1 if wary else loss), "wary_student" if wary else "failed_ritual")
        elif C.key(card) == "investigator":
            _change_sanity(log, seat, 1, "investigator")


def _resolve_great_old_one(log: _Log, holder: int) -> None:
    """10-4: skip the normal end of round; the Great Old One's effect replaces it (characters have no effect)."""
    state = log.state
    r = state.round
    card = (r.hands + r.dummies)[holder]
    goo = C.key(card)
    holder_seat = holder if holder < state.players else None
    log.add(
        ev(
            "great_old_one_awakened",
            card=card,
            holder=holder_seat,
            dummy=None if holder_seat is not None else holder - state.players,
        )
    )
    seats = [s for s in range(state.players)]
    match goo:
        case "cthulhu":
            for seat in seats:
                if seat != holder_seat:
                    _change_sanity(log, seat, -(participants(state) - 1), goo)
        case "nyarlathotep":
            rivals = [s for s in seats if s != holder_seat]
            most = max(state.sanity[s] for s in rivals)
            tied = [s for s in rivals if state.sanity[s] == most]
            loss = normal_loss(state, len(tied))
            lost = 0
            for seat in tied:
                before = log.state.sanity[seat]
                _change_sanity(log, seat, -loss, goo)
                lost += before - log.state.sanity[seat]
            if holder_seat is not None:
                _change_sanity(log, holder_seat, lost, goo)
        case "yog_sothoth":
            least = min(state.sanity)
            lowest = [s for s in seats if state.sanity[s] == least]
            if len(lowest) == 1:
                for seat in seats:
                    if seat not in (lowest[0], holder_seat):
                        _change_sanity(log, seat, -state.sanity[seat], goo)
            else:
                for seat in seats:
                    if seat == holder_seat:
                        _change_sanity(log, seat, 1 - state.sanity[seat], goo)
                    else:
                        _change_sanity(log, seat, -1, goo)
        case "hastur":
            held = held_cards(r)
            with_artifact = [i for i, c in enumerate(held) if C.is_artifact(c)]
            cursed = sum(1 for c in held if not C.is_sane(c))
            loss = normal_loss(state, len(with_artifact)) + cursed
            for index in with_artifact:
                if index < state.players:
                    _change_sanity(log, index, -loss, goo)
        case _:
            raise AssertionError(f"{goo} is not a Great Old One")


def _end_game(log: _Log) -> None:
    """8: players with no Sanity lose, the others win; the competitive variant crowns the most Sanity."""
    state = log.state
    if state.competitive:
        best = max(state.sanity)
        winners = [s for s in range(state.players) if best > 0 and state.sanity[s] == best]
    else:
        winners = [s for s in range(state.players) if state.sanity[s] > 0]
    log.add(ev("game_ended", reason="sanity_lost", winners=winners))


# -- evolve --------------------------------------------------------------------------------------------------


def evolve(state: ArkhamRitual | None, event: Event) -> ArkhamRitual:
    d = event.data
    match event.type:
        case "game_started":
            return ArkhamRitual(
                players=d["players"],
                dummy_count=d["dummies"],
                cards=tuple(d["cards"]),
                doom_track=d["doom_track"],
                competitive=d["competitive"],
                sanity=(d["sanity"],) * d["players"],
                doom=1,
                round=None,
                phase=Resolving(),
                last_result=None,
            )
        case "round_started":
            return replace(
                state,
                round=Round(
                    number=d["round"],
                    hands=(None,) * state.players,
                    dummies=(None,) * state.dummy_count,
                    deck=(),
                    discards=(),
                    removed=(),
                    active=None,
                    on_table=frozenset(),
                    known=frozenset(),
                    shown_colour=frozenset(),
                    cleared=frozenset(),
                ),
                phase=Resolving(),
            )
        case "hand_dealt":
            return _round(state, hands=_put(state.round.hands, d["seat"], d["card"]))
        case "dummy_dealt":
            return _round(state, dummies=_put(state.round.dummies, d["dummy"], d["card"]))
        case "deck_formed":
            return _round(state, deck=tuple(d["cards"]))
        case "active_player_chosen" | "deck_passed":
            seat = d["seat"] if event.type == "active_player_chosen" else d["to"]
            new = _round(state, active=seat, on_table=frozenset(others(state.players, seat)))
            return replace(new, phase=Drawing())
        case "card_drawn":
            r = state.round
            new = _round(state, deck=r.deck[1:], known=r.known | {(d["card"], d["seat"])})
            return replace(new, phase=Passing(card=d["card"]))
        case "card_passed":
            phase = state.phase
            passers = (*phase.passers, phase.holder) if isinstance(phase, Offered) else (d["seat"],)
            new = _round(state, on_table=state.round.on_table - {d["to"]})
            return replace(new, phase=Offered(card=phase.card, holder=d["to"], passers=passers))
        case "card_taken":
            r = state.round
            gone = d["discarded"]
            new = _round(
                state,
                hands=_put(r.hands, d["seat"], d["card"]),
                discards=(*r.discards, gone),
                known=frozenset(k for k in r.known if k[0] != gone),
                shown_colour=r.shown_colour - {gone},
                cleared=r.cleared - {gone},
            )
            return replace(new, phase=Resolving())
        case "card_unclaimed":
            r = state.round
            gone = d["card"]
            new = _round(
                state,
                discards=(*r.discards, gone),
                known=frozenset(k for k in r.known if k[0] != gone),
                shown_colour=r.shown_colour - {gone},
            )
            return replace(new, phase=Resolving())
        case "gate_found_no_great_old_one":
            return _round(state, cleared=state.round.cleared | set(held_cards(state.round)))
        case "top_card_seen":
            r = state.round
            shown = r.shown_colour | {d["card"]} if "sane" in d else r.shown_colour
            new = _round(state, known=r.known | {(d["card"], d["seat"])}, shown_colour=shown)
            phase = Peeking(seat=d["seat"], card=d["card"]) if d["by"] == "magical_orb" else Resolving()
            return replace(new, phase=phase)
        case "top_card_returned":
            return replace(state, phase=Resolving())
        case "top_card_removed":
            r = state.round
            new = _round(state, deck=r.deck[1:], removed=(*r.removed, d["card"]))
            return replace(new, phase=Resolving())
        case "sanity_changed":
            sanity = list(state.sanity)
            sanity[d["seat"]] = d["sanity"]
            return replace(state, sanity=tuple(sanity))
        case "round_ended":
            result = RoundResult(
                number=d["round"],
                cause=d["cause"],
                cards=tuple(d["cards"]),
                dummy_cards=tuple(d["dummy_cards"]),
                survived=None,
                great_old_one=None,
            )
            return replace(state, phase=Resolving(), last_result=result)
        case "ritual_judged":
            return replace(state, last_result=replace(state.last_result, survived=tuple(d["survived"])))
        case "great_old_one_awakened":
            holder = d["holder"] if d["holder"] is not None else state.players + d["dummy"]
            return replace(state, last_result=replace(state.last_result, great_old_one=holder))
        case "doom_advanced":
            return replace(state, doom=d["spot"])
        case "game_ended":
            return replace(state, phase=Finished(reason=d["reason"], winners=tuple(d["winners"])))
        case _:
            raise TypeError(f"arkham-ritual has no event {event.type!r}")


def _put(items: tuple, index: int, value: Any) -> tuple:
    return (*items[:index], value, *items[index + 1 :])


def _round(state: ArkhamRitual, **changes: Any) -> ArkhamRitual:
    return replace(state, round=replace(state.round, **changes))


# -- legal commands, outcome ---------------------------------------------------------------------------------


def legal_commands(state: ArkhamRitual, seat: int) -> list[dict[str, Any]]:
    if seat not in to_act(state):
        return []
    match state.phase:
        case Drawing():
            return [{"type": "draw_card"}]
        case Passing():
            return [{"type": "pass_card", "to": to} for to in sorted(state.round.on_table)]
        case Offered():
            passes = [{"type": "pass_card", "to": to} for to in sorted(state.round.on_table)]
            return [{"type": "take_card"}, *(passes or [{"type": "pass_card", "to": None}])]
        case Peeking():
            return [{"type": "return_top_card"}, {"type": "remove_top_card"}]
        case _:
            return []


def outcome(state: ArkhamRitual) -> Outcome | None:
    if not isinstance(state.phase, Finished):
        return None
    return Outcome(
        reason=state.phase.reason,
        winners=state.phase.winners,
        scores=tuple(float(s) for s in state.sanity),
        details={"competitive": state.competitive, "rounds": state.round.number},
    )


# -- views ---------------------------------------------------------------------------------------------------


def _knows(r: Round, card: int, viewer: Any) -> bool:
    return viewer is EVERYONE or (viewer is not None and (card, viewer) in r.known)


def _colour(card: int) -> str:
    return C.SANE if C.is_sane(card) else C.CURSED


def view(state: ArkhamRitual, viewer: Any) -> dict[str, Any]:
    """What ``viewer`` may know: every held card but its own, public piles, and what it saw face down itself."""
    r = state.round
    phase = state.phase
    if r is None:  # between the setup's first event and the first deal (only reachable by time travel)
        return {"game": "arkham-ritual", "players": state.players, "phase": "setting_up", "sanity": list(state.sanity)}
    out: dict[str, Any] = {
        "game": "arkham-ritual",
        "players": state.players,
        "phase": type(phase).__name__.lower(),
        "round": r.number,
        "to_act": sorted(to_act(state)),
        "active": r.active,
        "sanity": list(state.sanity),
        "doom_track": state.doom_track,
        "doom": state.doom if state.doom_track else None,
        "competitive": state.competitive,
        "cards_in_play": list(state.cards),
        "cards": [
            card if sees(viewer, others(state.players, seat)) else None for seat, card in enumerate(r.hands)
        ],
        "dummies": list(r.dummies),
        "deck_size": len(r.deck),
        "deck_top_colour": _colour(r.deck[0]) if r.deck and r.deck[0] in r.shown_colour else None,
        "discards": list(r.discards),
        "removed_count": len(r.removed),
        "hands_on_table": sorted(r.on_table) if isinstance(phase, (Passing, Offered)) else [],
        "cleared_of_great_old_one": [s for s, c in enumerate(r.hands) if c in r.cleared],
        "passed_card": None,
        "peeking": None,
        "last_round": None,
        "outcome": None,
    }
    if isinstance(phase, (Passing, Offered)):
        passed = {
            "holder": r.active if isinstance(phase, Passing) else phase.holder,
            "passers": list(phase.passers) if isinstance(phase, Offered) else [],
            "colour": _colour(phase.card) if phase.card in r.shown_colour else None,
        }
        if _knows(r, phase.card, viewer):
            passed["card"] = phase.card
        out["passed_card"] = passed
    if isinstance(phase, Peeking):
        out["peeking"] = {"seat": phase.seat}
        if _knows(r, phase.card, viewer):
            out["peeking"]["card"] = phase.card
    if isinstance(viewer, int) and 0 <= viewer < state.players:
        own = r.hands[viewer]
        out["seat"] = viewer
        out["remembered"] = {
            "own_card": own if (own, viewer) in r.known else None,
            "own_card_colour": _colour(own) if own in r.shown_colour else None,
            "deck_top": r.deck[0] if r.deck and (r.deck[0], viewer) in r.known else None,
            "removed": [c for c in r.removed if (c, viewer) in r.known],
        }
    if viewer is EVERYONE:
        out["deck"] = list(r.deck)
        out["removed"] = list(r.removed)
    if state.last_result is not None:
        res = state.last_result
        out["last_round"] = {
            "round": res.number,
            "cause": res.cause,
            "cards": list(res.cards),
            "dummy_cards": list(res.dummy_cards),
            "survived": None if res.survived is None else list(res.survived),
            "great_old_one_holder": res.great_old_one,
        }
    result = outcome(state)
    if result is not None:
        out["outcome"] = result.to_json()
    return out


# -- resample, invariant -------------------------------------------------------------------------------------


def hidden_from(state: ArkhamRitual, seat: int) -> list[int]:
    """The cards ``seat`` cannot see or remember: its own, the Deck, the passed card, removed cards."""
    r = state.round
    spots = [r.hands[seat], *r.deck, *r.removed]
    if isinstance(state.phase, (Passing, Offered)):
        spots.append(state.phase.card)
    return [c for c in spots if c is not None and (c, seat) not in r.known]


def _allowed(r: Round, source: int, target: int) -> bool:
    """May the card at ``source``'s place be ``target`` given what everyone saw (colour shown, Gate cleared)?"""
    if source in r.shown_colour and C.is_sane(source) != C.is_sane(target):
        return False
    if source in r.cleared and C.is_great_old_one(target):
        return False
    return True


def resample(state: ArkhamRitual, seat: int, rnd: random.Random) -> ArkhamRitual:
    """Re-deal what ``seat`` cannot know (own card, Deck, passed card, removed cards) consistently with what it saw."""
    if state.round is None or isinstance(state.phase, Finished):
        return state
    r = state.round
    pool = hidden_from(state, seat)
    mapping = {c: c for c in pool}
    for _ in range(200):
        shuffled = list(pool)
        rnd.shuffle(shuffled)
        if all(_allowed(r, s, t) for s, t in zip(pool, shuffled)):
            mapping = dict(zip(pool, shuffled))
            break
    return relabel(state, mapping)


def resample_unrevealable(state: ArkhamRitual, seat: int, rnd: random.Random) -> ArkhamRitual:
    """Re-deal only what no other seat's next move can show ``seat``: the Deck below its top card, removed cards.

    The kernel's non-interference check compares the events of another seat's next move in both worlds. In this
    game such moves legitimately reveal the rest of what ``seat`` cannot see (a taken card faces the table, a Gate
    shows who holds a Great Old One, the Trapezohedron shows the top card's colour, the round end shows every
    card), so that check runs against this narrower resample; ``resample`` is the full one (see the rulings).
    """
    if state.round is None or isinstance(state.phase, Finished):
        return state
    r = state.round
    pool = [c for c in (*r.deck[1:], *r.removed) if (c, seat) not in r.known]
    shuffled = list(pool)
    rnd.shuffle(shuffled)
    return relabel(state, dict(zip(pool, shuffled)))


def relabel(state: ArkhamRitual, mapping: Mapping[int, int]) -> ArkhamRitual:
    """The same position with the hidden cards renamed by ``mapping`` (knowledge follows the place, not the name)."""

    def m(card: Any) -> Any:
        return mapping.get(card, card) if card is not None else None

    r = state.round
    new_round = replace(
        r,
        hands=tuple(m(c) for c in r.hands),
        dummies=tuple(m(c) for c in r.dummies),
        deck=tuple(m(c) for c in r.deck),
        removed=tuple(m(c) for c in r.removed),
        known=frozenset((m(c), s) for c, s in r.known),
        shown_colour=frozenset(m(c) for c in r.shown_colour),
        cleared=frozenset(m(c) for c in r.cleared),
    )
    phase = state.phase
    if isinstance(phase, (Passing, Offered, Peeking)):
        phase = replace(phase, card=m(phase.card))
    return replace(state, round=new_round, phase=phase)


def invariant(state: ArkhamRitual) -> None:
    """Every card in play is exactly once somewhere; Sanity stays within 0..7."""
    assert len(state.cards) == C.CARDS_IN_PLAY, "22 cards are in play"
    assert all(0 <= s <= C.MAX_SANITY for s in state.sanity), state.sanity
    r = state.round
    if r is None:
        return
    where = [*r.hands, *r.dummies, *r.deck, *r.discards, *r.removed]
    if isinstance(state.phase, (Passing, Offered)):
        where.append(state.phase.card)
    assert None not in where, "every player holds a card"
    assert sorted(where) == sorted(state.cards), "every card is in exactly one place"
    if isinstance(state.phase, Peeking):
        assert r.deck and r.deck[0] == state.phase.card, "the Orb's card is the top of the Deck"
    if isinstance(state.phase, Offered):
        assert state.phase.holder not in r.on_table and state.phase.holder != r.active
    if not isinstance(state.phase, Finished):
        assert all(s > 0 for s in state.sanity), "a running game has no consumed player"
