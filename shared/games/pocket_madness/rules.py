"""Pocket Madness rules: setup, decide, evolve, legal commands and who acts (rulebook: pocket-madness.txt).

A turn is a sequence of small commands: the obligatory action (``draw_cards``, or one ``meld_set`` /
``meld_run`` per command for up to three melds, closed by ``end_turn``) and the optional ``seal_portal``
before or after it. Portal powers that need choices become a pending ``Power`` with their own commands.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from shared.games.pocket_madness.cards import (
    AZATHOTH,
    CTHULHU,
    DAGON,
    FACE_DOWN_CARDS,
    FULL_DECK,
    GUG,
    HAND_SIZE,
    LOCATION_NAMES,
    LOCATIONS,
    MAX_DRAW,
    MAX_MELDS_PER_TURN,
    MIN_SET,
    NYARLATHOTEP,
    PORTAL_NAMES,
    SHOGGOTH,
    SHUB_NIGGURATH,
)
from shared.games.pocket_madness.state import (
    EMPTY_HAND,
    Designating,
    Meld,
    Playing,
    Power,
    RoundOver,
    Table,
    Turn,
    hand_add,
    hand_cards,
    hand_minus,
    hand_of,
    slot,
)
from shared.kernel import Event, RuleViolation, ev, rng

State = Designating | Playing | RoundOver
Command = dict[str, Any]


def _fail(code: str, message: str, **details: Any) -> RuleViolation:
    return RuleViolation(f"rules/{code}", message, details)


# -- setup ------------------------------------------------------------------------------------------


def deal_event(players: int, round_no: int, chooser: int | None, entropy: bytes) -> Event:
    """Setup 3-6: shuffle, deal 2 each, set 17 aside unseen, turn the rest face up, shuffle both together."""
    r = rng(entropy)
    cards = list(FULL_DECK)
    r.shuffle(cards)
    hands = [sorted(cards[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(players)]
    rest = cards[HAND_SIZE * players :]
    pile = [(loc, False) for loc in rest[:FACE_DOWN_CARDS]] + [(loc, True) for loc in rest[FACE_DOWN_CARDS:]]
    r.shuffle(pile)
    hand_fields = {f"hand_{s}": hands[s] for s in range(players)}
    return ev(
        "round_dealt",
        round=round_no,
        players=players,
        chooser=chooser,
        deck=[loc if up else None for loc, up in pile],
        face_down=[loc for loc, up in pile if not up],
        **hand_fields,
        secret={"face_down": [], **{f"hand_{s}": [s] for s in range(players)}},
    )


def setup(players: int, options: dict[str, Any], entropy: bytes) -> list[Event]:
    """Deal round 1 and draw its start player at random (recorded as a fact)."""
    dealt = deal_event(players, 1, None, entropy)
    first = rng(entropy + b"first").randrange(players)
    return [dealt, ev("first_player_chosen", seat=first, chooser=None)]


# -- helpers over state -------------------------------------------------------------------------------


def opponents(state: State, seat: int) -> list[int]:
    return [s for s in range(state.players) if s != seat]


def hand_size(state: State, seat: int) -> int:
    return sum(state.table.hands[seat])


def deck_empty(state: Playing) -> bool:
    return not state.table.deck


def shoggoth_binds(state: Playing, seat: int) -> bool:
    """Shoggoth: until the sealer's next turn, its opponents must draw 1 card; an empty deck lifts it."""
    return state.shoggoth is not None and state.shoggoth != seat and not deck_empty(state)


def action_closed(turn: Turn) -> bool:
    """The obligatory action is over: drawn, passed, three melds made, or a seal after melding closed it."""
    if turn.action in ("drew", "passed"):
        return True
    return turn.action in ("sets", "runs") and (turn.melds >= MAX_MELDS_PER_TURN or turn.closed)


