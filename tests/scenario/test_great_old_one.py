"""Cthulhu: The Great Old One, Elder Edition: one scenario per rule and per ruling (docs/rulings/great-old-one.md).

The rulebook has no play examples; every test here sets up a fixed deal with hand-built events.
"""

from __future__ import annotations

import pytest

from shared.games.great_old_one import GAME
from shared.games.great_old_one.cards import CARDS, CULTIST, DECK_SIZE, GREAT_OLD_ONE, STORY_CARDS, STORY_KEYS, pair_connections
from shared.games.great_old_one.state import Opening
from shared.kernel import EVERYONE, RuleViolation, entropy_for, ev, fold, redact
from shared.kernel.game import GameOver
from tests.support.scenario import given, offered, timeout_choice
from tests.support.resignation import resigned_and_played_out


def to_act(state):
    """The seats the game waits on (public)."""
    return GAME.decider.to_act(state)


def S(key: str, copy: int = 1) -> int:
    """The id of a Story card."""
    return STORY_KEYS.index(key) * 2 + copy - 1


def card(name: str, copy: int = 1) -> int:
    """The id of a Horror or Sign card by name (the nth copy)."""
    return [c["id"] for c in CARDS if c["name"] == name][copy - 1]


CALL, CALL2 = S("the-call-of-cthulhu"), S("the-call-of-cthulhu", 2)  # great-cthulhu, mad-artists
DAGON, DAGON2 = S("dagon"), S("dagon", 2)  # esoteric-order-of-dagon, great-cthulhu
INNS, INNS2 = S("the-shadow-over-innsmouth"), S("the-shadow-over-innsmouth", 2)  # esoteric-order-of-dagon, tainted-blood
ZANN = S("the-music-of-erich-zann")  # mad-artists, beyond-the-veil
PICKMAN = S("pickmans-model")  # ghouls, mad-artists
HOUND = S("the-hound")  # the-necronomicon, ghouls
DUNWICH, DUNWICH2 = S("the-dunwich-horror"), S("the-dunwich-horror", 2)
WARD = S("the-case-of-charles-dexter-ward")
RATS = S("the-rats-in-the-walls")
TEMPLE = S("the-temple")
OUTSIDER, OUTSIDER2 = S("the-outsider"), S("the-outsider", 2)
CENTRE = [S("celephais"), S("the-doom-that-came-to-sarnath"), S("the-white-ship")]

DEEP_ONE = card("Deep One")  # esoteric-order-of-dagon, take_random
STAR_SPAWN = card("Star-Spawn of Cthulhu")  # great-cthulhu, draw_two
SHOGGOTH = card("Shoggoth")  # miskatonic-university, return_horror
TWIN = card("Wilbur's Twin")  # yog-sothoth, give_chosen
YITHIAN = card("Yithian")  # the-great-race, swap_centre
GHOUL = card("Ghoul")  # ghouls, take_random
ELDER, ELDER2 = card("The Elder Sign"), card("The Elder Sign", 2)
VOORISH = card("The Voorish Sign")
KOTH = card("The Sign of Koth")
YELLOW = card("The Yellow Sign")
KISH = card("The Sign of Kish")

NONE = {"target": None, "chosen": None, "centre": None}


def table(
    players: int = 2,
    hands: dict[int, list[int]] | None = None,
    centre: list[int] | None = None,
    deck: list[int] | None = None,
    pairs: dict[int, list[tuple[int, int]]] | None = None,
    horrors: dict[int, list[int]] | None = None,
    cultist: int | None = None,
    first: int = 0,
    turn: int | None = None,
    phase: str = "draw",
    spare: int | str = "deck",
    opening: bool = False,
) -> list:
    """The events of a fixed deal: hands, centre, deck top, cards already in play areas, and the phase reached.

    Every card not placed goes to the bottom of the deck, or to seat ``spare``'s hand (to empty the deck).
    """
    hands = {s: list(hands.get(s, [])) if hands else [] for s in range(players)}
    pairs, horrors = pairs or {}, horrors or {}
    centre = list(CENTRE if centre is None else centre)
    top = list(deck or [])
    placed = set(centre) | set(top)
    for s in range(players):
        placed |= set(hands[s]) | {c for p in pairs.get(s, []) for c in p} | set(horrors.get(s, []))
    if cultist is not None:
        placed.add(CULTIST)
    rest = [c for c in range(DECK_SIZE) if c not in placed]
    if spare == "deck":
        top += rest
    else:
        hands[spare] += rest
    dealt = {s: hands[s] + [c for p in pairs.get(s, []) for c in p] + horrors.get(s, []) + ([CULTIST] if cultist == s else []) for s in range(players)}
    events = [ev("game_started", players=players, first_player=first, finish_round=False), ev("deck_shuffled", order=list(range(DECK_SIZE)), secret={"order": []})]
    events += [ev("cards_dealt", seat=s, cards=sorted(dealt[s]), secret={"cards": [s]}) for s in range(players)]
    events += [ev("centre_revealed", cards=centre, returned=[]), ev("deck_shuffled", order=top, secret={"order": []})]
    for s in range(players):
        for a, b in pairs.get(s, []):
            matched, conns = pair_connections(a, b)
            events.append(ev("pair_played", seat=s, cards=sorted([a, b]), matched=matched, connections=list(conns)))
        events += [ev("horror_played", seat=s, card=h) for h in horrors.get(s, [])]
    if cultist is not None:
        events.append(ev("cultist_played", seat=cultist, card=CULTIST))
    if opening:
        return events
    events += [ev("opening_finished", seat=s) for s in range(players)]
    events.append(ev("turn_began", seat=first if turn is None else turn, turn_number=1))
    if phase != "draw":
        events.append(ev("phase_began", phase=phase))
    return events


def state_of(*events):
    return fold(GAME, events)


def sign(card_id: int, **way) -> dict:
    return {"type": "play_sign", "card": card_id, **NONE, **way}


