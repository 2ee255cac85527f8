"""Rise of Cthulhu rulebook scenarios: one test per rule, FAQ answer and ruling (docs/rulings/rise-of-cthulhu.md)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from shared.games.rise_of_cthulhu import GAME
from shared.games.rise_of_cthulhu.cards import (
    ARTIFACTS,
    COLOURS,
    CULTISTS,
    LOCATIONS,
    MONSTERS,
    NUMBERS,
    OLD_ONE_SLOT,
    OLD_ONES,
)
from shared.games.rise_of_cthulhu.state import Awakening, Location, RiseOfCthulhuState, Side, facing, location, position
from shared.kernel import EVERYONE, ev, fold, redact
from tests.support.scenario import ENTROPY, given, given_state, offered
from tests.support.resignation import resigned_and_played_out

ARKHAM, DUNWICH, INNSMOUTH, KINGSPORT = LOCATIONS


# -- positions ----------------------------------------------------------------------------------------------


def table(
    hands=((), ()),
    sides=None,
    valley=(),
    deck_top=(),
    hunter=None,
    old_ones=None,
    slots=None,
    current=0,
    monster_deck=None,
    artifact_deck=None,
    discard=(),
    staying=None,
    **fields,
):
    """A consistent position: ``sides`` maps a Location to (seat 0's cultists, seat 1's cultists); every Cultist
    not placed elsewhere lies in the deck after ``deck_top``; sleeping Old Ones sit at ``slots`` (deck indices)."""
    sides = sides or {}
    old_ones = old_ones or {}
    staying = staying or {}
    placed = [c for h in hands for c in h] + [c for pair in sides.values() for s in pair for c in s]
    placed += list(valley) + list(deck_top) + list(discard)
    assert len(placed) == len(set(placed)), "a card placed twice"
    rest = [c for c in sorted(CULTISTS) if c not in placed]
    deck = list(deck_top) + rest
    asleep = 3 - len(old_ones)
    slots = list(slots if slots is not None else [len(deck_top) + 8 + 12 * i for i in range(asleep)])
    for index in sorted(slots):
        deck.insert(index, OLD_ONE_SLOT)
    deck += [OLD_ONE_SLOT] * (asleep - len(slots))  # any further sleeping Old One at the bottom
    held = {c for h in hands for c in h}
    stays = [m for pair in staying.values() for s in pair for m in s]
    if monster_deck is None:
        monster_deck = [m for m in sorted(MONSTERS) if m not in held and m not in stays]
    if artifact_deck is None:
        artifact_deck = [a for a in sorted(ARTIFACTS) if a not in held]
    spent = [m for m in sorted(MONSTERS) if m not in held and m not in stays and m not in monster_deck]
    spent += [a for a in sorted(ARTIFACTS) if a not in held and a not in artifact_deck]
    locations = tuple(
        Location(
            name,
            tuple(
                Side(tuple(sides.get(name, ((), ()))[s]), tuple(staying.get(name, ((), ()))[s])) for s in range(2)
            ),
            old_ones.get(name),
        )
        for name in LOCATIONS
    )
    state = RiseOfCthulhuState(
        players=2,
        deck=tuple(deck),
        valley=tuple(valley),
        discard=tuple(discard),
        spent=tuple(spent),
        monster_deck=tuple(monster_deck),
        artifact_deck=tuple(artifact_deck),
        hands=tuple(tuple(sorted(h)) for h in hands),
        known=((), ()),
        locations=locations,
        hunter=hunter,
        sleeping=tuple(sorted(set(OLD_ONES) - set(old_ones.values()))),
        awake=tuple(old_ones.values()),
        current=current,
    )
    state = replace(state, **fields)
    GAME.decider.invariant(state)
    return state


def when(state, seat, command, entropy=ENTROPY):
    return given_state(GAME, state).when(seat, command, entropy)


def legal_when(state, seat, command):
    """``seat`` sends ``command``, which must be one of its legal commands: say what follows with ``then``."""
    assert command in offered(GAME, state, seat), command
    return when(state, seat, command)


def act(state, seat, command):
    """The position after ``seat`` sends ``command`` (which must be legal)."""
    assert command in offered(GAME, state, seat), command
    return when(state, seat, command).after


def draw(source="deck"):
    return {"type": "draw_card", "source": source}


def play_cultist(card, where, recall=False):
    return {"type": "play_cultist", "card": card, "location": where, "recall_hunter": recall}


def valley(card, hunter_to):
    return {"type": "play_to_valley", "card": card, "hunter_to": hunter_to}


def monster(card, where, target=None, recall=False):
    return {"type": "play_monster", "card": card, "location": where, "target": target, "recall_hunter": recall}


def artifact(card, target=None, where=None, recall=False):
    return {"type": "play_artifact", "card": card, "target": target, "location": where, "recall_hunter": recall}


def resolve(target=None):
    return {"type": "resolve_power", "target": target}


def entropy_choosing(old_one, sleeping):
    """Entropy whose draw of a sleeping Old One names ``old_one`` (identities are drawn on waking)."""
    from shared.kernel import rng

    for i in range(1000):
        entropy = i.to_bytes(32, "big")
        if rng(entropy).choice(sorted(sleeping)) == old_one:
            return entropy
    raise AssertionError(old_one)


def wake(state, seat, old_one, command=None):
    """``seat`` draws the Old One on top of the deck, which turns out to be ``old_one``."""
    assert state.deck[0] == OLD_ONE_SLOT
    return given_state(GAME, state).when(seat, command or draw(), entropy_choosing(old_one, state.sleeping))


# -- setup --------------------------------------------------------------------------------------------------


def setup_state(seed=0):
    return fold(GAME, GAME.decider.setup(2, {}, seed.to_bytes(32, "big")))


def test_setup_places_the_four_locations_neutral_and_deals_five_cultists_each():
    state = setup_state()
    assert [loc.name for loc in state.locations] == ["arkham", "dunwich", "innsmouth", "kingsport"]
    assert all(facing(loc) is None and loc.old_one is None for loc in state.locations)
    assert [len(h) for h in state.hands] == [5, 5]
    assert all(c in CULTISTS for h in state.hands for c in h)


def test_setup_turns_the_top_cultist_face_up_as_the_first_valley_card():
    state = setup_state(3)
    assert len(state.valley) == 1 and state.valley[0] in CULTISTS
    assert GAME.decider.view(state, None)["valley"] == list(state.valley)


def test_setup_splits_the_rest_in_three_with_an_old_one_in_the_middle_of_each_third():
    for seed in range(5):
        state = setup_state(seed)
        assert len(state.deck) == 39 + 3
        assert [i for i, c in enumerate(state.deck) if c == OLD_ONE_SLOT] == [6, 20, 34]
        assert state.sleeping == tuple(sorted(OLD_ONES)) and state.awake == ()


def test_every_seat_and_spectator_sees_the_old_ones_where_the_public_setup_rule_puts_them():
    """Ruling 3 (issue 27, item 8): "place one face down in the middle of each of the 3 piles" is a rule every player
    at the table follows and watches: the Old Ones' places come from it alone (never from the shuffle), so every
    view shows the same places, whatever the deal, and they move only as cards leave the deck's top."""
    for seed in range(12):
        state = setup_state(seed)
        views = [GAME.decider.view(state, viewer)["old_ones_in_deck_at"] for viewer in (0, 1, None, EVERYONE)]
        assert views == [[6, 20, 34]] * 4
        after = act(state, 0, draw())
        assert GAME.decider.view(after, 1)["old_ones_in_deck_at"] == [5, 19, 33]


