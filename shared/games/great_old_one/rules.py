"""Rules of Cthulhu: The Great Old One, Elder Edition: decide, evolve, legality, views and the end.

Rulebook: ``shared/rulebooks/cthulhu-the-great-old-one.txt``. Every ruling where it is silent is written down in
``docs/rulings/great-old-one.md`` and pinned by a test named after it.

Shape of play: an opening where every seat may lay down pairs (all seats at once), then turns of four phases
(Draw, Call, Recruit, Horror) ended by ``end_turn``. The seat whose turn it is may play pairs in any phase;
any seat holding a Sign may play it in any phase of any turn, so those seats are to act out of turn too.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from enum import Enum
from itertools import combinations
from typing import Any

from shared.kernel import EVERYONE, Outcome, ev, rng, sees
from shared.kernel.errors import RuleViolation, require
from shared.kernel.events import Event

from shared.games.great_old_one.cards import (
    CULTIST,
    DECK_SIZE,
    EFFECT_OF,
    GREAT_OLD_ONE,
    HORROR_CARDS,
    HORROR_CONNECTION,
    KIND,
    SIGN_CARDS,
    STORY_CARDS,
    STORY_KEYS,
    STORY_OF,
    pair_connections,
)

HAND_SIZE = 9
CENTRE_SIZE = 3
PAIRS_TO_END = 7
SCORE_MATCHED, SCORE_LINKED, SCORE_HORROR, SCORE_CULTIST = 2, 1, 1, -1


class Phase(Enum):
    OPENING = "opening"
    DRAW = "draw"
    CALL = "call"
    RECRUIT = "recruit"
    HORROR = "horror"
    OVER = "over"


TURN_PHASES = frozenset({Phase.DRAW, Phase.CALL, Phase.RECRUIT, Phase.HORROR})


@dataclass(frozen=True, slots=True)
class Pair:
    """A pair in a play area: its two Story cards, Matched or Linked, and the connections it names."""

    cards: tuple[int, int]
    matched: bool
    connections: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Area:
    """A seat's personal play area: public."""

    pairs: tuple[Pair, ...] = ()
    horrors: tuple[int, ...] = ()
    cultist: bool = False


@dataclass(frozen=True, slots=True)
class State:
    players: int
    first_player: int
    phase: Phase
    turn: int
    turn_number: int
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    areas: tuple[Area, ...]
    centre: tuple[int, ...]
    removed: tuple[int, ...]
    opening_done: frozenset[int]
    horror_played: bool
    warded: frozenset[int]
    end_reason: str | None
    finish_round: bool = False
    closing: bool = False


STATE_TYPES = (State, Area, Pair, Phase)

# -- small helpers ------------------------------------------------------------------------------------


def _with(items: tuple, index: int, value: Any) -> tuple:
    return items[:index] + (value,) + items[index + 1 :]


def _add(hand: tuple[int, ...], *cards: int) -> tuple[int, ...]:
    return tuple(sorted(hand + cards))


def _drop(hand: tuple[int, ...], *cards: int) -> tuple[int, ...]:
    gone = set(cards)
    return tuple(c for c in hand if c not in gone)


def _opponents(state: State, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat]


def sign_count(state: State, seat: int) -> int:
    """How many Signs a seat holds: public (see the rulings, "Who holds a Sign is public")."""
    return sum(1 for c in state.hands[seat] if c in SIGN_CARDS)


def score(area: Area) -> int:
    """How To Win: matched pairs 2, linked pairs 1, Horror cards 1, the Cultist -1."""
    pairs = sum(SCORE_MATCHED if p.matched else SCORE_LINKED for p in area.pairs)
    return pairs + SCORE_HORROR * len(area.horrors) + (SCORE_CULTIST if area.cultist else 0)


# -- setup ---------------------------------------------------------------------------------------------