def horror(card_id: int, **way) -> dict:
    return {"type": "play_horror", "card": card_id, **NONE, **way}


def pair(a: int, b: int, take: int | None = None) -> dict:
    return {"type": "play_pair", "cards": sorted([a, b]), "take": take}


def check(state) -> None:
    GAME.decider.invariant(state)


# -- To Begin ---------------------------------------------------------------------------------------------


def test_each_player_is_dealt_nine_cards():
    _, events = GAME.start(4, {}, entropy_for(b"seed", 0))
    state = fold(GAME, events)
    assert [len(h) for h in state.hands] == [9, 9, 9, 9]
    check(state)
    dealt = [e for e in events if e.type == "cards_dealt"]
    assert [redact(e, e.data["seat"]).get("cards") is not None for e in dealt] == [True] * 4
    assert all("cards" not in redact(e, (e.data["seat"] + 1) % 4) for e in dealt)


def test_three_story_cards_are_turned_up_in_the_centre_and_non_story_cards_are_shuffled_back():
    for seed in range(30):
        _, events = GAME.start(6, {}, entropy_for(seed.to_bytes(2, "big"), 0))
        state = fold(GAME, events)
        revealed = next(e for e in events if e.type == "centre_revealed")
        assert len(state.centre) == 3 and all(c in STORY_CARDS for c in state.centre)
        assert all(c not in STORY_CARDS for c in revealed.data["returned"])
        assert set(revealed.data["returned"]) <= set(state.deck)
        assert len(state.deck) == DECK_SIZE - 6 * 9 - 3
        assert events[-1].type == "deck_shuffled"
        check(state)


def test_six_players_dealt_nine_each_leave_a_real_draw_pile():
    _, events = GAME.start(6, {}, entropy_for(b"six", 0))
    assert len(fold(GAME, events).deck) >= 40


def test_each_player_may_play_matched_or_linked_pairs_before_the_first_turn():
    events = table(hands={0: [CALL, CALL2, DAGON], 1: [INNS, DAGON2]}, opening=True)
    state = state_of(*events)
    assert isinstance(state.phase, Opening) and to_act(state) == {0, 1}
    step = given(GAME, *events).when(1, pair(DAGON2, INNS))
    step.then(ev("pair_played", seat=1, cards=sorted([DAGON2, INNS]), matched=False, connections=["esoteric-order-of-dagon"]))
    assert to_act(step.after) == {0, 1}  # still the opening: both seats may play on


def test_the_opening_is_played_by_all_seats_at_once_and_the_first_turn_follows_the_last_to_finish():
    events = table(players=3, hands={0: [CALL]}, opening=True, first=2)
    step = given(GAME, *events, ev("opening_finished", seat=2))
    assert to_act(step.state) == {0, 1}
    step.when(0, {"type": "finish_opening"}).then(ev("opening_finished", seat=0))
    step = given(GAME, *events, ev("opening_finished", seat=2), ev("opening_finished", seat=0))
    step.when(1, {"type": "finish_opening"}).then(ev("opening_finished", seat=1), ev("turn_began", seat=2, turn_number=1))


def test_a_seat_that_finished_its_opening_may_not_play_more_opening_pairs():
    events = table(hands={0: [CALL, CALL2]}, opening=True)
    given(GAME, *events, ev("opening_finished", seat=0)).when(0, pair(CALL, CALL2)).refused("rules/not_your_turn")


def test_phase_commands_wait_for_the_opening_to_finish():
    given(GAME, *table(opening=True)).when(0, {"type": "draw_card"}).refused("rules/opening_in_progress")


def test_the_youngest_player_is_the_first_player_chosen_by_the_first_player_option():
    resolved, events = GAME.start(3, {"first_player": 1}, entropy_for(b"young", 0))
    assert resolved["first_player"] == 1
    opening = given(GAME, *events).played((0, {"type": "finish_opening"}), (2, {"type": "finish_opening"}))
    opening.when(1, {"type": "finish_opening"}).then(ev("opening_finished", seat=1), ev("turn_began", seat=1, turn_number=1))
    state = opening.played((1, {"type": "finish_opening"})).state
    assert to_act(state) >= {1} and GAME.decider.view(state, 0)["first_player"] == 1


def test_the_first_player_option_defaults_to_seat_zero():
    resolved, _ = GAME.start(2, {}, entropy_for(b"x", 0))
    assert resolved["first_player"] == 0


def test_the_first_player_must_be_a_seat_at_the_table():
    with pytest.raises(RuleViolation) as info:
        GAME.start(3, {"first_player": 4}, entropy_for(b"x", 0))
    assert info.value.code == "rules/invalid_option"
    with pytest.raises(RuleViolation):
        GAME.start(3, {"first_player": 6}, entropy_for(b"x", 0))


def test_signs_cannot_be_played_before_the_first_turn():
    events = table(hands={0: [VOORISH]}, opening=True)
    given(GAME, *events).when(0, sign(VOORISH)).refused("rules/signs_during_turns")
    assert all(c["type"] != "play_sign" for c in offered(GAME, state_of(*events), 0))


# -- Turn phases ---------------------------------------------------------------------------------------------


def test_the_draw_phase_draws_the_top_card_of_the_deck():
    events = table(deck=[DUNWICH])
    step = given(GAME, *events).when(0, {"type": "draw_card"})
    drawn = step.then(ev("card_drawn", seat=0, card=DUNWICH, secret={"card": [0]}), ev("phase_began", phase="call")).events[0]
    assert redact(drawn, 1) == {"seat": 0}


def test_only_the_player_whose_turn_it_is_plays_the_phases():
    given(GAME, *table()).when(1, {"type": "draw_card"}).refused("rules/not_your_turn")