def sealable(state: Playing, seat: int) -> list[int]:
    """The portals ``seat`` may seal now: its own, once per turn, each only when its power can take effect."""
    turn = state.turn
    if state.pending is not None or turn.seat != seat or turn.sealed:
        return []
    out = []
    for portal in LOCATIONS:
        if state.table.portals[slot(portal)] != seat:
            continue
        if portal == GUG:
            # Gug replaces the obligatory action, not on the turn it was claimed nor on the Dagon turn right
            # after it, and never dodges Shoggoth.
            if turn.action is not None or gug_fresh(turn) or deck_empty(state) or shoggoth_binds(state, seat):
                continue
        elif portal in (NYARLATHOTEP, SHOGGOTH):
            if deck_empty(state):
                continue
        elif portal in (SHUB_NIGGURATH, AZATHOTH):
            if not any(hand_size(state, o) for o in opponents(state, seat)):
                continue
        elif portal == CTHULHU:
            if not hand_size(state, seat):
                continue
        out.append(portal)
    return out


def gug_fresh(turn: Turn) -> bool:
    """Gug "cannot be played immediately after having been drawn": not on the turn it was claimed, nor on the
    Dagon extra turn that immediately follows that turn (ruling)."""
    return GUG in turn.claimed or turn.gug_claimed_before


def settable(state: Playing, seat: int) -> list[tuple[int, int]]:
    """The (location, count) sets ``seat`` may meld now."""
    turn = state.turn
    if state.pending is not None or turn.seat != seat or shoggoth_binds(state, seat):
        return []
    if turn.action not in (None, "sets") or action_closed(turn):
        return []
    hand = state.table.hands[seat]
    return [(loc, n) for loc in LOCATIONS for n in range(MIN_SET, hand[slot(loc)] + 1)]


def can_meld_run(state: Playing, seat: int) -> bool:
    turn = state.turn
    if state.pending is not None or turn.seat != seat or shoggoth_binds(state, seat):
        return False
    if turn.action not in (None, "runs") or action_closed(turn):
        return False
    return all(state.table.hands[seat])


def draw_counts(state: Playing, seat: int) -> list[int]:
    turn = state.turn
    if state.pending is not None or turn.seat != seat or turn.action is not None:
        return []
    most = 1 if shoggoth_binds(state, seat) else MAX_DRAW
    return list(range(1, min(most, len(state.table.deck)) + 1))


def can_end_turn(state: Playing, seat: int) -> bool:
    """End the turn once the action is taken; with the deck empty, melding is optional (the last turns)."""
    turn = state.turn
    if state.pending is not None or turn.seat != seat:
        return False
    return turn.action is not None or deck_empty(state)


def designator(madness: tuple[int, ...], start: int) -> int:
    """New round: the seat with most Madness; ties go to the earliest in turn order after the start player."""
    players = len(madness)
    order = [(start + k) % players for k in range(1, players + 1)]
    top = max(madness)
    return next(s for s in order if madness[s] == top)


def to_act(state: State) -> frozenset[int]:
    match state:
        case Playing():
            return frozenset({state.turn.seat})
        case Designating():
            return frozenset() if state.chooser is None else frozenset({state.chooser})
        case RoundOver():
            if max(state.madness) >= 10:
                return frozenset()
            return frozenset({designator(state.madness, state.start)})
    raise TypeError(type(state).__name__)


# -- legal commands -----------------------------------------------------------------------------------


def legal_commands(state: State, seat: int) -> list[Command]:
    if seat not in to_act(state):
        return []
    match state:
        case RoundOver():
            return [{"type": "deal_next_round"}]
        case Designating():
            return [{"type": "choose_first_player", "seat": s} for s in range(state.players)]
        case Playing():
            if state.pending is not None:
                return _power_commands(state, seat)
            out: list[Command] = [{"type": "draw_cards", "count": n} for n in draw_counts(state, seat)]
            out += [{"type": "meld_set", "location": loc, "count": n} for loc, n in settable(state, seat)]
            if can_meld_run(state, seat):
                out.append({"type": "meld_run"})
            out += [{"type": "seal_portal", "portal": p} for p in sealable(state, seat)]
            if can_end_turn(state, seat):
                out.append({"type": "end_turn"})
            return out
    raise TypeError(type(state).__name__)


