"""The toy game's rules as scenarios (the template of docs/adding-a-game.md: a game's rulebook as given / when /
then, each rule said with the events it emits or the refusal it meets)."""

from shared.games.toy import GAME
from shared.games.toy.cards import CARDS
from shared.kernel import ev
from tests.support.scenario import given

HIDDEN = {"deck": []}  # the shuffled deck: secret from every seat until the game ends


def dealt(top, *hands, rest=True):
    """A deal: the deck left after it (``top`` first, every card nobody holds below unless ``rest`` is false),
    then each seat's cards (a card or a list of them)."""
    held = [[h] if isinstance(h, int) else list(h) for h in hands]
    below = [c for c in CARDS if c not in top and all(c not in h for h in held)] if rest else []
    return [ev("game_started", players=len(hands), deck=[*top, *below], secret=HIDDEN),
            *(ev("card_dealt", seat=s, card=c, secret={"card": [s]}) for s, h in enumerate(held) for c in h)]


def test_rule_2_a_seat_draws_the_top_card_and_only_it_sees_which():
    given(GAME, *dealt([7, 2], 5, 9)).when(0, {"type": "draw_card"}).then(ev("card_drawn", seat=0, card=7, secret={"card": [0]}))


def test_rule_2_the_seats_take_turns():
    table = given(GAME, *dealt([7, 2], 5, 9))
    table.when(1, {"type": "draw_card"}).refused("rules/not_your_turn")
    table.played((0, {"type": "draw_card"})).when(1, {"type": "draw_card"}).then(
        ev("card_drawn", seat=1, card=2, secret={"card": [1]}))


def test_rule_2_an_empty_deck_cannot_be_drawn_from():
    given(GAME, *dealt([], [5, 1, 2, 3, 4, 6], [9, 7, 8, 10, 11, 12], rest=False)).when(0, {"type": "draw_card"}).refused(
        "rules/deck_empty")


def test_rule_3_a_seat_plays_a_card_it_holds_face_up():
    table = given(GAME, *dealt([7, 2], 5, 9))
    table.when(0, {"type": "play_card", "card": 5}).then(ev("card_played", seat=0, card=5))
    table.when(0, {"type": "play_card", "card": 9}).refused("rules/card_not_in_hand")