def test_the_phases_come_in_order_draw_call_recruit_horror():
    given(GAME, *table()).when(0, {"type": "recruit_draw"}).refused("rules/wrong_phase")
    given(GAME, *table(phase="call")).when(0, {"type": "draw_card"}).refused("rules/wrong_phase")
    given(GAME, *table(phase="recruit")).when(0, {"type": "end_turn"}).refused("rules/wrong_phase")
    given(GAME, *table(phase="horror", hands={0: [DUNWICH]})).when(0, {"type": "recruit_draw"}).refused("rules/wrong_phase")


def test_a_called_story_card_held_by_the_opponent_is_handed_over():
    events = table(hands={0: [CALL], 1: [DAGON, INNS]}, phase="call")
    given(GAME, *events).when(0, {"type": "call_story", "target": 1, "story": "dagon"}).then(
        ev("story_called", seat=0, target=1, story="dagon", warded=False, card=DAGON, handed=True, secret={"card": [0, 1]}),
        ev("phase_began", phase="recruit"),
    )


def test_an_opponent_holding_both_copies_hands_over_one():
    events = table(hands={1: [DAGON, DAGON2, INNS]}, phase="call")
    given(GAME, *events).when(0, {"type": "call_story", "target": 1, "story": "dagon"}).then(
        ev("story_called", seat=0, target=1, story="dagon", warded=False, card=DAGON, handed=True, secret={"card": [0, 1]}),
        ev("phase_began", phase="recruit"),
    )


def test_a_called_story_card_not_held_lets_the_caller_take_a_card_at_random():
    events = table(hands={1: [INNS, ZANN, GREAT_OLD_ONE]}, phase="call")
    taken = set()
    for i in range(40):
        step = given(GAME, *events).when(0, {"type": "call_story", "target": 1, "story": "dagon"}, entropy=entropy_for(b"t", i))
        card_ = step.events[0].data["card"]  # which card, at random: the entropy's
        step.then(ev("story_called", seat=0, target=1, story="dagon", warded=False, card=card_, handed=False, secret={"card": [0, 1]}),
                  ev("phase_began", phase="recruit"))
        taken.add(card_)
    assert taken == {INNS, ZANN, GREAT_OLD_ONE}


def test_the_random_take_is_drawn_from_the_commands_entropy():
    events = table(hands={1: [INNS, ZANN, PICKMAN, HOUND]}, phase="call")
    cmd = {"type": "call_story", "target": 1, "story": "dagon"}
    once = given(GAME, *events).when(0, cmd, entropy=entropy_for(b"e", 7)).events
    again = given(GAME, *events).when(0, cmd, entropy=entropy_for(b"e", 7)).events
    assert once == again


def test_whether_a_called_card_was_handed_over_is_public_but_which_card_moved_is_secret_to_caller_and_victim():
    events = table(players=3, hands={1: [INNS, ZANN]}, phase="call")
    for story, handed in (("dagon", False), ("the-shadow-over-innsmouth", True)):
        called = given(GAME, *events).when(0, {"type": "call_story", "target": 1, "story": story}).events[0]
        assert redact(called, 2) == {"seat": 0, "target": 1, "story": story, "warded": False, "handed": handed}
        assert redact(called, None) == redact(called, 2)
        assert redact(called, 0)["card"] == called.data["card"] == redact(called, 1)["card"]


def test_a_call_names_a_story_card():
    given(GAME, *table(hands={1: [INNS]}, phase="call")).when(0, {"type": "call_story", "target": 1, "story": "necronomicon"}).refused(
        "rules/no_such_story"
    )


def test_a_call_may_name_any_story_card_even_one_the_caller_does_not_hold():
    state = state_of(*table(hands={0: [CALL], 1: [INNS]}, phase="call"))
    calls = [c for c in offered(GAME, state, 0) if c["type"] == "call_story"]
    assert {c["story"] for c in calls} == set(STORY_KEYS)


def test_a_call_must_name_an_opponent_who_holds_cards():
    events = table(players=3, hands={0: [CALL], 1: [INNS]}, phase="call", spare=1, deck=[])
    state = state_of(*events)
    assert {c["target"] for c in offered(GAME, state, 0) if c["type"] == "call_story"} == {1}
    given(GAME, *events).when(0, {"type": "call_story", "target": 2, "story": "dagon"}).refused("rules/opponent_hand_empty")
    given(GAME, *events).when(0, {"type": "call_story", "target": 0, "story": "dagon"}).refused("rules/call_an_opponent")


def test_when_no_opponent_holds_a_card_the_call_is_passed():
    events = table(hands={}, phase="call", spare=0, deck=[])
    assert [c["type"] for c in offered(GAME, state_of(*events), 0) if c["type"] in ("pass_call", "call_story")] == ["pass_call"]
    given(GAME, *events).when(0, {"type": "pass_call"}).then(ev("call_passed", seat=0), ev("phase_began", phase="recruit"))
    given(GAME, *table(hands={1: [INNS]}, phase="call")).when(0, {"type": "pass_call"}).refused("rules/must_call")


def test_recruit_switches_a_story_card_from_hand_with_one_in_the_centre():
    events = table(hands={0: [CALL, GREAT_OLD_ONE]}, phase="recruit")
    step = given(GAME, *events).when(0, {"type": "recruit_swap", "card": CALL, "centre_card": CENTRE[1]})
    swapped = step.then(ev("story_swapped", seat=0, card=CALL, centre_card=CENTRE[1]), ev("phase_began", phase="horror")).events[0]
    assert redact(swapped, 1) == swapped.data
    assert GAME.decider.view(step.after, 1)["centre"] == [CENTRE[0], CALL, CENTRE[2]]


def test_recruit_may_draw_a_card_instead():
    given(GAME, *table(deck=[ZANN], phase="recruit")).when(0, {"type": "recruit_draw"}).then(
        ev("card_drawn", seat=0, card=ZANN, secret={"card": [0]}), ev("phase_began", phase="horror"))