def test_setup_shuffles_the_monster_and_artifact_decks_and_puts_the_dark_hunter_in_its_place():
    state = setup_state(1)
    assert sorted(state.monster_deck) == sorted(MONSTERS) and sorted(state.artifact_deck) == sorted(ARTIFACTS)
    assert {setup_state(s).monster_deck for s in range(6)} != {state.monster_deck}
    assert state.hunter is None


def test_the_oldest_player_goes_first_and_is_seat_zero():
    state = setup_state()
    assert GAME.decider.to_act(state) == frozenset({0}) and state.current == 0


def test_hands_the_deck_order_and_the_hidden_decks_are_secret():
    events = GAME.decider.setup(2, {}, bytes(32))
    for viewer in (0, 1, None):
        seen = [redact(e, viewer) for e in events]
        assert "deck" not in seen[0] and "monster_deck" not in seen[0] and "artifact_deck" not in seen[0]
        for seat in (0, 1):
            assert ("cards" in seen[1 + seat]) == (viewer == seat)
    state = fold(GAME, events)
    view = GAME.decider.view(state, 1)
    assert view["hand"] == list(state.hands[1]) and view["hand_sizes"] == [5, 5]
    assert "hands" not in view and "deck" not in view and view["deck_size"] == 42
    assert view["old_ones_in_deck_at"] == [6, 20, 34]
    assert GAME.decider.view(state, EVERYONE)["hands"] == [list(h) for h in state.hands]


def test_card_data_is_fifty_cultists_of_five_colours_numbered_one_to_ten_all_project_designed():
    assert len(CULTISTS) == 50 == len(COLOURS) * len(NUMBERS)
    assert NUMBERS == tuple(range(1, 11))
    assert all(card["source"] == "project" for card in CULTISTS.values())
    assert len(MONSTERS) == 8 and len(ARTIFACTS) == 6 and len(OLD_ONES) == 6
    for card in [*MONSTERS.values(), *ARTIFACTS.values(), *OLD_ONES.values()]:
        assert card["source"] == "project" and card["text"]
    for old_one in OLD_ONES.values():
        assert sorted(old_one["order"]) == ["A", "D", "I", "K"]
    assert "azathoth" in OLD_ONES
    assert all(card["source"] == "rulebook" for card in GAME.catalogue.card_data["locations"].values())


# -- the turn -----------------------------------------------------------------------------------------------


def test_a_turn_may_be_two_draws():
    state = table(hands=(["green-1"], []), valley=["red-4"], deck_top=["blue-2"])
    state = act(state, 0, draw("deck"))
    assert state.current == 0 and state.actions_taken == 1
    state = act(state, 0, draw("valley"))
    assert state.current == 1 and set(state.hands[0]) == {"green-1", "blue-2", "red-4"}


def test_a_turn_may_be_two_plays():
    state = table(hands=(["green-1", "green-2"], []))
    state = act(state, 0, play_cultist("green-1", ARKHAM))
    state = act(state, 0, play_cultist("green-2", DUNWICH))
    assert state.current == 1 and state.hands[0] == ()


def test_draw_one_and_play_one_may_be_done_in_either_order():
    start = table(hands=(["green-1"], []), deck_top=["blue-2"])
    draw_first = act(act(start, 0, draw()), 0, play_cultist("green-1", ARKHAM))
    play_first = act(act(start, 0, play_cultist("green-1", ARKHAM)), 0, draw())
    assert draw_first.current == play_first.current == 1
    assert draw_first.hands == play_first.hands and draw_first.locations == play_first.locations


def test_faq_after_the_first_action_a_player_may_draw_or_play_another():
    state = act(table(hands=(["green-1", "red-9"], []), deck_top=["blue-2"]), 0, draw())
    kinds = {c["type"] for c in offered(GAME, state, 0)}
    assert {"draw_card", "play_cultist", "play_to_valley"} <= kinds
    state = act(table(hands=(["green-1", "red-9"], []), deck_top=["blue-2"]), 0, play_cultist("green-1", ARKHAM))
    assert {"draw_card", "play_cultist"} <= {c["type"] for c in offered(GAME, state, 0)}


def test_the_turn_passes_to_the_opponent_after_two_actions():
    state = act(act(table(deck_top=["blue-2", "blue-3"]), 0, draw()), 0, draw())
    assert GAME.decider.to_act(state) == frozenset({1}) and state.actions_taken == 0
    when(state, 0, draw()).refused("rules/not_your_turn")


def test_drawing_from_the_valley_takes_its_top_card_and_the_opponent_knows_it():
    state = act(table(valley=["red-4", "green-6"]), 0, draw("valley"))
    assert state.valley == ("red-4",) and "green-6" in state.hands[0]
    assert GAME.decider.view(state, 1)["known_in_hand"][0] == ["green-6"]


def test_an_empty_valley_cannot_be_drawn_from():
    state = table(valley=[])
    when(state, 0, draw("valley")).refused("rules/valley_empty")
    assert draw("valley") not in offered(GAME, state, 0)


def test_a_cultist_is_played_on_the_players_own_side_of_a_location():
    state = act(table(hands=([], ["purple-5"]), current=1), 1, play_cultist("purple-5", INNSMOUTH))
    assert location(state, INNSMOUTH).sides[1].cultists == ("purple-5",)
    assert location(state, INNSMOUTH).sides[0].cultists == ()


def test_only_a_card_in_your_hand_can_be_played():
    when(table(hands=(["green-1"], ["green-2"])), 0, play_cultist("green-2", ARKHAM)).refused("rules/card_not_in_hand")


def test_monsters_and_artifacts_cannot_be_played_as_cultists():
    state = table(hands=(["shoggoth", "silver-key"], []))
    when(state, 0, play_cultist("shoggoth", ARKHAM)).refused("rules/not_a_cultist")
    when(state, 0, valley("silver-key", ARKHAM)).refused("rules/not_a_cultist")


def test_cultists_cannot_be_played_on_a_location_with_an_old_one():
    state = table(hands=(["green-1"], []), old_ones={DUNWICH: "yog-sothoth"})
    when(state, 0, play_cultist("green-1", DUNWICH)).refused("rules/old_one_location")
    assert all(c.get("location") != DUNWICH for c in offered(GAME, state, 0) if c["type"] == "play_cultist")


# -- influence ----------------------------------------------------------------------------------------------


def test_a_location_faces_the_player_with_the_most_points():
    state = table(hands=(["red-9"], []), sides={ARKHAM: (["green-3", "blue-4"], ["red-8"])})
    assert facing(location(state, ARKHAM)) == 1
    state = act(state, 0, play_cultist("red-9", ARKHAM))
    assert facing(location(state, ARKHAM)) == 0
    assert GAME.decider.view(state, 1)["locations"][0]["facing"] == 0