def _power_commands(state: Playing, seat: int) -> list[Command]:
    power = state.pending
    hands = state.table.hands
    if power.portal == CTHULHU:
        out = [
            {"type": "give_card", "location": loc, "seat": o}
            for loc in LOCATIONS
            if hands[seat][slot(loc)]
            for o in opponents(state, seat)
        ]
        if power.given:
            out.append({"type": "stop_giving"})
        return out
    if power.portal == SHUB_NIGGURATH:
        if power.target is None:
            return [{"type": "look_at_hand", "seat": o} for o in opponents(state, seat) if hand_size(state, o)]
        return [{"type": "take_card", "location": loc} for loc in LOCATIONS if hands[power.target][slot(loc)]]
    if power.portal == NYARLATHOTEP:
        return [{"type": "take_deck_card", "position": i} for i in range(len(state.table.deck))]
    raise TypeError(f"no decision for portal {power.portal}")


# -- decide -----------------------------------------------------------------------------------------


class _Tx:
    """The events of one decision, folded as they are emitted so later rules see earlier effects."""

    def __init__(self, state: State):
        self.state = state
        self.events: list[Event] = []

    def emit(self, type: str, **data: Any) -> None:
        event = ev(type, **data)
        self.events.append(event)
        self.state = evolve(self.state, event)


def decide(state: State, command: Command, seat: int, entropy: bytes) -> list[Event]:
    kind = command["type"]
    if seat not in to_act(state):
        raise _fail("not_your_turn", "It is not your turn.")
    tx = _Tx(state)
    match state:
        case RoundOver():
            if kind != "deal_next_round":
                raise _fail("round_is_over", "The round is over: the next round must be dealt first.")
            tx.events.append(deal_event(state.players, state.round + 1, seat, entropy))
            return tx.events
        case Designating():
            if kind != "choose_first_player":
                raise _fail("choose_first_player_first", "Designate the player who goes first in this round.")
            if not 0 <= command["seat"] < state.players:
                raise _fail("no_such_seat", "There is no such player at this table.")
            return [ev("first_player_chosen", seat=command["seat"], chooser=seat)]
        case Playing():
            if state.pending is not None:
                _decide_power(tx, command, seat, entropy)
            else:
                _decide_turn(tx, command, seat, entropy)
            return tx.events
    raise TypeError(type(state).__name__)


def _decide_turn(tx: _Tx, command: Command, seat: int, entropy: bytes) -> None:
    state: Playing = tx.state
    turn = state.turn
    kind = command["type"]
    if kind in ("give_card", "stop_giving", "look_at_hand", "take_card", "take_deck_card"):
        raise _fail("no_power_in_progress", "No portal power is waiting for a decision.")
    if kind in ("deal_next_round", "choose_first_player"):
        raise _fail("round_in_progress", "The round is still being played.")
    if kind == "draw_cards":
        count = command["count"]
        if turn.action is not None:
            raise _fail("action_already_taken", "You have already taken your action this turn.")
        if deck_empty(state):
            raise _fail("deck_empty", "The deck is empty: you can only meld on your last turn.")
        if shoggoth_binds(state, seat) and count != 1:
            raise _fail("must_draw_one_under_shoggoth", "Shoggoth forces you to draw exactly 1 Location card.")
        if not 1 <= count <= MAX_DRAW:
            raise _fail("draw_one_to_three", "You draw 1, 2 or 3 Location cards.")
        if count > len(state.table.deck):
            raise _fail("not_enough_cards_in_deck", "The deck does not hold that many cards.", deck=len(state.table.deck))
        drawn = state.table.deck[:count]
        down = [loc for loc, up in drawn if not up]
        tx.emit(
            "cards_drawn",
            seat=seat,
            count=count,
            revealed=[loc for loc, up in drawn if up],
            face_down=down,
            secret={"face_down": [seat]},
        )
        _after_deck_change(tx, seat)
    elif kind == "meld_set":
        _check_can_meld(state, seat, "sets")
        loc, count = command["location"], command["count"]
        if loc not in LOCATIONS:
            raise _fail("no_such_location", "There is no such Location.")
        if count < MIN_SET:
            raise _fail("set_needs_three", "A set is 3 or more identical Location cards.")
        if state.table.hands[seat][slot(loc)] < count:
            raise _fail("not_enough_cards", f"You do not hold {count} {LOCATION_NAMES[loc]} cards.")
        tx.emit("set_melded", seat=seat, location=loc, count=count)
        owner = tx.state.table.portals[slot(loc)]
        if owner != seat:
            tx.emit("portal_claimed", seat=seat, portal=loc, previous_owner=owner)
        _after_cards_played(tx, seat)
    elif kind == "meld_run":
        _check_can_meld(state, seat, "runs")
        if not all(state.table.hands[seat]):
            raise _fail("run_needs_seven_different", "A run is 7 different Location cards, one of each.")
        number = state.runs + 1
        tx.emit("run_melded", seat=seat, number=number, madness=number)
        _after_cards_played(tx, seat)
    elif kind == "seal_portal":
        _seal(tx, command["portal"], seat, entropy)
    elif kind == "end_turn":
        if not can_end_turn(state, seat):
            raise _fail("action_required", "You must take an action (draw, open a portal or publish) before ending your turn.")
        _end_turn(tx)
    else:
        raise _fail("unknown_command", f"{kind} is not a Pocket Madness command.")