def setup(players: int, options: dict[str, Any], entropy: bytes) -> list[Event]:
    """To Begin: shuffle, deal nine each, turn up three Story cards (the others shuffled back)."""
    first = options.get("first_player", 0)
    finish_round = bool(options.get("finish_round", False))
    require(
        0 <= first < players, "rules/invalid_option", "the first player must be one of the seats at the table",
        option="first_player", players=players,
    )
    r = rng(entropy)
    order = list(range(DECK_SIZE))
    r.shuffle(order)
    events = [
        ev("game_started", players=players, first_player=first, finish_round=finish_round),
        ev("deck_shuffled", order=list(order), secret={"order": []}),
    ]
    for seat in range(players):
        cards = sorted(order[seat * HAND_SIZE : (seat + 1) * HAND_SIZE])
        events.append(ev("cards_dealt", seat=seat, cards=cards, secret={"cards": [seat]}))
    rest = order[players * HAND_SIZE :]
    centre: list[int] = []
    turned: list[int] = []
    for card in rest:
        if len(centre) == CENTRE_SIZE:
            break
        (centre if card in STORY_CARDS else turned).append(card)
    events.append(ev("centre_revealed", cards=centre, returned=turned))
    remaining = [c for c in rest if c not in set(centre)]
    r.shuffle(remaining)
    events.append(ev("deck_shuffled", order=remaining, secret={"order": []}))
    return events


# -- evolve --------------------------------------------------------------------------------------------


def evolve(state: State | None, event: Event) -> State:
    d = event.data
    match event.type:
        case "game_started":
            n = d["players"]
            return State(
                players=n, first_player=d["first_player"], phase=Phase.OPENING, turn=d["first_player"], turn_number=0,
                deck=(), hands=((),) * n, areas=(Area(),) * n, centre=(), removed=(), opening_done=frozenset(),
                horror_played=False, warded=frozenset(), end_reason=None, finish_round=d.get("finish_round", False),
            )
        case "deck_shuffled":
            return replace(state, deck=tuple(d["order"]))
        case "cards_dealt":
            return _to_hand(_from_deck(state, d["cards"]), d["seat"], d["cards"])
        case "centre_revealed":
            return replace(_from_deck(state, d["cards"]), centre=tuple(d["cards"]))
        case "pair_played":
            seat, cards = d["seat"], tuple(d["cards"])
            area = state.areas[seat]
            pair = Pair(cards, d["matched"], tuple(d["connections"]))
            state = replace(state, hands=_with(state.hands, seat, _drop(state.hands[seat], *cards)))
            return replace(state, areas=_with(state.areas, seat, replace(area, pairs=area.pairs + (pair,))))
        case "opening_finished":
            return replace(state, opening_done=state.opening_done | {d["seat"]})
        case "turn_began":
            return replace(
                state, phase=Phase.DRAW, turn=d["seat"], turn_number=d["turn_number"], horror_played=False,
                warded=state.warded - {d["seat"]},
            )
        case "phase_began":
            return replace(state, phase=Phase(d["phase"]))
        case "card_drawn":
            return _to_hand(_from_deck(state, [d["card"]]), d["seat"], [d["card"]])
        case "story_called":
            if d["card"] is None:
                return state
            return _move(state, d["card"], d["target"], d["seat"])
        case "card_taken":
            return _move(state, d["card"], d["from_seat"], d["seat"])
        case "card_given":
            return _move(state, d["card"], d["seat"], d["to_seat"])
        case "story_swapped":
            seat, card, centre = d["seat"], d["card"], d["centre_card"]
            hand = _add(_drop(state.hands[seat], card), centre)
            spot = state.centre.index(centre)
            return replace(state, hands=_with(state.hands, seat, hand), centre=_with(state.centre, spot, card))
        case "horror_played":
            seat, card = d["seat"], d["card"]
            area = state.areas[seat]
            state = replace(state, hands=_with(state.hands, seat, _drop(state.hands[seat], card)), horror_played=True)
            return replace(state, areas=_with(state.areas, seat, replace(area, horrors=area.horrors + (card,))))
        case "cultist_played":
            seat = d["seat"]
            state = replace(state, hands=_with(state.hands, seat, _drop(state.hands[seat], d["card"])), horror_played=True)
            return replace(state, areas=_with(state.areas, seat, replace(state.areas[seat], cultist=True)))
        case "horror_taken" | "horror_returned":
            owner, card, seat = d["from_seat"], d["card"], d["seat"]
            area = state.areas[owner]
            state = replace(state, areas=_with(state.areas, owner, replace(area, horrors=tuple(h for h in area.horrors if h != card))))
            return _to_hand(state, seat, [card])
        case "sign_played":
            seat, card = d["seat"], d["card"]
            return replace(state, hands=_with(state.hands, seat, _drop(state.hands[seat], card)), removed=state.removed + (card,))
        case "final_round_began":
            return replace(state, closing=True)
        case "ward_raised":
            return replace(state, warded=state.warded | {d["seat"]})
        case "call_passed" | "recruit_passed" | "turn_ended" | "draw_skipped":
            return state
        case "game_ended":
            return replace(state, phase=Phase.OVER, end_reason=d["reason"])
        case _:
            raise TypeError(f"great-old-one: unknown event {event.type!r}")