def test_a_location_with_tied_points_returns_to_neutral():
    state = table(hands=(["red-1"], []), sides={ARKHAM: (["green-3", "blue-4"], ["red-8"])})
    state = act(state, 0, play_cultist("red-1", ARKHAM))
    assert facing(location(state, ARKHAM)) is None


def test_influence_is_recomputed_after_every_change():
    state = table(hands=(["red-2"], []), valley=["red-1"], sides={KINGSPORT: (["green-9", "blue-2"], ["red-7", "red-3"])})
    assert facing(location(state, KINGSPORT)) == 0
    state = act(state, 0, valley("red-2", KINGSPORT))
    assert location(state, KINGSPORT).sides[0].cultists == ("blue-2",)
    assert facing(location(state, KINGSPORT)) == 1


# -- the Valley and the Dark Hunter ------------------------------------------------------------------------


def test_a_valley_play_must_be_higher_than_the_top_card_or_of_its_colour():
    state = table(hands=(["red-7", "green-2", "blue-5", "yellow-4"], []), valley=["green-9", "purple-5"])
    when(state, 0, valley("red-7", ARKHAM)).then(ev("valley_played", seat=0, card="red-7"), ev("hunter_moved", to=ARKHAM, by="valley"))
    when(state, 0, valley("blue-5", ARKHAM)).refused("rules/valley_needs_higher_or_same_colour")
    when(state, 0, valley("yellow-4", ARKHAM)).refused("rules/valley_needs_higher_or_same_colour")
    purple = table(hands=(["purple-2", "red-6"], []), valley=["purple-5"])
    when(purple, 0, valley("purple-2", ARKHAM)).then(
        ev("valley_played", seat=0, card="purple-2"), ev("hunter_moved", to=ARKHAM, by="valley"))
    assert offered(GAME, state, 0).count(valley("yellow-4", ARKHAM)) == 0


def test_faq_an_empty_valley_takes_any_card():
    state = table(hands=(["yellow-1"], []), valley=[])
    legal_when(state, 0, valley("yellow-1", DUNWICH)).then(
        ev("valley_played", seat=0, card="yellow-1"), ev("hunter_moved", to=DUNWICH, by="valley"))


def test_a_valley_play_must_move_the_dark_hunter_to_a_location_without_an_old_one():
    state = table(hands=(["red-9"], []), valley=["red-1"], old_ones={ARKHAM: "azathoth"})
    when(state, 0, valley("red-9", ARKHAM)).refused("rules/dark_hunter_must_move_to_free_location")
    destinations = {c["hunter_to"] for c in offered(GAME, state, 0) if c["type"] == "play_to_valley"}
    assert destinations == {DUNWICH, INNSMOUTH, KINGSPORT}
    legal_when(state, 0, valley("red-9", INNSMOUTH)).then(
        ev("valley_played", seat=0, card="red-9"), ev("hunter_moved", to=INNSMOUTH, by="valley"))


def test_the_dark_hunter_must_move_to_another_location_than_its_own():
    state = table(hands=(["red-9"], []), valley=["red-1"], hunter=DUNWICH)
    when(state, 0, valley("red-9", DUNWICH)).refused("rules/dark_hunter_must_move_to_free_location")


def test_the_dark_hunter_destroys_the_highest_cultist_at_its_new_location():
    state = table(hands=(["red-9"], []), valley=["red-1"], sides={DUNWICH: (["green-3"], ["blue-8", "blue-2"])})
    legal_when(state, 0, valley("red-9", DUNWICH)).then(
        ev("valley_played", seat=0, card="red-9"), ev("hunter_moved", to=DUNWICH, by="valley"),
        ev("cultist_destroyed", seat=1, card="blue-8", location=DUNWICH, by="dark_hunter"))


def test_when_both_players_tie_for_the_highest_each_loses_one():
    state = table(hands=(["red-9"], []), valley=["red-1"], sides={DUNWICH: (["green-8", "green-2"], ["blue-8"])})
    legal_when(state, 0, valley("red-9", DUNWICH)).then(
        ev("valley_played", seat=0, card="red-9"), ev("hunter_moved", to=DUNWICH, by="valley"),
        ev("cultist_destroyed", seat=0, card="green-8", location=DUNWICH, by="dark_hunter"),
        ev("cultist_destroyed", seat=1, card="blue-8", location=DUNWICH, by="dark_hunter"))


def test_faq_only_one_of_equal_highest_cultists_on_one_side_is_destroyed_the_last_played():
    state = table(hands=(["red-9"], []), valley=["red-1"], sides={DUNWICH: (["green-7", "blue-7", "green-2"], [])})
    legal_when(state, 0, valley("red-9", DUNWICH)).then(
        ev("valley_played", seat=0, card="red-9"), ev("hunter_moved", to=DUNWICH, by="valley"),
        ev("cultist_destroyed", seat=0, card="blue-7", location=DUNWICH, by="dark_hunter"))


def test_the_dark_hunter_at_an_empty_location_destroys_nothing():
    state = table(hands=(["red-9"], []), valley=["red-1"])
    when(state, 0, valley("red-9", KINGSPORT)).then(
        ev("valley_played", seat=0, card="red-9"), ev("hunter_moved", to=KINGSPORT, by="valley"))


def test_no_cultist_or_monster_can_be_played_where_the_dark_hunter_stands():
    state = table(hands=(["green-1", "shoggoth"], []), hunter=ARKHAM)
    when(state, 0, play_cultist("green-1", ARKHAM)).refused("rules/dark_hunter_blocks_location")
    when(state, 0, monster("shoggoth", ARKHAM)).refused("rules/dark_hunter_blocks_location")
    assert all(c.get("location") != ARKHAM for c in offered(GAME, state, 0))


# -- Old Ones -----------------------------------------------------------------------------------------------


def test_a_drawn_old_one_wakes_on_the_first_location_of_its_letter_order():
    state = table(slots=[0, 20, 30], sides={INNSMOUTH: (["green-5"], [])})
    # Seat 0 has the most Cultists at Innsmouth, so it influences Cthulhu; its power waits on it.
    wake(state, 0, "cthulhu").then(ev("old_one_awakened", seat=0, old_one="cthulhu", location=INNSMOUTH, influencer=0,
                                      hunter_returned=False, action=True, owed=1))


def test_an_old_one_goes_down_its_letters_past_locations_that_have_one():
    # Cthulhu's letters are I, K, A, D.
    state = table(slots=[0], old_ones={INNSMOUTH: "shub-niggurath", KINGSPORT: "nyarlathotep"})
    assert wake(state, 0, "cthulhu").events[0].data["location"] == ARKHAM


def test_the_influencing_player_resolves_the_old_ones_power():
    state = table(slots=[0, 20], deck_top=[], sides={ARKHAM: ([], ["red-5"])})
    after = wake(state, 0, "azathoth").after
    assert after.pending == Awakening("azathoth", ARKHAM, 1, 0)
    assert GAME.decider.to_act(after) == frozenset({1})
    when(after, 0, draw()).refused("rules/not_your_turn")
    assert offered(GAME, after, 1) == [resolve()]