def test_only_story_cards_can_be_switched_with_the_centre():
    events = table(hands={0: [DEEP_ONE, CALL]}, phase="recruit")
    given(GAME, *events).when(0, {"type": "recruit_swap", "card": DEEP_ONE, "centre_card": CENTRE[0]}).refused("rules/swap_story_only")
    given(GAME, *events).when(0, {"type": "recruit_swap", "card": CALL, "centre_card": DAGON}).refused("rules/not_in_centre")


def test_with_the_deck_empty_recruit_must_switch_and_passes_only_when_it_cannot():
    events = table(hands={0: [CALL]}, phase="recruit", spare=1, deck=[])
    given(GAME, *events).when(0, {"type": "recruit_draw"}).refused("rules/deck_empty")
    given(GAME, *events).when(0, {"type": "pass_recruit"}).refused("rules/must_recruit")
    stuck = table(hands={0: [DEEP_ONE]}, phase="recruit", spare=1, deck=[])
    assert {"type": "pass_recruit"} in offered(GAME, state_of(*stuck), 0)
    given(GAME, *stuck).when(0, {"type": "pass_recruit"}).then(ev("recruit_passed", seat=0), ev("phase_began", phase="horror"))


def test_the_horror_phase_plays_a_horror_to_your_play_area_and_carries_out_its_effect():
    table_ = given(GAME, *table(hands={0: [STAR_SPAWN]}, deck=[ZANN, HOUND, RATS], phase="horror"))
    step = table_.when(0, horror(STAR_SPAWN))
    step.then(ev("horror_played", seat=0, card=STAR_SPAWN),  # Star-Spawn: draw two
              ev("card_drawn", seat=0, card=ZANN, secret={"card": [0]}), ev("card_drawn", seat=0, card=HOUND, secret={"card": [0]}))
    assert GAME.decider.view(step.after, 1)["seats"][0]["score"] == 1  # a Horror scores a point
    # The two came off the top: the next seat draws the card below them.
    table_.played((0, horror(STAR_SPAWN)), (0, {"type": "end_turn"})).when(1, {"type": "draw_card"}).then(
        ev("card_drawn", seat=1, card=RATS, secret={"card": [1]}), ev("phase_began", phase="call"))


def test_the_cultist_can_be_played_in_the_horror_phase():
    step = given(GAME, *table(hands={0: [CULTIST]}, phase="horror")).when(0, horror(CULTIST))
    step.then(ev("cultist_played", seat=0, card=CULTIST))
    assert GAME.decider.view(step.after, 1)["seats"][0]["cultist"] and CULTIST not in GAME.decider.view(step.after, 0)["hand"]
    given(GAME, *table(hands={0: [CULTIST]}, phase="horror")).when(0, horror(CULTIST, target=1)).refused("rules/cultist_has_no_effect")


def test_only_one_horror_or_the_cultist_may_be_played_each_turn():
    events = table(hands={0: [STAR_SPAWN, CULTIST]}, phase="horror")
    played = given(GAME, *events).played((0, horror(CULTIST)))
    played.when(0, horror(STAR_SPAWN)).refused("rules/one_horror_per_turn")
    assert [c["type"] for c in offered(GAME, played.state, 0)] == ["end_turn"]


def test_signs_and_story_cards_are_not_horrors():
    given(GAME, *table(hands={0: [CALL]}, phase="horror")).when(0, horror(CALL)).refused("rules/not_a_horror")


def test_the_horror_phase_is_optional_and_end_turn_passes_play_to_the_left():
    events = table(players=3, hands={0: [STAR_SPAWN]}, phase="horror", turn=2)
    given(GAME, *events).when(2, {"type": "end_turn"}).then(ev("turn_ended", seat=2), ev("turn_began", seat=0, turn_number=2))


# -- Pairs -----------------------------------------------------------------------------------------------------


def test_a_matched_pair_is_two_copies_of_one_story_and_names_both_its_connections():
    step = given(GAME, *table(hands={0: [CALL, CALL2]})).when(0, pair(CALL, CALL2))
    step.then(ev("pair_played", seat=0, cards=[CALL, CALL2], matched=True, connections=["great-cthulhu", "mad-artists"]))
    assert GAME.decider.view(step.after, 1)["seats"][0]["score"] == 2


def test_a_linked_pair_is_two_stories_sharing_a_story_connection():
    step = given(GAME, *table(hands={0: [CALL, DAGON]})).when(0, pair(CALL, DAGON))
    step.then(ev("pair_played", seat=0, cards=sorted([CALL, DAGON]), matched=False, connections=["great-cthulhu"]))
    assert GAME.decider.view(step.after, 1)["seats"][0]["score"] == 1


def test_story_cards_without_a_shared_connection_are_not_a_pair():
    given(GAME, *table(hands={0: [CALL, INNS]})).when(0, pair(CALL, INNS)).refused("rules/not_a_pair")
    given(GAME, *table(hands={0: [CALL, DEEP_ONE]})).when(0, pair(CALL, DEEP_ONE)).refused("rules/not_a_pair")


def test_a_pair_is_listed_in_ascending_order_of_its_cards():
    given(GAME, *table(hands={0: [CALL, CALL2]})).when(0, {"type": "play_pair", "cards": [CALL2, CALL], "take": None}).refused(
        "rules/pair_not_in_order"
    )
    given(GAME, *table(hands={0: [CALL, CALL2]})).when(0, {"type": "play_pair", "cards": [CALL], "take": None}).refused("rules/pair_is_two_cards")


def test_pairs_may_be_played_in_any_phase_of_your_turn():
    for phase in ("draw", "call", "recruit", "horror"):
        # Only the pair: no phase begins, so the turn stays in the phase it was in.
        given(GAME, *table(hands={0: [CALL, CALL2], 1: [INNS]}, phase=phase)).when(0, pair(CALL, CALL2)).then(
            ev("pair_played", seat=0, cards=[CALL, CALL2], matched=True, connections=["great-cthulhu", "mad-artists"]))