def _check_can_meld(state: Playing, seat: int, kind: str) -> None:
    turn = state.turn
    if shoggoth_binds(state, seat):
        raise _fail("must_draw_one_under_shoggoth", "Shoggoth forces you to draw 1 Location card as your action.")
    if turn.action is not None and turn.action != kind:
        if turn.action in ("sets", "runs"):
            raise _fail("cannot_mix_sets_and_runs", "Your action this turn is either sets (Open a Portal) or runs (Publish).")
        raise _fail("action_already_taken", "You have already taken your action this turn.")
    if turn.melds >= MAX_MELDS_PER_TURN:
        raise _fail("three_melds_per_turn", "You may meld at most 3 sets or 3 runs per turn.")
    if turn.closed:
        raise _fail("melding_is_over", "You sealed a portal after melding: your action is over.")


def _seal(tx: _Tx, portal: int, seat: int, entropy: bytes) -> None:
    state: Playing = tx.state
    turn = state.turn
    if portal not in LOCATIONS:
        raise _fail("no_such_portal", "There is no such Portal.")
    if turn.sealed:
        raise _fail("one_seal_per_turn", "You may seal only one Portal per turn.")
    if state.table.portals[slot(portal)] != seat:
        raise _fail("portal_not_yours", f"The {PORTAL_NAMES[portal]} Portal is not in front of you.")
    if portal not in sealable(state, seat):
        raise _fail(*_unsealable_reason(state, portal, seat))
    tx.emit("portal_sealed", seat=seat, portal=portal)
    if portal == AZATHOTH:
        r = rng(entropy)
        for victim in opponents(state, seat):
            cards = hand_cards(tx.state.table.hands[victim])
            if cards:
                # Discarded face up before its owner: the card is public, how it was picked is not recorded.
                tx.emit("card_discarded", seat=victim, card=r.choice(cards))
    elif portal == GUG:
        tx.emit("turn_passed", seat=seat)
    if tx.state.pending is None:
        _maybe_end_turn(tx)


def _unsealable_reason(state: Playing, portal: int, seat: int) -> tuple[str, str]:
    if portal == GUG:
        if gug_fresh(state.turn):
            return (
                "gug_not_on_the_turn_claimed",
                "Gug cannot be sealed on the turn you claimed it, nor on the extra turn that immediately follows.",
            )
        if shoggoth_binds(state, seat):
            return "must_draw_one_under_shoggoth", "Shoggoth forces you to draw: Gug cannot replace that action."
        if deck_empty(state):
            return "portal_has_no_effect", "With the deck empty, passing is the same as ending your turn."
        return "gug_replaces_the_action", "Gug passes your turn: seal it instead of taking your action."
    if portal in (NYARLATHOTEP, SHOGGOTH):
        return "portal_has_no_effect", "The deck is empty: this Portal's power has no effect."
    if portal == SHUB_NIGGURATH:
        return "portal_has_no_effect", "No opponent holds a card for Shub-Niggurath to take."
    if portal == AZATHOTH:
        return "portal_has_no_effect", "No opponent holds a card for Azathoth to discard."
    return "portal_has_no_effect", "You hold no card to give."