def test_the_drawer_draws_another_card_once_the_power_is_resolved():
    state = table(slots=[0, 20], sides={ARKHAM: ([], ["red-5"])})
    after = wake(state, 0, "azathoth").after
    replacement = after.deck[0]
    after = act(after, 1, resolve())
    assert GAME.decider.to_act(after) == frozenset({0}) and after.owed == (1, 0)
    assert offered(GAME, after, 0) == [{"type": "draw_owed_cards"}]
    when(after, 0, draw()).refused("rules/owed_draws_first")
    after = act(after, 0, {"type": "draw_owed_cards"})
    assert replacement in after.hands[0] and after.owed == (0, 0)


def test_the_replacement_draw_is_part_of_the_action_that_drew_the_old_one():
    state = table(slots=[0, 20], sides={ARKHAM: (["red-5"], [])})
    after = wake(state, 0, "azathoth").after
    after = act(after, 0, resolve())
    assert after.actions_taken == 1 and len(after.hands[0]) == 2  # replacement + artifact
    assert after.current == 0


def test_an_old_one_waking_on_a_neutral_location_has_no_power_and_the_drawer_draws_at_once():
    state = table(slots=[0, 20])
    wake(state, 0, "cthulhu").then(
        ev("old_one_awakened", seat=0, old_one="cthulhu", location=INNSMOUTH, influencer=None, hunter_returned=False,
           action=True, owed=1),
        ev("card_drawn", seat=0, source="deck", card="blue-1", action=False, secret={"card": [0]}))


def test_the_dark_hunter_returns_to_its_place_when_an_old_one_wakes_under_it():
    state = table(slots=[0, 20], hunter=ARKHAM)
    wake(state, 0, "azathoth").then(
        ev("old_one_awakened", seat=0, old_one="azathoth", location=ARKHAM, influencer=None, hunter_returned=True,
           action=True, owed=1),
        ev("card_drawn", seat=0, source="deck", card="blue-1", action=False, secret={"card": [0]}))


def test_old_one_identities_are_drawn_on_waking_from_those_still_asleep():
    state = table(slots=[0], old_ones={ARKHAM: "azathoth", DUNWICH: "yog-sothoth"})
    seen = {when(state, 0, draw(), i.to_bytes(32, "big")).events[0].data["old_one"] for i in range(40)}
    assert seen == {"cthulhu", "hastur", "nyarlathotep", "shub-niggurath"}


def test_azathoths_power_draws_an_artifact_for_the_influencing_player():
    state = table(slots=[0, 20], sides={ARKHAM: (["red-5"], [])}, artifact_deck=["silver-key", "necronomicon"])
    legal_when(wake(state, 0, "azathoth").after, 0, resolve()).then(
        ev("artifact_drawn", seat=0, card="silver-key", secret={"card": [0]}),
        ev("power_resolved", seat=0, old_one="azathoth"),
        ev("card_drawn", seat=0, source="deck", card="blue-1", action=False, secret={"card": [0]}))  # the replacement


def test_cthulhus_power_destroys_the_opponents_highest_cultist_at_each_location_without_an_old_one():
    state = table(
        slots=[0, 20],
        old_ones={KINGSPORT: "hastur"},
        sides={
            INNSMOUTH: (["red-9"], ["red-8"]),
            ARKHAM: (["blue-2"], ["blue-6", "blue-3"]),
            DUNWICH: (["green-4"], []),
            KINGSPORT: ([], ["yellow-10"]),
        },
    )
    # Only Arkham's: Cthulhu's own Location (Innsmouth) and Hastur's (Kingsport) keep theirs, and no opponent's
    # Cultist stands at Dunwich.
    legal_when(wake(state, 0, "cthulhu").after, 0, resolve()).then(
        ev("cultist_destroyed", seat=1, card="blue-6", location=ARKHAM, by="cthulhu"),
        ev("power_resolved", seat=0, old_one="cthulhu"),
        ev("card_drawn", seat=0, source="deck", card="blue-1", action=False, secret={"card": [0]}))


def test_yog_sothoths_power_lets_the_influencer_move_the_dark_hunter_or_send_it_home():
    state = table(slots=[0, 20], hunter=KINGSPORT, sides={DUNWICH: ([], ["red-5"]), ARKHAM: (["green-9"], [])})
    after = wake(state, 0, "yog-sothoth").after
    assert sorted(c["target"] for c in offered(GAME, after, 1)) == sorted([ARKHAM, INNSMOUTH, "home"])
    legal_when(after, 1, resolve(ARKHAM)).then(
        ev("hunter_moved", to=ARKHAM, by="yog-sothoth"),
        ev("cultist_destroyed", seat=0, card="green-9", location=ARKHAM, by="dark_hunter"),
        ev("power_resolved", seat=1, old_one="yog-sothoth"))
    legal_when(after, 1, resolve("home")).then(ev("hunter_moved", to=None, by="yog-sothoth"), ev("power_resolved", seat=1, old_one="yog-sothoth"))
    when(after, 1, resolve(KINGSPORT)).refused("rules/invalid_power_target")


def test_shub_nigguraths_power_draws_two_cultists_for_the_influencer():
    state = table(slots=[0, 20], sides={DUNWICH: ([], ["red-5"])})
    after = wake(state, 0, "shub-niggurath").after
    top3 = after.deck[:3]
    after = act(after, 1, resolve())
    assert set(top3[:2]) <= set(after.hands[1]) and after.owed == (1, 0)
    after = act(after, 0, {"type": "draw_owed_cards"})
    assert after.hands[0] == (top3[2],)


def test_hasturs_power_destroys_an_opponents_cultist_of_the_influencers_choice():
    state = table(slots=[0, 20], sides={ARKHAM: (["red-5"], ["blue-1"]), KINGSPORT: ([], ["blue-9"])})
    after = wake(state, 0, "hastur").after
    assert sorted(c["target"] for c in offered(GAME, after, 0)) == ["blue-9"]  # Arkham now has Hastur
    legal_when(after, 0, resolve("blue-9")).then(
        ev("cultist_destroyed", seat=1, card="blue-9", location=KINGSPORT, by="hastur"),
        ev("power_resolved", seat=0, old_one="hastur"),
        ev("card_drawn", seat=0, source="deck", card="blue-10", action=False, secret={"card": [0]}))


def test_hasturs_power_without_a_target_does_nothing():
    state = table(slots=[0, 20], sides={ARKHAM: (["red-5"], [])})
    after = wake(state, 0, "hastur").after
    assert offered(GAME, after, 0) == [resolve(None)]


def test_nyarlathoteps_power_draws_a_monster_for_the_influencer():
    state = table(slots=[0, 20], sides={KINGSPORT: ([], ["red-5"])}, monster_deck=["ghoul", "dhole"])
    legal_when(wake(state, 0, "nyarlathotep").after, 1, resolve()).then(
        ev("monster_drawn", seat=1, card="ghoul", secret={"card": [1]}),  # the top of the Monster Deck
        ev("power_resolved", seat=1, old_one="nyarlathotep"))


