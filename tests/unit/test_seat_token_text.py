"""A seat token is text a person pastes into a command line: ``mythos play G --token T`` read a token that began
with '-' (one draw in 64) as an option and refused it, so none begins so; none begins like a player key either."""

from __future__ import annotations

import argparse
import random

from session_service.cli.play import add_parser
from session_service.use_cases.players import KEY_PREFIX, is_player_key, seat_token


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(exit_on_error=False)
    add_parser(top.add_subparsers(dest="command"))
    return top


def test_a_token_drawn_with_a_leading_dash_is_taken_by_the_play_command_as_given():
    drawn = "-Zb9xQ2w_k1mN0pQrStUvWxYz01234"
    token = seat_token(drawn)
    assert not token.startswith("-") and token == seat_token(drawn)  # the same text again for a retried request
    assert parser().parse_args(["play", "g_abc", "--token", token]).token == token


def test_every_seat_token_is_a_seat_token_and_reads_as_one_argument():
    rng, play = random.Random(5), parser()
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    draws = ["-" + "".join(rng.choice(alphabet) for _ in range(31)) for _ in range(50)]
    draws += [KEY_PREFIX + "x" * 29, "".join(rng.choice(alphabet) for _ in range(32))]
    for drawn in draws:
        token = seat_token(drawn)
        assert not is_player_key(token)
        assert play.parse_args(["play", "g_abc", "--token", token, "--seat", "1"]).token == token