def _decide_power(tx: _Tx, command: Command, seat: int, entropy: bytes) -> None:
    state: Playing = tx.state
    power = state.pending
    kind = command["type"]
    expected = {
        CTHULHU: ("give_card", "stop_giving"),
        SHUB_NIGGURATH: ("look_at_hand",) if power.target is None else ("take_card",),
        NYARLATHOTEP: ("take_deck_card",),
    }[power.portal]
    if kind not in expected:
        raise _fail(
            "finish_the_portal_power",
            f"Finish the {PORTAL_NAMES[power.portal]} power first ({' or '.join(expected)}).",
            expected=list(expected),
        )
    if kind == "give_card":
        to, loc = command["seat"], command["location"]
        if to == seat or not 0 <= to < state.players:
            raise _fail("give_to_an_opponent", "Cthulhu's cards go to other players.")
        if loc not in LOCATIONS or not state.table.hands[seat][slot(loc)]:
            raise _fail("card_not_in_hand", "You do not hold that Location card.")
        tx.emit("card_given", seat=seat, to=to, location=loc, secret={"location": [seat, to]})
        if not hand_size(tx.state, seat):
            _end_round(tx, "hand_emptied", seat)
            return
        if tx.state.pending.given >= 2:
            tx.emit("power_resolved", seat=seat, portal=CTHULHU)
    elif kind == "stop_giving":
        if not power.given:
            raise _fail("give_at_least_one", "Cthulhu distributes 1 or 2 cards: give at least one.")
        tx.emit("power_resolved", seat=seat, portal=CTHULHU)
    elif kind == "look_at_hand":
        target = command["seat"]
        if target == seat or not 0 <= target < state.players:
            raise _fail("look_at_an_opponent", "Shub-Niggurath looks at an opponent's hand.")
        if not hand_size(state, target):
            raise _fail("opponent_has_no_cards", "That opponent holds no cards.")
        cards = hand_cards(state.table.hands[target])
        tx.emit("hand_looked_at", seat=seat, target=target, cards=cards, secret={"cards": [seat]})
    elif kind == "take_card":
        loc = command["location"]
        if loc not in LOCATIONS or not state.table.hands[power.target][slot(loc)]:
            raise _fail("card_not_in_that_hand", "That hand holds no such Location card.")
        tx.emit("card_taken", seat=seat, target=power.target, location=loc, secret={"location": [seat, power.target]})
        tx.emit("power_resolved", seat=seat, portal=SHUB_NIGGURATH)
    elif kind == "take_deck_card":
        pos = command["position"]
        if not 0 <= pos < len(state.table.deck):
            raise _fail("no_such_position", "There is no card at that position of the deck.", deck=len(state.table.deck))
        loc, up = state.table.deck[pos]
        if up:
            tx.emit("deck_card_taken", seat=seat, position=pos, face_up=True, card=loc)
        else:
            tx.emit("deck_card_taken", seat=seat, position=pos, face_up=False, card=loc, secret={"card": [seat]})
        tx.emit("power_resolved", seat=seat, portal=NYARLATHOTEP)
        _after_deck_change(tx, seat)
    if isinstance(tx.state, Playing) and tx.state.pending is None:
        _maybe_end_turn(tx)


def _after_deck_change(tx: _Tx, seat: int) -> None:
    """The deck is empty: every player, the one who took the last card included and last, gets one last turn."""
    state: Playing = tx.state
    if deck_empty(state) and state.last_turns is None:
        order = [(seat + k) % state.players for k in range(1, state.players + 1)]
        tx.emit("deck_exhausted", last_turns=order)
    if tx.state.pending is None:
        _maybe_end_turn(tx)


def _after_cards_played(tx: _Tx, seat: int) -> None:
    """A player who has played all her cards ends the round immediately."""
    if not hand_size(tx.state, seat):
        _end_round(tx, "hand_emptied", seat)
    else:
        _maybe_end_turn(tx)


def _maybe_end_turn(tx: _Tx) -> None:
    """End the turn by itself once nothing is left to do (decided on public facts only)."""
    state = tx.state
    if not isinstance(state, Playing) or state.pending is not None:
        return
    if action_closed(state.turn) and not sealable(state, state.turn.seat):
        _end_turn(tx)