# -- the end ------------------------------------------------------------------------------------------------


def ended(sides, hands=((), ()), awake=None, staying=None, **fields):
    awake = awake or {ARKHAM: "hastur", DUNWICH: "yog-sothoth", INNSMOUTH: "cthulhu"}
    return table(hands=hands, sides=sides, old_ones=awake, slots=[], staying=staying, **fields)


def test_the_game_ends_when_three_old_ones_have_awakened():
    state = table(slots=[0], old_ones={ARKHAM: "hastur", DUNWICH: "yog-sothoth"})
    step = wake(state, 0, "cthulhu")
    # No card owed: no replacement draw once the game is over.
    step.then(ev("old_one_awakened", seat=0, old_one="cthulhu", location=INNSMOUTH, influencer=None, hunter_returned=False,
                 action=True, owed=0))
    assert GAME.decider.outcome(step.after) is not None and GAME.decider.to_act(step.after) == frozenset()


def test_the_third_old_ones_power_is_resolved_before_the_game_ends():
    state = table(slots=[0], old_ones={ARKHAM: "hastur", DUNWICH: "yog-sothoth"}, sides={INNSMOUTH: ([], ["red-3"]), KINGSPORT: (["blue-4"], ["blue-2"])})
    after = wake(state, 0, "cthulhu").after
    assert GAME.decider.outcome(after) is None and GAME.decider.to_act(after) == frozenset({1})
    legal_when(after, 1, resolve()).then(
        ev("cultist_destroyed", seat=0, card="blue-4", location=KINGSPORT, by="cthulhu"),
        ev("power_resolved", seat=1, old_one="cthulhu"))
    assert GAME.decider.outcome(act(after, 1, resolve())).winners == (1,)


def test_the_player_with_the_most_locations_facing_them_wins():
    state = ended({ARKHAM: (["red-2"], []), DUNWICH: (["red-3"], []), INNSMOUTH: ([], ["red-10", "blue-10"])})
    result = GAME.decider.outcome(state)
    assert result.reason == "locations" and result.winners == (0,)


def test_tied_locations_are_decided_by_total_points_in_play():
    state = ended({ARKHAM: (["red-2"], []), INNSMOUTH: ([], ["red-10"])})
    assert GAME.decider.outcome(state).reason == "points" and GAME.decider.outcome(state).winners == (1,)


def test_with_azathoth_awake_points_decide_even_against_more_locations():
    sides = {ARKHAM: (["red-2"], []), DUNWICH: (["red-3"], []), INNSMOUTH: ([], ["red-10", "blue-10"])}
    state = ended(sides, awake={ARKHAM: "azathoth", DUNWICH: "yog-sothoth", INNSMOUTH: "cthulhu"})
    result = GAME.decider.outcome(state)
    assert result.reason == "points" and result.winners == (1,) and result.details["azathoth"]


def test_tied_points_are_decided_by_most_artifacts_acquired():
    state = ended({ARKHAM: (["red-2"], ["blue-2"])}, artifacts_acquired=(0, 1))
    assert GAME.decider.outcome(state).reason == "artifacts" and GAME.decider.outcome(state).winners == (1,)


def test_then_by_most_monsters_played():
    state = ended({ARKHAM: (["red-2"], ["blue-2"])}, artifacts_acquired=(1, 1), monsters_played=(2, 1))
    assert GAME.decider.outcome(state).reason == "monsters" and GAME.decider.outcome(state).winners == (0,)


def test_then_by_fewest_cards_in_hand_counting_every_card():
    state = ended({ARKHAM: (["red-2"], ["blue-2"])}, hands=(["green-1", "shoggoth"], ["green-2"]))
    assert GAME.decider.outcome(state).reason == "hand" and GAME.decider.outcome(state).winners == (1,)


def test_a_full_tie_means_both_players_lose():
    state = ended({ARKHAM: (["red-2"], ["blue-2"])}, hands=(["green-1"], ["green-2"]))
    result = GAME.decider.outcome(state)
    assert result.reason == "tie" and result.winners == ()


def test_points_in_play_count_staying_monsters():
    state = ended({ARKHAM: (["red-2"], ["blue-5"])}, staying={ARKHAM: (["deep-one"], [])})
    assert GAME.decider.outcome(state).details["points"] == [6, 5]


# -- set abilities ------------------------------------------------------------------------------------------


def test_three_of_a_colour_at_a_location_may_send_the_dark_hunter_back():
    state = table(hands=(["green-9"], []), hunter=KINGSPORT, sides={ARKHAM: (["green-1", "green-5"], [])})
    assert play_cultist("green-9", ARKHAM, recall=True) in offered(GAME, state, 0)
    assert act(state, 0, play_cultist("green-9", ARKHAM, recall=True)).hunter is None
    assert act(state, 0, play_cultist("green-9", ARKHAM)).hunter == KINGSPORT  # "may"


def test_sending_the_dark_hunter_back_needs_three_of_a_colour():
    state = table(hands=(["green-9", "red-9"], []), hunter=KINGSPORT, sides={ARKHAM: (["green-1", "green-5"], [])})
    when(state, 0, play_cultist("red-9", ARKHAM, recall=True)).refused("rules/no_colour_set")
    home = table(hands=(["green-9"], []), sides={ARKHAM: (["green-1", "green-5"], [])})
    when(home, 0, play_cultist("green-9", ARKHAM, recall=True)).refused("rules/dark_hunter_already_home")


def test_three_of_a_number_at_a_location_must_draw_a_monster():
    state = table(hands=(["red-7"], []), sides={DUNWICH: (["green-7", "blue-7"], [])}, monster_deck=["dhole", "ghoul"])
    drawn = when(state, 0, play_cultist("red-7", DUNWICH)).then(
        ev("cultist_played", seat=0, card="red-7", location=DUNWICH, action=True),
        ev("monster_drawn", seat=0, card="dhole", secret={"card": [0]})).events[1]
    assert redact(drawn, 1) == {"seat": 0}


def test_three_of_a_colour_in_sequence_must_draw_an_artifact():
    state = table(hands=(["blue-3"], []), sides={DUNWICH: (["blue-2", "blue-4"], [])}, artifact_deck=["lamp-of-alhazred"])
    when(state, 0, play_cultist("blue-3", DUNWICH)).then(
        ev("cultist_played", seat=0, card="blue-3", location=DUNWICH, action=True),
        ev("artifact_drawn", seat=0, card="lamp-of-alhazred", secret={"card": [0]}))


def test_a_sequence_also_counts_as_three_of_a_colour():
    state = table(hands=(["blue-10"], []), hunter=ARKHAM, sides={DUNWICH: (["blue-8", "blue-9"], [])})
    # 8, 9, 10 of one colour: the colour set recalls the Dark Hunter as asked, and draws an Artifact.
    legal_when(state, 0, play_cultist("blue-10", DUNWICH, recall=True)).then(
        ev("cultist_played", seat=0, card="blue-10", location=DUNWICH, action=True),
        ev("hunter_moved", to=None, by="colour_set"),
        ev("artifact_drawn", seat=0, card="elder-sign", secret={"card": [0]}))