def _from_deck(state: State, cards: list[int]) -> State:
    gone = set(cards)
    return replace(state, deck=tuple(c for c in state.deck if c not in gone))


def _to_hand(state: State, seat: int, cards: list[int]) -> State:
    return replace(state, hands=_with(state.hands, seat, _add(state.hands[seat], *cards)))


def _move(state: State, card: int, source: int, target: int) -> State:
    hands = _with(state.hands, source, _drop(state.hands[source], card))
    return replace(state, hands=_with(hands, target, _add(hands[target], card)))


# -- what a seat may do -----------------------------------------------------------------------------------


def _pairs_in_hand(hand: tuple[int, ...]) -> list[tuple[int, int, bool, tuple[str, ...]]]:
    stories = [c for c in hand if c in STORY_CARDS]
    out = []
    for a, b in combinations(stories, 2):
        info = pair_connections(a, b)
        if info is not None:
            out.append((a, b, info[0], info[1]))
    return out


def _takeable(state: State, seat: int, connections: tuple[str, ...]) -> list[tuple[int, int]]:
    """Story Cards: a pair naming a connection may take a Horror in play (an opponent's) naming it."""
    return [
        (owner, h)
        for owner in _opponents(state, seat)
        for h in state.areas[owner].horrors
        if HORROR_CONNECTION[h] in connections
    ]


def effect_options(state: State, seat: int, effect: str, played: int) -> list[dict[str, Any]]:
    """Every way ``seat`` may carry out ``effect`` (of card ``played``); one empty way when it has no target."""
    opponents = _opponents(state, seat)
    hand = [c for c in state.hands[seat] if c != played]
    match effect:
        case "draw_two" | "ward":
            ways: list[dict[str, Any]] = [{}]
        case "take_random":
            ways = [{"target": t} for t in opponents if state.hands[t] and t not in state.warded]
        case "give_chosen":
            ways = [{"target": t, "chosen": c} for c in hand for t in opponents]
        case "swap_centre":
            ways = [{"chosen": c, "centre": x} for c in hand if c in STORY_CARDS for x in state.centre]
        case "return_horror":
            ways = [{"chosen": h} for t in opponents for h in state.areas[t].horrors]
        case _:
            raise ValueError(f"unknown effect {effect!r}")
    return [{"target": w.get("target"), "chosen": w.get("chosen"), "centre": w.get("centre")} for w in ways or [{}]]


def _pair_commands(state: State, seat: int, with_takes: bool) -> list[dict[str, Any]]:
    cmds = []
    for a, b, _, conns in _pairs_in_hand(state.hands[seat]):
        cmds.append({"type": "play_pair", "cards": [a, b], "take": None})
        if with_takes:
            cmds.extend({"type": "play_pair", "cards": [a, b], "take": h} for _, h in _takeable(state, seat, conns))
    return cmds