def test_pairs_may_not_be_played_on_another_players_turn():
    events = table(hands={1: [CALL, CALL2]})
    given(GAME, *events).when(1, pair(CALL, CALL2)).refused("rules/not_your_turn")
    assert offered(GAME, state_of(*events), 1) == []


def test_a_pair_naming_a_connection_may_take_a_horror_in_play_into_your_hand():
    events = table(hands={0: [DAGON, INNS]}, horrors={1: [DEEP_ONE, STAR_SPAWN]}, phase="call")
    legal = offered(GAME, state_of(*events), 0)
    assert pair(DAGON, INNS, DEEP_ONE) in legal and pair(DAGON, INNS, STAR_SPAWN) not in legal
    step = given(GAME, *events).when(0, pair(DAGON, INNS, DEEP_ONE))
    step.then(ev("pair_played", seat=0, cards=sorted([DAGON, INNS]), matched=False, connections=["esoteric-order-of-dagon"]),
              ev("horror_taken", seat=0, from_seat=1, card=DEEP_ONE))
    assert GAME.decider.view(step.after, 0)["seats"][1]["horrors"] == [STAR_SPAWN]


def test_taking_the_horror_is_optional():
    events = table(hands={0: [DAGON, INNS]}, horrors={1: [DEEP_ONE]})
    assert pair(DAGON, INNS) in offered(GAME, state_of(*events), 0)
    given(GAME, *events).when(0, pair(DAGON, INNS)).then(
        ev("pair_played", seat=0, cards=sorted([DAGON, INNS]), matched=False, connections=["esoteric-order-of-dagon"]))


def test_a_pair_cannot_take_a_horror_naming_another_connection():
    events = table(hands={0: [DAGON, INNS]}, horrors={1: [STAR_SPAWN]})
    given(GAME, *events).when(0, pair(DAGON, INNS, STAR_SPAWN)).refused("rules/horror_not_named")


def test_a_matched_pair_may_take_a_horror_naming_either_connection_of_its_story():
    events = table(hands={0: [DAGON, DAGON2]}, horrors={1: [DEEP_ONE, STAR_SPAWN]})
    legal = offered(GAME, state_of(*events), 0)
    assert pair(DAGON, DAGON2, DEEP_ONE) in legal and pair(DAGON, DAGON2, STAR_SPAWN) in legal


def test_a_pair_may_take_a_horror_in_play_from_your_own_play_area():
    events = table(hands={0: [DAGON, INNS]}, horrors={0: [DEEP_ONE]})
    assert pair(DAGON, INNS, DEEP_ONE) in offered(GAME, state_of(*events), 0)
    step = given(GAME, *events).when(0, pair(DAGON, INNS, DEEP_ONE))
    step.then(ev("pair_played", seat=0, cards=sorted([DAGON, INNS]), matched=False, connections=["esoteric-order-of-dagon"]),
              ev("horror_taken", seat=0, from_seat=0, card=DEEP_ONE))
    assert DEEP_ONE in GAME.decider.view(step.after, 0)["hand"] and GAME.decider.view(step.after, 1)["seats"][0]["horrors"] == []
    check(step.after)


def test_no_horror_can_be_taken_during_the_opening():
    events = table(hands={0: [DAGON, INNS]}, opening=True)
    given(GAME, *events).when(0, pair(DAGON, INNS, DEEP_ONE)).refused("rules/no_horror_to_take")


# -- Signs -------------------------------------------------------------------------------------------------------


def test_a_sign_may_be_played_at_any_time_during_any_turn_by_any_seat():
    for phase in ("draw", "call", "recruit", "horror"):
        events = table(players=3, hands={2: [VOORISH], 1: [INNS]}, deck=[ZANN, HOUND], phase=phase)
        assert to_act(state_of(*events)) == {0}
        # No turn or phase event: the turn stays seat 0's, in the phase it was in.
        given(GAME, *events).when(2, sign(VOORISH)).then(
            ev("sign_played", seat=2, card=VOORISH),
            ev("card_drawn", seat=2, card=ZANN, secret={"card": [2]}), ev("card_drawn", seat=2, card=HOUND, secret={"card": [2]}))


def test_the_game_waits_only_on_the_turn_and_a_sign_is_an_out_of_turn_play_found_in_its_holders_commands():
    events = table(players=3, hands={1: [ELDER, CALL, CALL2]})
    state = state_of(*events)
    assert to_act(state) == {0} and GAME.decider.out_of_turn == {"play_sign"}
    assert offered(GAME, state, 1) == [sign(ELDER)]
    assert offered(GAME, state, 2) == []


def test_the_turn_timer_never_plays_a_sign_for_a_seat():
    import random

    events = table(players=3, hands={0: [VOORISH, KOTH, CALL], 1: [ELDER, INNS], 2: [ZANN]})
    for phase in ("draw", "call", "recruit", "horror"):
        state = state_of(*events, *([ev("phase_began", phase=phase)] if phase != "draw" else []))
        for n in range(40):
            choice = timeout_choice(GAME, state, 0, random.Random(n))
            assert choice in offered(GAME, state, 0) and choice["type"] != "play_sign"
        assert timeout_choice(GAME, state, 1, random.Random(0)) is None


def test_a_played_sign_is_removed_from_the_game():
    step = given(GAME, *table(hands={1: [ELDER]})).when(1, sign(ELDER))
    step.then(ev("sign_played", seat=1, card=ELDER), ev("ward_raised", seat=1))
    assert GAME.decider.view(step.after, 0)["removed"] == [ELDER] and ELDER not in GAME.decider.view(step.after, 1)["hand"]
    assert offered(GAME, step.after, 1) == []
    check(step.after)