def test_a_sequence_must_include_the_played_card():
    state = table(hands=(["blue-9"], []), sides={DUNWICH: (["blue-2", "blue-3", "blue-4"], [])})
    when(state, 0, play_cultist("blue-9", DUNWICH)).then(ev("cultist_played", seat=0, card="blue-9", location=DUNWICH, action=True))


def test_faq_playing_a_fourth_card_of_a_colour_or_number_triggers_the_set_ability_again():
    state = table(hands=(["red-7"], []), sides={DUNWICH: (["green-7", "blue-7", "yellow-7"], [])})
    when(state, 0, play_cultist("red-7", DUNWICH)).then(ev("cultist_played", seat=0, card="red-7", location=DUNWICH, action=True),
                                                ev("monster_drawn", seat=0, card="byakhee", secret={"card": [0]}))
    state = table(hands=(["blue-5"], []), sides={DUNWICH: (["blue-2", "blue-3", "blue-4"], [])})
    when(state, 0, play_cultist("blue-5", DUNWICH)).then(ev("cultist_played", seat=0, card="blue-5", location=DUNWICH, action=True),
                                                 ev("artifact_drawn", seat=0, card="elder-sign", secret={"card": [0]}))


def test_faq_once_the_monster_or_artifact_deck_runs_out_no_more_can_be_drawn():
    state = table(hands=(["red-7"], []), sides={DUNWICH: (["green-7", "blue-7"], [])}, monster_deck=[])
    when(state, 0, play_cultist("red-7", DUNWICH)).then(ev("cultist_played", seat=0, card="red-7", location=DUNWICH, action=True))
    state = table(hands=(["blue-3"], []), sides={DUNWICH: (["blue-2", "blue-4"], [])}, artifact_deck=[])
    when(state, 0, play_cultist("blue-3", DUNWICH)).then(ev("cultist_played", seat=0, card="blue-3", location=DUNWICH, action=True))


def test_set_abilities_count_only_the_players_own_side_of_one_location():
    state = table(hands=(["red-7"], []), sides={DUNWICH: (["green-7"], ["blue-7"]), ARKHAM: (["yellow-7"], [])})
    when(state, 0, play_cultist("red-7", DUNWICH)).then(ev("cultist_played", seat=0, card="red-7", location=DUNWICH, action=True))


def test_valley_plays_never_trigger_set_abilities():
    state = table(hands=(["red-7"], []), valley=["green-7", "blue-3"])
    when(state, 0, valley("red-7", ARKHAM)).then(ev("valley_played", seat=0, card="red-7"), ev("hunter_moved", to=ARKHAM, by="valley"))


# -- Monsters and Artifacts: free plays ---------------------------------------------------------------------


def test_monster_and_artifact_plays_are_not_one_of_the_turns_two_actions():
    state = table(hands=(["shoggoth", "glass-from-leng", "green-1"], []))
    after = act(state, 0, monster("shoggoth", ARKHAM))
    after = act(after, 0, artifact("glass-from-leng"))
    assert after.actions_taken == 0 and after.monsters_played == (1, 0)
    assert "shoggoth" in after.spent and "glass-from-leng" in after.spent


def test_monsters_and_artifacts_are_played_only_in_your_own_turn():
    state = table(hands=([], ["shoggoth"]))
    when(state, 1, monster("shoggoth", ARKHAM)).refused("rules/not_your_turn")
    assert offered(GAME, state, 1) == []


def test_the_turn_ends_with_its_last_action_so_free_plays_come_before_it():
    state = table(hands=(["shoggoth", "red-1", "red-2"], []))
    assert monster("shoggoth", ARKHAM) in offered(GAME, act(state, 0, play_cultist("red-1", ARKHAM)), 0)
    after = act(act(state, 0, play_cultist("red-1", ARKHAM)), 0, play_cultist("red-2", DUNWICH))
    assert after.current == 1
    when(after, 0, monster("shoggoth", ARKHAM)).refused("rules/not_your_turn")


def test_no_free_play_while_an_old_ones_power_waits():
    state = table(slots=[0, 20], hands=(["silver-key"], []), sides={ARKHAM: (["red-5"], [])})
    after = wake(state, 0, "azathoth").after
    when(after, 0, artifact("silver-key", ARKHAM)).refused("rules/awaiting_old_one_power")


def test_shoggoth_destroys_the_opponents_highest_cultist_even_at_an_old_one():
    state = table(hands=(["shoggoth"], []), old_ones={ARKHAM: "azathoth"}, slots=[10, 20], sides={ARKHAM: ([], ["red-6", "red-4"])})
    legal_when(state, 0, monster("shoggoth", ARKHAM)).then(
        ev("monster_played", seat=0, card="shoggoth", location=ARKHAM, stays=False),
        ev("cultist_destroyed", seat=1, card="red-6", location=ARKHAM, by="shoggoth"))


def test_the_deep_one_stays_worth_four_points_and_the_dark_hunter_ignores_it():
    state = table(hands=(["deep-one", "red-9"], []), valley=["red-1"], sides={DUNWICH: ([], ["red-3"])})
    after = act(state, 0, monster("deep-one", DUNWICH))
    assert location(after, DUNWICH).sides[0].monsters == ("deep-one",) and facing(location(after, DUNWICH)) == 0
    after = act(after, 0, valley("red-9", DUNWICH))
    assert location(after, DUNWICH).sides[0].monsters == ("deep-one",)


def test_the_byakhee_carries_the_dark_hunter_to_its_location_but_not_to_an_old_one():
    state = table(hands=(["byakhee"], []), old_ones={ARKHAM: "azathoth"}, slots=[10, 20], sides={DUNWICH: (["red-2"], ["red-8"])})
    legal_when(state, 0, monster("byakhee", DUNWICH)).then(
        ev("monster_played", seat=0, card="byakhee", location=DUNWICH, stays=False),
        ev("hunter_moved", to=DUNWICH, by="byakhee"),
        ev("cultist_destroyed", seat=1, card="red-8", location=DUNWICH, by="dark_hunter"))
    when(state, 0, monster("byakhee", ARKHAM)).refused("rules/old_one_location")


def test_the_nightgaunt_puts_an_opponents_cultist_on_top_of_the_valley():
    state = table(hands=(["nightgaunt"], []), valley=["green-1"], sides={INNSMOUTH: ([], ["red-8", "red-2"])})
    assert [c["target"] for c in offered(GAME, state, 0) if c["type"] == "play_monster" and c["location"] == INNSMOUTH] == ["red-8", "red-2"]
    legal_when(state, 0, monster("nightgaunt", INNSMOUTH, "red-2")).then(
        ev("monster_played", seat=0, card="nightgaunt", location=INNSMOUTH, stays=False),
        ev("cultist_sent_to_valley", seat=1, card="red-2", location=INNSMOUTH))
    assert act(state, 0, monster("nightgaunt", INNSMOUTH, "red-2")).valley == ("green-1", "red-2")  # on top
    when(state, 0, monster("nightgaunt", INNSMOUTH, "green-1")).refused("rules/invalid_monster_target")