def _sign_commands(state: State, seat: int) -> list[dict[str, Any]]:
    return [
        {"type": "play_sign", "card": card, **way}
        for card in state.hands[seat]
        if card in SIGN_CARDS
        for way in effect_options(state, seat, EFFECT_OF[card], card)
    ]


def _callable(state: State, seat: int) -> list[int]:
    return [t for t in _opponents(state, seat) if state.hands[t]]


def legal_commands(state: State, seat: int) -> list[dict[str, Any]]:
    """Every command ``seat`` may post now, complete as posted."""
    if state.phase is Phase.OVER:
        return []
    if state.phase is Phase.OPENING:
        if seat in state.opening_done:
            return []
        return _pair_commands(state, seat, with_takes=False) + [{"type": "finish_opening"}]
    cmds: list[dict[str, Any]] = []
    if seat == state.turn:
        cmds += _pair_commands(state, seat, with_takes=True)
        cmds += _phase_commands(state, seat)
    return cmds + _sign_commands(state, seat)


def _phase_commands(state: State, seat: int) -> list[dict[str, Any]]:
    hand = state.hands[seat]
    match state.phase:
        case Phase.DRAW:
            return [{"type": "draw_card"}]
        case Phase.CALL:
            targets = _callable(state, seat)
            if not targets:
                return [{"type": "pass_call"}]
            return [{"type": "call_story", "target": t, "story": s} for t in targets for s in STORY_KEYS]
        case Phase.RECRUIT:
            cmds = [
                {"type": "recruit_swap", "card": c, "centre_card": x} for c in hand if c in STORY_CARDS for x in state.centre
            ]
            if state.deck:
                cmds.append({"type": "recruit_draw"})
            return cmds or [{"type": "pass_recruit"}]
        case Phase.HORROR:
            cmds = []
            if not state.horror_played:
                for card in hand:
                    if card in HORROR_CARDS:
                        cmds += [{"type": "play_horror", "card": card, **w} for w in effect_options(state, seat, EFFECT_OF[card], card)]
                    elif card == CULTIST:
                        cmds.append({"type": "play_horror", "card": card, "target": None, "chosen": None, "centre": None})
            return cmds + [{"type": "end_turn"}]
    return []


def to_act(state: State) -> frozenset[int]:
    """The seat whose turn it is, and every seat holding a Sign (Signs may be played during any turn)."""
    if state.phase is Phase.OVER:
        return frozenset()
    if state.phase is Phase.OPENING:
        return frozenset(range(state.players)) - state.opening_done
    return frozenset({state.turn} | {s for s in range(state.players) if sign_count(state, s)})


# -- decide ----------------------------------------------------------------------------------------------