def _end_turn(tx: _Tx) -> None:
    state: Playing = tx.state
    seat = state.turn.seat
    tx.emit("turn_ended", seat=seat)
    if state.turn.dagon:
        tx.emit("turn_started", seat=seat, extra=True)
    elif state.last_turns is None:
        tx.emit("turn_started", seat=(seat + 1) % state.players, extra=False)
    elif state.last_turns:
        tx.emit("turn_started", seat=state.last_turns[0], extra=False)
    else:
        _end_round(tx, "deck_exhausted", None)


def _end_round(tx: _Tx, reason: str, ender: int | None) -> None:
    """End of the round, its scoring recorded as public facts.

    Deck empty: every hand is laid down (public) and each player takes 1 Madness per different Location in it.
    Hand emptied: the ender discards half her tokens (rounded up) and each opponent takes 1.
    """
    state: Playing = tx.state
    if reason == "hand_emptied":
        gained = [-((m + 1) // 2) if s == ender else 1 for s, m in enumerate(state.madness)]
        tx.emit("round_ended", reason=reason, seat=ender, gained=gained)
    else:
        hands = [hand_cards(h) for h in state.table.hands]
        gained = [len(set(h)) for h in hands]
        tx.emit("round_ended", reason=reason, seat=None, gained=gained, hands=hands)


# -- evolve -----------------------------------------------------------------------------------------


def _set_hand(table: Table, seat: int, hand) -> Table:
    return replace(table, hands=table.hands[:seat] + (hand,) + table.hands[seat + 1 :])


def _set_known(table: Table, seat: int, known) -> Table:
    return replace(table, known=table.known[:seat] + (known,) + table.known[seat + 1 :])


def _known_lost_secretly(table: Table, seat: int) -> Table:
    """A card of unannounced location left the hand: any known location may be the one, so each loses one."""
    return _set_known(table, seat, tuple(max(0, n - 1) for n in table.known[seat]))


def _set_at(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1 :]


def hand_add_all(hand, locations):
    for loc in locations:
        hand = hand_add(hand, loc)
    return hand


def _hand_remove(hand, location: int, n: int = 1):
    return hand_add(hand, location, -n)


def evolve(state: State | None, event: Event) -> State:
    d = event.data
    match event.type:
        case "round_dealt":
            players = d["players"]
            face_down = iter(d["face_down"])
            deck = tuple((next(face_down), False) if loc is None else (loc, True) for loc in d["deck"])
            table = Table(
                hands=tuple(hand_of(d[f"hand_{s}"]) for s in range(players)),
                deck=deck,
                melds=((),) * players,
                discards=((),) * players,
                portals=(None,) * len(LOCATIONS),
                known=(EMPTY_HAND,) * players,
            )
            if state is None:
                return Designating(players, d["round"], None, (0,) * players, table, d["chooser"])
            return Designating(players, d["round"], state.start, state.madness, table, d["chooser"])
        case "first_player_chosen":
            return Playing(state.players, state.round, d["seat"], state.madness, state.table, Turn(d["seat"]))
        case "cards_drawn":
            table = state.table
            hand = table.hands[d["seat"]]
            for loc in [*d["revealed"], *d["face_down"]]:
                hand = hand_add(hand, loc)
            table = replace(_set_hand(table, d["seat"], hand), deck=table.deck[d["count"] :])
            table = _set_known(table, d["seat"], hand_add_all(table.known[d["seat"]], d["revealed"]))
            return replace(state, table=table, turn=replace(state.turn, action="drew"))
        case "set_melded":
            seat, loc, count = d["seat"], d["location"], d["count"]
            table = _set_hand(state.table, seat, _hand_remove(state.table.hands[seat], loc, count))
            table = replace(table, melds=_set_at(table.melds, seat, table.melds[seat] + (Meld(loc, count),)))
            table = _set_known(table, seat, hand_minus(table.known[seat], hand_add(EMPTY_HAND, loc, count)))
            return replace(state, table=table, turn=replace(state.turn, action="sets", melds=state.turn.melds + 1))
        case "portal_claimed":
            table = replace(state.table, portals=_set_at(state.table.portals, slot(d["portal"]), d["seat"]))
            return replace(state, table=table, turn=replace(state.turn, claimed=state.turn.claimed | {d["portal"]}))
        case "run_melded":
            seat = d["seat"]
            hand = tuple(n - 1 for n in state.table.hands[seat])
            table = _set_hand(state.table, seat, hand)
            table = replace(table, melds=_set_at(table.melds, seat, table.melds[seat] + (Meld(None, len(LOCATIONS)),)))
            table = _set_known(table, seat, hand_minus(table.known[seat], (1,) * len(LOCATIONS)))
            madness = tuple(m if s == seat else m + d["madness"] for s, m in enumerate(state.madness))
            turn = replace(state.turn, action="runs", melds=state.turn.melds + 1)
            return replace(state, table=table, madness=madness, runs=d["number"], turn=turn)
        case "portal_sealed":
            portal = d["portal"]
            table = replace(state.table, portals=_set_at(state.table.portals, slot(portal), None))
            turn = replace(state.turn, sealed=True, closed=state.turn.action in ("sets", "runs"))
            state = replace(state, table=table, turn=turn)
            if portal in (CTHULHU, SHUB_NIGGURATH, NYARLATHOTEP):
                return replace(state, pending=Power(portal))
            if portal == DAGON:
                return replace(state, turn=replace(turn, dagon=True))
            if portal == SHOGGOTH:
                return replace(state, shoggoth=d["seat"])
            return state
        case "turn_passed":
            return replace(state, turn=replace(state.turn, action="passed"))
        case "card_discarded":
            seat = d["seat"]
            table = _set_hand(state.table, seat, _hand_remove(state.table.hands[seat], d["card"]))
            table = replace(table, discards=_set_at(table.discards, seat, table.discards[seat] + (d["card"],)))
            table = _set_known(table, seat, hand_minus(table.known[seat], hand_add(EMPTY_HAND, d["card"])))
            return replace(state, table=table)
        case "card_given":
            table = _set_hand(state.table, d["seat"], _hand_remove(state.table.hands[d["seat"]], d["location"]))
            table = _set_hand(table, d["to"], hand_add(table.hands[d["to"]], d["location"]))
            table = _known_lost_secretly(table, d["seat"])
            return replace(state, table=table, pending=replace(state.pending, given=state.pending.given + 1))
        case "hand_looked_at":
            return replace(state, pending=replace(state.pending, target=d["target"]))
        case "card_taken":
            table = _set_hand(state.table, d["target"], _hand_remove(state.table.hands[d["target"]], d["location"]))
            table = _set_hand(table, d["seat"], hand_add(table.hands[d["seat"]], d["location"]))
            return replace(state, table=_known_lost_secretly(table, d["target"]))
        case "deck_card_taken":
            pos = d["position"]
            table = _set_hand(state.table, d["seat"], hand_add(state.table.hands[d["seat"]], d["card"]))
            table = replace(table, deck=table.deck[:pos] + table.deck[pos + 1 :])
            if d["face_up"]:
                table = _set_known(table, d["seat"], hand_add(table.known[d["seat"]], d["card"]))
            return replace(state, table=table)
        case "power_resolved":
            return replace(state, pending=None)
        case "deck_exhausted":
            return replace(state, last_turns=tuple(d["last_turns"]))
        case "turn_ended":
            return state
        case "turn_started":
            seat = d["seat"]
            last_turns = state.last_turns
            if last_turns is not None and not d["extra"]:
                last_turns = last_turns[1:]
            shoggoth = None if state.shoggoth == seat else state.shoggoth
            fresh = d["extra"] and GUG in state.turn.claimed
            turn = Turn(seat, extra=d["extra"], last=state.last_turns is not None, gug_claimed_before=fresh)
            return replace(state, turn=turn, last_turns=last_turns, shoggoth=shoggoth)
        case "round_ended":
            gained = tuple(d["gained"])
            madness = tuple(m + g for m, g in zip(state.madness, gained))
            return RoundOver(state.players, state.round, state.start, madness, state.table, d["reason"], d["seat"], gained)
        case _:
            raise TypeError(f"pocket-madness: unknown event {event.type!r}")


__all__ = ["decide", "evolve", "legal_commands", "setup", "to_act"]