def test_the_mi_go_moves_your_cultist_onto_a_location_even_one_with_an_old_one():
    state = table(hands=(["mi-go"], []), old_ones={ARKHAM: "azathoth"}, slots=[10, 20], sides={ARKHAM: ([], ["red-3"]), KINGSPORT: (["blue-6"], [])})
    after = act(state, 0, monster("mi-go", ARKHAM, "blue-6"))
    assert location(after, ARKHAM).sides[0].cultists == ("blue-6",) and facing(location(after, ARKHAM)) == 0
    assert location(after, KINGSPORT).sides[0].cultists == ()


def test_moving_a_cultist_is_not_playing_it_and_triggers_no_set_ability():
    state = table(hands=(["mi-go"], []), sides={ARKHAM: (["red-7", "blue-7"], []), KINGSPORT: (["green-7"], [])})
    when(state, 0, monster("mi-go", ARKHAM, "green-7")).then(  # three 7s at Arkham now, and no Monster drawn
        ev("monster_played", seat=0, card="mi-go", location=ARKHAM, stays=False),
        ev("cultist_moved", seat=0, card="green-7", from_location=KINGSPORT, to_location=ARKHAM))


def test_the_ghoul_plays_a_cultist_as_a_free_play_with_set_abilities_even_at_an_old_one():
    state = table(hands=(["ghoul", "red-7"], []), old_ones={ARKHAM: "azathoth"}, slots=[10, 20], sides={ARKHAM: (["green-7", "blue-7"], [])})
    when_ = when(state, 0, monster("ghoul", ARKHAM, "red-7"))
    assert [e.type for e in when_.events] == ["monster_played", "cultist_played", "monster_drawn"]
    assert when_.after.actions_taken == 0


def test_the_dhole_destroys_every_cultist_on_both_sides_of_a_location_without_an_old_one():
    state = table(hands=(["dhole"], []), old_ones={ARKHAM: "azathoth"}, slots=[10, 20], sides={DUNWICH: (["red-2"], ["red-8", "blue-1"])})
    legal_when(state, 0, monster("dhole", DUNWICH)).then(
        ev("monster_played", seat=0, card="dhole", location=DUNWICH, stays=False),
        ev("cultist_destroyed", seat=0, card="red-2", location=DUNWICH, by="dhole"),
        ev("cultist_destroyed", seat=1, card="red-8", location=DUNWICH, by="dhole"),
        ev("cultist_destroyed", seat=1, card="blue-1", location=DUNWICH, by="dhole"))
    when(state, 0, monster("dhole", ARKHAM)).refused("rules/old_one_location")


def test_the_star_vampire_takes_an_opponents_cultist_of_value_five_or_less_to_your_side():
    state = table(hands=(["star-vampire"], []), sides={DUNWICH: ([], ["red-5", "red-6"])})
    after = act(state, 0, monster("star-vampire", DUNWICH, "red-5"))
    assert location(after, DUNWICH).sides[0].cultists == ("red-5",)
    when(state, 0, monster("star-vampire", DUNWICH, "red-6")).refused("rules/invalid_monster_target")


def test_a_cultist_that_crosses_sides_triggers_no_set_ability():
    state = table(hands=(["star-vampire"], []), sides={DUNWICH: (["green-5", "blue-5"], ["red-5"])})
    assert [e.type for e in when(state, 0, monster("star-vampire", DUNWICH, "red-5")).events] == [
        "monster_played",
        "cultist_crossed",
    ]


def test_the_necronomicon_draws_two_cultists_without_using_an_action():
    state = table(hands=(["necronomicon"], []), deck_top=["red-1", "red-2"])
    after = act(state, 0, artifact("necronomicon"))
    assert set(after.hands[0]) == {"red-1", "red-2"} and after.actions_taken == 0 and after.deck_drawn


def test_a_cultist_deck_draw_by_a_card_that_finds_an_old_one_wakes_it():
    state = table(hands=(["necronomicon"], []), deck_top=["red-1"], slots=[1, 20], sides={ARKHAM: ([], ["red-5"])})
    after = given_state(GAME, state).when(0, artifact("necronomicon"), entropy_choosing("azathoth", state.sleeping)).after
    # red-1 was the first of the two draws; the Old One is replaced by one more card, owed after the power
    assert after.pending == Awakening("azathoth", ARKHAM, 1, 0) and after.owed == (1, 0)
    after = act(act(after, 1, resolve()), 0, {"type": "draw_owed_cards"})
    assert len(after.hands[0]) == 2 and "red-1" in after.hands[0] and after.owed == (0, 0) and after.current == 0


def test_the_silver_key_moves_the_dark_hunter_or_sends_it_home():
    state = table(hands=(["silver-key"], []), hunter=DUNWICH, sides={ARKHAM: ([], ["red-9"])})
    targets = sorted(c["target"] for c in offered(GAME, state, 0) if c["type"] == "play_artifact")
    assert targets == sorted([ARKHAM, INNSMOUTH, KINGSPORT, "home"])
    assert location(act(state, 0, artifact("silver-key", ARKHAM)), ARKHAM).sides[1].cultists == ()


def test_the_elder_sign_plays_a_cultist_at_an_old_ones_location():
    state = table(hands=(["elder-sign", "red-4"], []), old_ones={KINGSPORT: "nyarlathotep"}, slots=[10, 20])
    after = act(state, 0, artifact("elder-sign", "red-4", KINGSPORT))
    assert location(after, KINGSPORT).sides[0].cultists == ("red-4",) and after.actions_taken == 0
    when(state, 0, artifact("elder-sign", "red-4", ARKHAM)).refused("rules/invalid_artifact_target")


def test_the_powder_of_ibn_ghazi_destroys_any_one_opponents_cultist():
    state = table(hands=(["powder-of-ibn-ghazi"], []), old_ones={KINGSPORT: "nyarlathotep"}, slots=[10, 20], sides={KINGSPORT: ([], ["red-4"])})
    after = act(state, 0, artifact("powder-of-ibn-ghazi", "red-4"))
    assert location(after, KINGSPORT).sides[1].cultists == () and after.discard == ("red-4",)


def test_the_lamp_of_alhazred_takes_any_valley_card_and_the_opponent_knows_it():
    state = table(hands=(["lamp-of-alhazred"], []), valley=["red-4", "red-8", "blue-9"])
    after = act(state, 0, artifact("lamp-of-alhazred", "red-4"))
    assert after.valley == ("red-8", "blue-9") and after.known[0] == ("red-4",)


def test_the_glass_from_leng_gives_one_extra_action():
    state = table(hands=(["glass-from-leng"], []), deck_top=["red-1", "red-2", "red-3"])
    state = act(act(act(state, 0, artifact("glass-from-leng")), 0, draw()), 0, draw())
    assert state.current == 0
    state = act(state, 0, draw())
    assert state.current == 1 and len(state.hands[0]) == 3


# -- rulings ------------------------------------------------------------------------------------------------