def test_nothing_public_says_who_holds_a_sign():
    events = table(players=3, hands={0: [KOTH, YELLOW, CALL], 1: [ELDER, INNS], 2: [ZANN, PICKMAN]}, deck=[VOORISH])
    state = state_of(*events)
    assert to_act(state) == {0}
    for viewer in (0, 2, None):
        seen = GAME.decider.view(state, viewer)["seats"][1]
        assert set(seen) == {"seat", "hand_size", "pairs", "horrors", "cultist", "score", "warded"}
    drawn = given(GAME, *events).when(0, {"type": "draw_card"}).events[0]
    assert drawn.data["card"] == VOORISH and redact(drawn, 1) == {"seat": 0}
    taken = given(GAME, *events).when(0, sign(KOTH, target=1)).events[1]
    assert redact(taken, 2) == {"seat": 0, "from_seat": 1}
    handed = given(GAME, *events).when(0, sign(YELLOW, target=2, chosen=KOTH)).events[1]
    assert redact(handed, 1) == {"seat": 0, "to_seat": 2}


def test_the_voorish_sign_draws_two_cards_or_as_many_as_the_deck_holds():
    events = table(hands={1: [VOORISH]}, deck=[ZANN], spare=0)
    step = given(GAME, *events).when(1, sign(VOORISH))
    step.then(ev("sign_played", seat=1, card=VOORISH), ev("card_drawn", seat=1, card=ZANN, secret={"card": [1]}))
    assert GAME.decider.view(step.after, 0)["deck_size"] == 0


def test_the_sign_of_koth_takes_a_random_card_from_an_opponent_secretly():
    events = table(players=3, hands={0: [CALL], 1: [KOTH], 2: [INNS, ZANN]})
    step = given(GAME, *events).when(1, sign(KOTH, target=2))
    taken = step.then(ev("sign_played", seat=1, card=KOTH),
                      ev("card_taken", seat=1, from_seat=2, card=ZANN, secret={"card": [1, 2]})).events[1]  # at random
    assert "card" not in redact(taken, 0) and redact(taken, 2)["card"] == taken.data["card"]
    assert {c["target"] for c in offered(GAME, state_of(*events), 1)} == {0, 2}


def test_the_yellow_sign_gives_a_chosen_card_to_an_opponent():
    events = table(players=3, hands={1: [YELLOW, GREAT_OLD_ONE]})
    step = given(GAME, *events).when(1, sign(YELLOW, target=2, chosen=GREAT_OLD_ONE))
    given_ev = step.then(ev("sign_played", seat=1, card=YELLOW),
                         ev("card_given", seat=1, to_seat=2, card=GREAT_OLD_ONE, secret={"card": [1, 2]})).events[1]
    assert "card" not in redact(given_ev, 0) and redact(given_ev, 2)["card"] == GREAT_OLD_ONE
    given(GAME, *events).when(1, sign(YELLOW, target=2, chosen=YELLOW)).refused("rules/card_not_in_hand")


def test_the_sign_of_kish_returns_a_horror_in_play_to_its_owners_hand():
    events = table(players=3, hands={1: [KISH]}, horrors={2: [DEEP_ONE]})
    step = given(GAME, *events).when(1, sign(KISH, chosen=DEEP_ONE))
    step.then(ev("sign_played", seat=1, card=KISH), ev("horror_returned", seat=2, from_seat=2, card=DEEP_ONE))
    assert DEEP_ONE in GAME.decider.view(step.after, 2)["hand"] and GAME.decider.view(step.after, 0)["seats"][2]["horrors"] == []
    own = table(players=3, hands={1: [KISH]}, horrors={1: [DEEP_ONE]})
    given(GAME, *own).when(1, sign(KISH, chosen=DEEP_ONE)).refused("rules/no_such_horror_in_play")


def test_the_yithian_switches_a_story_card_with_the_centre():
    events = table(hands={0: [YITHIAN, CALL]}, phase="horror")
    step = given(GAME, *events).when(0, horror(YITHIAN, chosen=CALL, centre=CENTRE[2]))
    step.then(ev("horror_played", seat=0, card=YITHIAN), ev("story_swapped", seat=0, card=CALL, centre_card=CENTRE[2]))
    assert GAME.decider.view(step.after, 1)["centre"] == [CENTRE[0], CENTRE[1], CALL]


def test_the_elder_sign_wards_your_hand_until_the_start_of_your_next_turn():
    events = table(players=3, hands={1: [ELDER, INNS]}, phase="call")
    given(GAME, *events).when(1, sign(ELDER)).then(ev("sign_played", seat=1, card=ELDER), ev("ward_raised", seat=1))
    warded = given(GAME, *events).played((1, sign(ELDER))).state
    assert warded.warded == {1} and GAME.decider.view(warded, 0)["seats"][1]["warded"]
    # A call on a warded hand takes nothing.
    given(GAME, state=warded).when(0, {"type": "call_story", "target": 1, "story": "the-shadow-over-innsmouth"}).then(
        ev("story_called", seat=0, target=1, story="the-shadow-over-innsmouth", warded=True, card=None, handed=False),
        ev("phase_began", phase="recruit"))
    assert all(c.get("target") != 1 for c in offered(GAME, warded, 2) if c["type"] == "play_sign")
    later = fold(GAME, [ev("turn_began", seat=1, turn_number=2)], warded)
    assert later.warded == frozenset()


def test_a_warded_hand_cannot_be_the_target_of_a_random_take():
    events = table(players=3, hands={1: [KOTH], 2: [INNS]})
    given(GAME, *events, ev("ward_raised", seat=2)).when(1, sign(KOTH, target=2)).refused("rules/hand_warded")


def test_an_effect_with_no_possible_target_does_nothing():
    events = table(hands={1: [KISH]})
    assert offered(GAME, state_of(*events), 1) == [sign(KISH)]
    given(GAME, *events).when(1, sign(KISH)).then(ev("sign_played", seat=1, card=KISH))
    events = table(hands={0: [DEEP_ONE]}, phase="horror", spare=0, deck=[])
    given(GAME, *events).when(0, horror(DEEP_ONE)).then(ev("horror_played", seat=0, card=DEEP_ONE))