def decide(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """Check a command against the rules and return the facts it produces."""
    kind = command["type"]
    if kind == "play_sign":
        return _play_sign(state, command, seat, entropy)
    if state.phase is Phase.OPENING:
        require(seat not in state.opening_done, "rules/opening_finished", "you have finished your opening plays")
        if kind == "play_pair":
            require(command["take"] is None, "rules/no_horror_to_take", "no Horror card is in play to take")
            return _play_pair(state, command, seat)
        if kind == "finish_opening":
            events = [ev("opening_finished", seat=seat)]
            if len(state.opening_done) + 1 == state.players:
                events.append(ev("turn_began", seat=state.first_player, turn_number=1))
            return events
        raise RuleViolation("rules/opening_in_progress", "the game has not begun: play opening pairs or finish your opening")
    require(seat == state.turn, "rules/not_your_turn", "it is not your turn")
    if kind == "finish_opening":
        raise RuleViolation("rules/opening_over", "the opening is over")
    if kind == "play_pair":
        return _play_pair(state, command, seat)
    handler = {
        "draw_card": (Phase.DRAW, _draw_phase),
        "call_story": (Phase.CALL, _call_story),
        "pass_call": (Phase.CALL, _pass_call),
        "recruit_swap": (Phase.RECRUIT, _recruit_swap),
        "recruit_draw": (Phase.RECRUIT, _recruit_draw),
        "pass_recruit": (Phase.RECRUIT, _pass_recruit),
        "play_horror": (Phase.HORROR, _play_horror),
        "end_turn": (Phase.HORROR, _end_turn),
    }.get(kind)
    if handler is None:
        raise RuleViolation("rules/unknown_command", f"there is no command {kind!r}")
    phase, fn = handler
    require(
        state.phase is phase, "rules/wrong_phase", f"that is done in the {phase.value} phase; this is the {state.phase.value} phase",
        phase=state.phase.value,
    )
    return fn(state, command, seat, entropy)


def _apply(state: State, events: list[Event]) -> State:
    for e in events:
        state = evolve(state, e)
    return state


def _game_over(state: State, reason: str) -> Event:
    """How To Win: the game ends and all players reveal their hands (in the final view and the audit record)."""
    return ev("game_ended", reason=reason, hands=[list(h) for h in state.hands], secret={"hands": []})


def _play_pair(state: State, command: dict[str, Any], seat: int) -> list[Event]:
    cards = command["cards"]
    require(len(cards) == 2, "rules/pair_is_two_cards", "a pair is two cards")
    a, b = cards
    require(a < b, "rules/pair_not_in_order", "list the two cards of a pair in ascending order")
    hand = state.hands[seat]
    require(a in hand and b in hand, "rules/card_not_in_hand", "you do not hold those cards")
    info = pair_connections(a, b)
    require(info is not None, "rules/not_a_pair", "those cards are neither a Matched nor a Linked pair")
    matched, conns = info
    events = [ev("pair_played", seat=seat, cards=[a, b], matched=matched, connections=list(conns))]
    take = command["take"]
    if take is not None:
        owners = {h: owner for owner, h in _takeable(state, seat, conns)}
        require(
            take in owners, "rules/horror_not_named",
            "you may take only a Horror card in an opponent's play area naming a connection your pair names",
        )
        events.append(ev("horror_taken", seat=seat, from_seat=owners[take], card=take))
    after = _apply(state, events)
    if len(after.areas[seat].pairs) >= PAIRS_TO_END and state.phase is not Phase.OPENING:
        if not state.finish_round:
            events.append(_game_over(after, "seventh_pair"))
        elif not state.closing:
            events.append(ev("final_round_began", seat=seat))
    return events


def _draw_phase(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """Draw Phase: draw a card; with the deck empty there is nothing to draw (ruling: the round is finished)."""
    drawn = [_drawn(seat, state.deck[0])] if state.deck else [ev("draw_skipped", seat=seat)]
    return [*drawn, ev("phase_began", phase=Phase.CALL.value)]


def _drawn(seat: int, card: int) -> Event:
    return ev("card_drawn", seat=seat, card=card, sign=card in SIGN_CARDS, secret={"card": [seat]})


def _random_card(hand: tuple[int, ...], entropy: bytes) -> int:
    """A card at random from a (sorted) hand, drawn from the command's entropy."""
    return hand[rng(entropy).randrange(len(hand))]


def _call_story(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """Call Phase: name a Story card to an opponent; they hand it over if held, else take one at random."""
    target, story = command["target"], command["story"]
    require(story in STORY_KEYS, "rules/no_such_story", "there is no Story card by that name", story=story[:64])
    require(0 <= target < state.players and target != seat, "rules/call_an_opponent", "call one of your opponents")
    require(bool(state.hands[target]), "rules/opponent_hand_empty", "that opponent holds no cards")
    hand = state.hands[target]
    if target in state.warded:
        called = ev("story_called", seat=seat, target=target, story=story, warded=True, card=None, handed=False)
    else:
        held = [c for c in hand if STORY_OF[c] == story]
        card, handed = (held[0], True) if held else (_random_card(hand, entropy), False)
        called = ev(
            "story_called", seat=seat, target=target, story=story, warded=False, card=card, handed=handed,
            sign=card in SIGN_CARDS, secret={"card": [seat, target], "handed": [seat, target]},
        )
    return [called, ev("phase_began", phase=Phase.RECRUIT.value)]


def _pass_call(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    require(not _callable(state, seat), "rules/must_call", "an opponent holds cards: you must call")
    return [ev("call_passed", seat=seat), ev("phase_began", phase=Phase.RECRUIT.value)]


def _recruit_swap(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """Recruit Phase: switch a Story card from your hand with one in the centre."""
    card, centre = command["card"], command["centre_card"]
    _check_swap(state, seat, card, centre)
    return [ev("story_swapped", seat=seat, card=card, centre_card=centre), ev("phase_began", phase=Phase.HORROR.value)]


def _check_swap(state: State, seat: int, card: Any, centre: Any) -> None:
    require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
    require(card in STORY_CARDS, "rules/swap_story_only", "only a Story card can be switched with the centre")
    require(centre in state.centre, "rules/not_in_centre", "that card is not in the centre")


def _recruit_draw(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """Recruit Phase: or draw a card from the deck."""
    require(bool(state.deck), "rules/deck_empty", "the deck is empty: switch a Story card instead")
    return [_drawn(seat, state.deck[0]), ev("phase_began", phase=Phase.HORROR.value)]


def _pass_recruit(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    can_swap = any(c in STORY_CARDS for c in state.hands[seat])
    require(not can_swap and not state.deck, "rules/must_recruit", "you can switch a Story card or draw: you must recruit")
    return [ev("recruit_passed", seat=seat), ev("phase_began", phase=Phase.HORROR.value)]


def _play_horror(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """Horror Phase: you may play one Horror or the Cultist card from your hand to your play area."""
    card = command["card"]
    require(not state.horror_played, "rules/one_horror_per_turn", "you have already played a Horror or the Cultist this turn")
    require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
    require(card in HORROR_CARDS or card == CULTIST, "rules/not_a_horror", "only a Horror card or the Cultist can be played now")
    way = {"target": command["target"], "chosen": command["chosen"], "centre": command["centre"]}
    if card == CULTIST:
        require(way == {"target": None, "chosen": None, "centre": None}, "rules/cultist_has_no_effect", "the Cultist has no effect to aim")
        return [ev("cultist_played", seat=seat, card=card)]
    return [ev("horror_played", seat=seat, card=card), *_effect(state, seat, card, way, entropy)]


def _play_sign(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """Sign Cards: playable at any time during any turn, by any seat; then removed from the game."""
    card = command["card"]
    require(state.phase in TURN_PHASES, "rules/signs_during_turns", "Signs are played during a turn, not before the first")
    require(card in state.hands[seat], "rules/card_not_in_hand", "you do not hold that card")
    require(card in SIGN_CARDS, "rules/not_a_sign", "that card is not a Sign")
    way = {"target": command["target"], "chosen": command["chosen"], "centre": command["centre"]}
    return [ev("sign_played", seat=seat, card=card), *_effect(state, seat, card, way, entropy)]


def _effect(state: State, seat: int, card: int, way: dict[str, Any], entropy: bytes) -> list[Event]:
    """Carry out a Horror's or a Sign's effect; one with no possible target does nothing (ruling)."""
    effect = EFFECT_OF[card]
    if way not in effect_options(state, seat, effect, card):
        _explain_bad_way(state, seat, effect, card, way)
    match effect:
        case "draw_two":
            return [_drawn(seat, c) for c in state.deck[:2]]
        case "ward":
            return [ev("ward_raised", seat=seat)]
        case "take_random":
            if way["target"] is None:
                return []
            target = way["target"]
            taken = _random_card(state.hands[target], entropy)
            return [ev("card_taken", seat=seat, from_seat=target, card=taken, sign=taken in SIGN_CARDS,
                       secret={"card": [seat, target]})]
        case "give_chosen":
            if way["target"] is None:
                return []
            return [ev("card_given", seat=seat, to_seat=way["target"], card=way["chosen"], sign=way["chosen"] in SIGN_CARDS,
                       secret={"card": [seat, way["target"]]})]
        case "swap_centre":
            if way["chosen"] is None:
                return []
            return [ev("story_swapped", seat=seat, card=way["chosen"], centre_card=way["centre"])]
        case "return_horror":
            if way["chosen"] is None:
                return []
            owner = next(s for s in range(state.players) if way["chosen"] in state.areas[s].horrors)
            return [ev("horror_returned", seat=owner, from_seat=owner, card=way["chosen"])]
    raise AssertionError(effect)


def _explain_bad_way(state: State, seat: int, effect: str, card: int, way: dict[str, Any]) -> None:
    """Refuse an effect aimed where it cannot go, with the most specific reason the seat may be told."""
    target, chosen = way["target"], way["chosen"]
    if effect in ("draw_two", "ward"):
        raise RuleViolation("rules/effect_takes_no_target", "this effect takes no target")
    if effect in ("take_random", "give_chosen") and target is not None:
        require(isinstance(target, int) and 0 <= target < state.players and target != seat, "rules/target_an_opponent", "choose an opponent")
        if effect == "take_random":
            require(target not in state.warded, "rules/hand_warded", "that opponent's hand is warded")
            require(bool(state.hands[target]), "rules/opponent_hand_empty", "that opponent holds no cards")
    if effect == "give_chosen" and chosen is not None:
        require(chosen in state.hands[seat] and chosen != card, "rules/card_not_in_hand", "you do not hold that card")
    if effect == "swap_centre" and chosen is not None:
        _check_swap(state, seat, chosen, way["centre"])
    if effect == "return_horror" and chosen is not None:
        require(
            any(chosen in state.areas[t].horrors for t in _opponents(state, seat)),
            "rules/no_such_horror_in_play", "that Horror card is not in an opponent's play area",
        )
    raise RuleViolation("rules/effect_must_be_carried_out", "carry out the card's effect as written, with every choice it needs")


def _end_turn(state: State, command: dict[str, Any], seat: int, entropy: bytes) -> list[Event]:
    """End of turn; once the deck is empty (or a 7th pair is down, with finish_round) the game ends with the round."""
    nxt = (seat + 1) % state.players
    if (state.closing or not state.deck) and nxt == state.first_player:
        return [ev("turn_ended", seat=seat), _game_over(state, "seventh_pair" if state.closing else "deck_exhausted")]
    return [ev("turn_ended", seat=seat), ev("turn_began", seat=nxt, turn_number=state.turn_number + 1)]


# -- views, outcome, resample, invariant -----------------------------------------------------------------


def view(state: State, viewer: Any) -> dict[str, Any]:
    """Public facts, plus the viewer's own hand; all hands once they are revealed at the end."""
    revealed = state.phase is Phase.OVER
    seats = []
    for s in range(state.players):
        area = state.areas[s]
        entry: dict[str, Any] = {
            "seat": s,
            "hand_size": len(state.hands[s]),
            "signs": sign_count(state, s),
            "pairs": [{"cards": list(p.cards), "matched": p.matched, "connections": list(p.connections)} for p in area.pairs],
            "horrors": list(area.horrors),
            "cultist": area.cultist,
            "score": score(area),
            "warded": s in state.warded,
        }
        if state.phase is Phase.OPENING:
            entry["opening_done"] = s in state.opening_done
        if revealed or sees(viewer, [s]):
            entry["hand"] = list(state.hands[s])
        seats.append(entry)
    out: dict[str, Any] = {
        "phase": state.phase.value,
        "turn": state.turn,
        "turn_number": state.turn_number,
        "first_player": state.first_player,
        "deck_size": len(state.deck),
        "centre": list(state.centre),
        "removed": list(state.removed),
        "horror_played": state.horror_played,
        "seats": seats,
        "pairs_to_end": PAIRS_TO_END,
        "finish_round": state.finish_round,
        "final_round": state.closing,
    }
    if isinstance(viewer, int) and 0 <= viewer < state.players:
        out["hand"] = list(state.hands[viewer])
    if viewer is EVERYONE:
        out["deck"] = list(state.deck)
    if revealed:
        out["end_reason"] = state.end_reason
    return out


def outcome(state: State) -> Outcome | None:
    """How To Win: the Great Old One in hand loses unless its holder's Cultist is in play (then it wins)."""
    if state.phase is not Phase.OVER:
        return None
    scores = tuple(float(score(a)) for a in state.areas)
    holder = next((s for s in range(state.players) if GREAT_OLD_ONE in state.hands[s]), None)
    details: dict[str, Any] = {"end": state.end_reason, "great_old_one": holder, "pairs": [len(a.pairs) for a in state.areas]}
    if holder is not None and state.areas[holder].cultist:
        return Outcome("great_old_one_with_cultist", (holder,), scores, details)
    contenders = [s for s in range(state.players) if s != holder]
    best = max((scores[s], len(state.areas[s].pairs)) for s in contenders)
    winners = tuple(s for s in contenders if (scores[s], len(state.areas[s].pairs)) == best)
    return Outcome("great_old_one_in_hand" if holder is not None else "score", winners, scores, details)


def resample(state: State, seat: int, rand: random.Random) -> State:
    """Redistribute what ``seat`` cannot see: other hands and the deck, keeping sizes and Sign counts."""
    if state.phase is Phase.OVER:
        return state
    others = [s for s in range(state.players) if s != seat]
    hidden = list(state.deck) + [c for s in others for c in state.hands[s]]
    signs = [c for c in hidden if c in SIGN_CARDS]
    plain = [c for c in hidden if c not in SIGN_CARDS]
    rand.shuffle(signs)
    rand.shuffle(plain)
    hands = list(state.hands)
    for s in others:
        k = sign_count(state, s)
        n = len(state.hands[s]) - k
        hands[s] = tuple(sorted(signs[:k] + plain[:n]))
        signs, plain = signs[k:], plain[n:]
    deck = signs + plain
    rand.shuffle(deck)
    return replace(state, hands=tuple(hands), deck=tuple(deck))


def resample_unrevealable(state: State, seat: int, rand: random.Random) -> State:
    """Redistribute only what no single move of another seat can show ``seat``: deck cards among deck places of
    the same kind (a draw or a take says publicly whether the card was a Sign; a random take can hit any card
    of a hand, so hands stay as they are)."""
    if state.phase is Phase.OVER:
        return state
    signs = [c for c in state.deck if c in SIGN_CARDS]
    plain = [c for c in state.deck if c not in SIGN_CARDS]
    rand.shuffle(signs)
    rand.shuffle(plain)
    deck = [signs.pop() if c in SIGN_CARDS else plain.pop() for c in state.deck]
    return replace(state, deck=tuple(deck))


def invariant(state: State) -> None:
    """Every card is in exactly one place; the centre holds three Story cards; areas hold what they may."""
    places: list[int] = list(state.deck) + list(state.centre) + list(state.removed)
    for hand, area in zip(state.hands, state.areas):
        assert list(hand) == sorted(hand), "hands are kept sorted"
        places += hand
        places += [c for p in area.pairs for c in p.cards]
        places += area.horrors
        if area.cultist:
            places.append(CULTIST)
        assert all(pair_connections(*p.cards) == (p.matched, p.connections) for p in area.pairs)
        assert all(h in HORROR_CARDS for h in area.horrors)
    if state.phase is Phase.OPENING and not state.centre:
        return  # mid-setup
    assert sorted(places) == list(range(DECK_SIZE)), "every card is in exactly one place"
    assert len(state.centre) == CENTRE_SIZE and all(c in STORY_CARDS for c in state.centre)
    assert all(c in SIGN_CARDS for c in state.removed)
    assert all(KIND[c] for c in places)
    assert 0 <= state.turn < state.players