def test_ruling_turns_without_a_cultist_deck_draw_keep_the_choice_to_play_two_cards():
    """Issue 15: the old anti-stall rule forced a Cultist Deck draw after six turns without one, taking away
    "Play 2 cards" in ordinary play; only a repeated position forces the draw now."""
    reds = [f"red-{n}" for n in range(1, 9)]
    blues = [f"blue-{n}" for n in range(1, 9)]
    state = table(hands=(reds, blues))
    for turn in range(8):
        seat = turn % 2
        assert state.current == seat and not GAME.decider.view(state, seat)["must_draw_from_deck"]
        card = state.hands[seat][0]
        state = act(state, seat, play_cultist(card, LOCATIONS[CULTISTS[card]["number"] % 4]))
        second = [c for c in offered(GAME, state, seat) if c["type"] == "play_cultist"]
        assert second, f"turn {turn + 1}: Play 2 cards is a rulebook choice"
        state = act(state, seat, second[0])
    assert state.deck == table(hands=(reds, blues)).deck, "eight turns passed without a Cultist Deck draw"


def test_ruling_a_turn_that_begins_in_a_repeated_position_must_include_a_cultist_deck_draw():
    """Ruling 25: drawing the Valley's top card and playing it back, moving the Dark Hunter between two empty
    Locations, loops forever; the turn that begins where an earlier turn began must draw from the Cultist Deck."""
    state = table(hands=(["green-1"], ["yellow-1"]), valley=["red-4"])
    for seat, hunter_to in ((0, DUNWICH), (1, ARKHAM), (0, DUNWICH)):
        assert not state.must_draw
        state = act(act(state, seat, draw("valley")), seat, valley("red-4", hunter_to))
    assert state.current == 1 and state.must_draw and GAME.decider.view(state, 1)["must_draw_from_deck"]
    assert GAME.decider.view(state, 0)["must_draw_from_deck"], "the loop is public: it follows from public facts"
    state = act(state, 1, draw("valley"))
    assert offered(GAME, state, 1) == [draw("deck")]
    when(state, 1, valley("red-4", ARKHAM)).refused("rules/must_draw_from_cultist_deck")
    state = act(state, 1, draw("deck"))
    assert state.current == 0 and not state.must_draw and state.seen == frozenset({position(state, 0)})


def test_ruling_a_different_choice_is_no_loop():
    """The same moves with the Dark Hunter sent elsewhere make a new position: nothing is forced."""
    state = table(hands=(["green-1"], ["yellow-1"]), valley=["red-4"])
    for seat, hunter_to in ((0, DUNWICH), (1, ARKHAM), (0, KINGSPORT), (1, DUNWICH)):
        state = act(act(state, seat, draw("valley")), seat, valley("red-4", hunter_to))
        assert not state.must_draw
    assert play_cultist("green-1", INNSMOUTH) in offered(GAME, act(state, 0, draw("valley")), 0)


def test_ruling_the_cultist_deck_cannot_run_out_before_the_third_old_one_wakes():
    state = setup_state()
    assert state.deck[-7:].count(OLD_ONE_SLOT) == 0 and state.deck[34] == OLD_ONE_SLOT
    # only draws take cards from the deck, so the last Old One is always drawn before the deck is empty


def test_the_view_shows_the_viewers_hand_and_only_counts_of_the_opponents():
    state = table(hands=(["red-1", "shoggoth"], ["blue-2"]))
    view = GAME.decider.view(state, 0)
    assert view["hand"] == ["red-1", "shoggoth"] and view["hand_sizes"] == [2, 1]
    assert view["hand_counts"][0] == {"cultists": 1, "monsters": 1, "artifacts": 0}
    assert "blue-2" not in str(view) and "blue-2" not in str(GAME.decider.view(state, None))


def test_rule_violation_messages_never_name_hidden_cards():
    state = table(hands=(["red-1"], ["blue-2"]))
    violation = when(state, 0, play_cultist("blue-2", ARKHAM)).refused("rules/card_not_in_hand")
    assert "blue" not in violation.message


@pytest.mark.parametrize("command", [draw("deck"), play_cultist("red-1", ARKHAM), artifact("necronomicon")])
def test_a_seat_that_is_not_to_act_is_refused(command):
    state = table(hands=(["red-1"], ["necronomicon"]))
    when(state, 1, command).refused("rules/not_your_turn")


def test_a_fixed_deal_replays_from_events():
    deck = sorted(CULTISTS)[11:]
    deck = deck[:6] + [OLD_ONE_SLOT] + deck[6:19] + [OLD_ONE_SLOT] + deck[19:32] + [OLD_ONE_SLOT] + deck[32:]
    events = [
        ev("game_set_up", players=2, first=0, deck=deck, valley=[sorted(CULTISTS)[10]], monster_deck=sorted(MONSTERS), artifact_deck=sorted(ARTIFACTS), old_ones=sorted(OLD_ONES), secret={"deck": [], "monster_deck": [], "artifact_deck": []}),
        ev("cards_dealt", seat=0, cards=sorted(CULTISTS)[:5], secret={"cards": [0]}),
        ev("cards_dealt", seat=1, cards=sorted(CULTISTS)[5:10], secret={"cards": [1]}),
    ]
    g = given(GAME, *events)
    GAME.decider.invariant(g.state)
    first = sorted(CULTISTS)[0]
    after = g.when(0, play_cultist(first, ARKHAM)).after
    assert location(after, ARKHAM).sides[0].cultists == (first,)
    assert g.when(0, draw()).events[0].data["card"] == deck[0]
    assert ENTROPY == bytes(32)


def test_a_location_reads_as_the_dataclass_would_print_it():
    """``position`` digests the text of the Locations, and a game's ``seen`` positions are stored: the hand-written
    ``__repr__`` (faster than the dataclass's) must give exactly the dataclass's text, or stored positions change."""
    import dataclasses

    def generated(obj: object) -> str:
        if not dataclasses.is_dataclass(obj):
            return repr(obj)
        parts = []
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            text = ("(" + ", ".join(generated(v) for v in value) + ("," if len(value) == 1 else "") + ")"
                    if isinstance(value, tuple) else generated(value))
            parts.append(f"{f.name}={text}")
        return f"{type(obj).__qualname__}({', '.join(parts)})"

    places = [Location("Arkham"), Location("R'lyeh", (Side(("c1",), ("m1", "m2")), Side()), "Cthulhu"),
              Location("Kadath", (Side(), Side(("a", "b", "c"), ("m",))), None)]
    for place in places:
        assert repr(place) == generated(place)
    assert repr(tuple(places)) == "(" + ", ".join(generated(p) for p in places) + ")"


def test_a_resignation_ends_the_two_seat_game_for_the_other_seat_at_once():
    """Resignation (docs/rulings/rise-of-cthulhu.md): a table of two ends at the first resignation, the other seat
    winning, before the rulebook's comparison of Locations could be made; with both seats standing the game's own
    comparison names the winner."""
    seating, table = resigned_and_played_out(GAME, 2, [0], seed=1000)
    assert GAME.decider.outcome(table.game) is None and seating.outcome(table).winners == (1,)
    assert str(seating.outcome(table).reason) == "resignation"
    _, ended = resigned_and_played_out(GAME, 2, [], seed=1000)
    assert GAME.decider.winners_among(ended.game, frozenset({0, 1})) == GAME.decider.outcome(ended.game).winners