def test_an_effect_must_be_carried_out_when_it_can_be():
    events = table(hands={0: [DEEP_ONE], 1: [INNS]}, phase="horror")
    given(GAME, *events).when(0, horror(DEEP_ONE)).refused("rules/effect_must_be_carried_out")
    given(GAME, *events).when(0, horror(DEEP_ONE, target=0)).refused("rules/target_an_opponent")
    given(GAME, *table(hands={1: [VOORISH]})).when(1, sign(VOORISH, target=0)).refused("rules/effect_takes_no_target")


def test_signs_played_out_of_turn_cannot_stall_the_game():
    events = table(players=4, hands={1: [ELDER], 2: [ELDER2, VOORISH], 3: [KOTH]}, deck=[ZANN, HOUND, RATS])
    state = state_of(*events)
    plays = 0
    while waiting := [s for s in range(1, 4) if offered(GAME, state, s)]:
        seat = waiting[0]
        state = given(GAME, state=state).played((seat, offered(GAME, state, seat)[0])).state
        plays += 1
    assert plays == 4 and to_act(state) == {0}


# -- The end ----------------------------------------------------------------------------------------------------


SIX_PAIRS = [(S(k), S(k, 2)) for k in STORY_KEYS[10:16]]


def test_a_players_seventh_pair_ends_the_game_at_once():
    events = table(hands={0: [CALL, CALL2, DAGON]}, pairs={0: SIX_PAIRS}, phase="call")
    step = given(GAME, *events).when(0, pair(CALL, CALL2))
    step.then(ev("pair_played", seat=0, cards=[CALL, CALL2], matched=True, connections=["great-cthulhu", "mad-artists"]),
              ev("game_ended", reason="seventh_pair", hands=[[DAGON], []]))
    assert GAME.decider.outcome(step.after) is not None
    with pytest.raises(GameOver):
        given(GAME, state=step.after).played((0, {"type": "call_story", "target": 1, "story": "dagon"}))
    assert to_act(step.after) == frozenset()


def test_with_the_finish_round_variant_a_seventh_pair_ends_the_game_when_the_round_is_complete():
    events = table(players=3, hands={0: [CALL, CALL2, DAGON], 1: [DUNWICH, DUNWICH2]}, pairs={0: SIX_PAIRS})
    events[0] = ev("game_started", players=3, first_player=0, finish_round=True)
    step = given(GAME, *events).when(0, pair(CALL, CALL2))
    step.then(ev("pair_played", seat=0, cards=[CALL, CALL2], matched=True, connections=["great-cthulhu", "mad-artists"]),
              ev("final_round_began", seat=0))
    horror_phase = ev("phase_began", phase="horror")
    table_ = given(GAME, *events).played((0, pair(CALL, CALL2)))
    assert GAME.decider.outcome(table_.state) is None and GAME.decider.view(table_.state, 1)["final_round"]
    table_ = given(GAME, horror_phase, state=table_.state).played((0, {"type": "end_turn"}), (1, pair(DUNWICH, DUNWICH2)))
    assert GAME.decider.outcome(table_.state) is None
    table_ = given(GAME, horror_phase, state=table_.state).played((1, {"type": "end_turn"}))
    hands = [sorted(h) for h in table_.state.hands]
    given(GAME, horror_phase, state=table_.state).when(2, {"type": "end_turn"}).then(
        ev("turn_ended", seat=2), ev("game_ended", reason="seventh_pair", hands=hands))


def test_the_finish_round_variant_is_off_by_default():
    resolved, events = GAME.start(2, {}, entropy_for(b"x", 0))
    assert resolved["finish_round"] is False and fold(GAME, events).finish_round is False


def test_hands_are_revealed_when_the_game_ends():
    events = table(hands={0: [CALL, CALL2, DAGON], 1: [INNS]}, pairs={0: SIX_PAIRS})
    step = given(GAME, *events).when(0, pair(CALL, CALL2))
    ended = step.then(ev("pair_played", seat=0, cards=[CALL, CALL2], matched=True, connections=["great-cthulhu", "mad-artists"]),
                      ev("game_ended", reason="seventh_pair", hands=[[DAGON], [INNS]])).events[-1]  # public: no secret
    for viewer in (0, 1, None):
        assert [s["hand"] for s in GAME.decider.view(step.after, viewer)["seats"]] == redact(ended, viewer)["hands"]
    assert GAME.decider.view(step.after, 1)["seats"][0]["hand"] == [DAGON]
    assert GAME.decider.view(step.after, None)["seats"][1]["hand"][0] == INNS


def test_scoring_matched_two_linked_one_horror_one_cultist_minus_one():
    events = table(
        hands={0: [CALL, CALL2]}, pairs={0: SIX_PAIRS[:5] + [(DAGON, INNS)], 1: [(OUTSIDER, OUTSIDER2)]},
        horrors={0: [STAR_SPAWN], 1: [DEEP_ONE]}, cultist=0,
    )
    after = given(GAME, *events).when(0, pair(CALL, CALL2)).after
    result = GAME.decider.outcome(after)
    assert result.scores == (5 * 2 + 1 + 1 - 1 + 2, 2 + 1)
    assert result.winners == (0,) and result.reason == "score"


def _ended(events, hands):
    return fold(GAME, [ev("game_ended", reason="deck_exhausted", hands=hands)], state_of(*events))


def test_the_great_old_one_in_hand_loses_the_game():
    events = table(hands={1: [GREAT_OLD_ONE]}, pairs={0: SIX_PAIRS[:2], 1: SIX_PAIRS[2:6]})
    result = GAME.decider.outcome(_ended(events, [[], [GREAT_OLD_ONE]]))
    assert result.scores == (4, 8)
    assert result.winners == (0,) and result.reason == "great_old_one_in_hand" and result.details["great_old_one"] == 1


def test_the_great_old_one_in_hand_with_the_cultist_in_your_play_area_wins():
    events = table(hands={0: [CALL, CALL2, GREAT_OLD_ONE]}, pairs={0: SIX_PAIRS[:1], 1: SIX_PAIRS[1:]}, cultist=0, turn=1)
    state = fold(GAME, [ev("game_ended", reason="deck_exhausted", hands=[[CALL, CALL2, GREAT_OLD_ONE], []])], state_of(*events))
    result = GAME.decider.outcome(state)
    assert result.winners == (0,) and result.reason == "great_old_one_with_cultist"
    assert result.scores[1] > result.scores[0]


def test_the_cultist_without_the_great_old_one_is_only_minus_one():
    events = table(hands={0: [GREAT_OLD_ONE]}, pairs={0: SIX_PAIRS[:2], 1: SIX_PAIRS[2:4]}, cultist=1)
    result = GAME.decider.outcome(_ended(events, [[GREAT_OLD_ONE], []]))
    assert result.reason == "great_old_one_in_hand" and result.winners == (1,) and result.scores == (4, 3)
    events = table(pairs={0: SIX_PAIRS[:2], 1: SIX_PAIRS[2:4]}, cultist=1)
    result = GAME.decider.outcome(_ended(events, [[], []]))
    assert result.reason == "score" and result.winners == (0,) and result.scores == (4, 3)


def test_a_tie_on_score_is_won_by_the_player_with_more_pairs():
    events = table(players=3, pairs={0: SIX_PAIRS[:1] + [(CALL, DAGON)], 1: [(INNS, DAGON2), (PICKMAN, ZANN), (HOUND, S("the-festival"))]})
    result = GAME.decider.outcome(_ended(events, [[], [], []]))
    assert result.scores == (3, 3, 0) and result.winners == (1,) and result.reason == "score"


def test_a_tie_on_score_and_pairs_is_a_shared_win():
    events = table(players=3, pairs={0: SIX_PAIRS[:1], 2: SIX_PAIRS[1:2]})
    assert GAME.decider.outcome(_ended(events, [[], [], []])).winners == (0, 2)


def test_with_the_deck_empty_the_draw_is_skipped_and_the_game_ends_when_the_round_is_complete():
    events = table(players=3, hands={0: [CALL], 1: [DAGON]}, spare=2, deck=[], turn=1, first=0)
    given(GAME, *events).when(1, {"type": "draw_card"}).then(ev("draw_skipped", seat=1), ev("phase_began", phase="call"))
    middle = table(players=3, hands={0: [CALL], 1: [DAGON]}, spare=2, deck=[], turn=1, first=0, phase="horror")
    given(GAME, *middle).when(1, {"type": "end_turn"}).then(ev("turn_ended", seat=1), ev("turn_began", seat=2, turn_number=2))
    last = table(players=3, hands={0: [CALL], 1: [DAGON]}, spare=2, deck=[], turn=2, first=0, phase="horror")
    hands = [sorted(h) for h in state_of(*last).hands]
    step = given(GAME, *last).when(2, {"type": "end_turn"})
    step.then(ev("turn_ended", seat=2), ev("game_ended", reason="deck_exhausted", hands=hands))
    assert GAME.decider.outcome(step.after) is not None


def test_the_round_ends_before_the_first_player_even_when_the_first_player_is_not_seat_zero():
    last = table(players=3, hands={0: [CALL]}, spare=2, deck=[], turn=1, first=2, phase="horror")
    hands = [sorted(h) for h in state_of(*last).hands]
    given(GAME, *last).when(1, {"type": "end_turn"}).then(
        ev("turn_ended", seat=1), ev("game_ended", reason="deck_exhausted", hands=hands))


# -- Views ------------------------------------------------------------------------------------------------------


def test_a_seat_sees_its_own_hand_and_only_counts_of_other_hands():
    state = state_of(*table(players=3, hands={0: [CALL], 1: [DAGON, INNS]}, deck=[ZANN]))
    seen = GAME.decider.view(state, 0)
    assert seen["hand"] == [CALL] and seen["seats"][0]["hand"] == [CALL]
    assert "hand" not in seen["seats"][1] and seen["seats"][1]["hand_size"] == 2 and "signs" not in seen["seats"][1]
    assert "deck" not in seen and seen["deck_size"] == len(state.deck)
    assert "hand" not in GAME.decider.view(state, None)
    assert GAME.decider.view(state, EVERYONE)["deck"][0] == ZANN


def test_every_ruling_names_tests_that_exist():
    import pathlib
    import re

    root = pathlib.Path(__file__).resolve().parents[2]
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", (root / "docs/rulings/great-old-one.md").read_text()))
    sources = ["tests/scenario/test_great_old_one.py", "tests/property/test_great_old_one_properties.py",
               "tests/e2e/test_game_acceptance.py"]
    defined = {name for path in sources for name in re.findall(r"def (test_[a-z0-9_]+)", (root / path).read_text())}
    assert named and named <= defined, sorted(named - defined)


def test_a_resigned_winners_victory_never_goes_to_the_holder_of_the_great_old_one():
    """Resignation (docs/rulings/great-old-one.md): seat 0 resigns before the first move and the table's AI plays it
    to the end (seed 1018). Seat 0 wins on 8 points; seat 2 holds The Great Old One without its Cultist, so it loses
    whatever its 10 points: among the seats still standing, seat 1 (6 points) wins."""
    seating, table = resigned_and_played_out(GAME, 3, [0], seed=1018)
    final = GAME.decider.outcome(table.game)
    assert final.winners == (0,) and final.scores == (8, 6, 10) and final.details["great_old_one"] == 2
    assert not table.game.areas[2].cultist
    assert seating.outcome(table).winners == (1,)
