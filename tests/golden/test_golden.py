"""Every registered game replays its golden transcript byte for byte (``python -m tests.golden --write``); a
difference shows as a unified diff around the first line that differs."""

from __future__ import annotations

import difflib

import pytest

from shared.games import GAMES
from tests.golden import path_for, transcript

SHOWN = 24  # lines of the diff a failure shows: enough for one command's facts
WIDE = 400  # characters of a long line a failure shows


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_seeded_game_replays_its_golden_transcript(game_id):
    game = GAMES[game_id]
    path = path_for(game)
    assert path.exists(), f"no golden transcript for {game_id}: run python -m tests.golden --write {game_id}"
    recorded = path.read_text().splitlines()
    played = [line.decode() for line in transcript(game)]
    if played != recorded:
        pytest.fail(f"{game_id} no longer plays as {path.name} (python -m tests.golden --write {game_id}, then "
                    f"review the diff):\n{first_difference(recorded, played)}", pytrace=False)


def first_difference(recorded: list[str], played: list[str]) -> str:
    """A unified diff from a little before the first differing line, cut to ``SHOWN`` lines of ``WIDE`` characters."""
    first = next((i for i, (a, b) in enumerate(zip(recorded, played, strict=False)) if a != b),
                 min(len(recorded), len(played)))
    start = max(0, first - 3)
    diff = difflib.unified_diff(recorded[start : first + SHOWN], played[start : first + SHOWN],
                                f"recorded (from line {start + 1})", "played", lineterm="", n=3)
    return "\n".join(line if len(line) <= WIDE else line[:WIDE] + " …" for line in list(diff)[:SHOWN])


def test_a_difference_shows_as_a_diff_at_the_first_differing_line():
    recorded = ["game x", "setup {}", "event a {\"seat\":0}", "head 1", "view 0 hand [1]"]
    played = ["game x", "setup {}", "event a {\"seat\":1}", "head 2", "view 0 hand [1]"]
    said = first_difference(recorded, played).splitlines()
    assert said[2].startswith("@@") and said[3:] == [
        " game x", " setup {}", '-event a {"seat":0}', "-head 1", '+event a {"seat":1}', "+head 2", " view 0 hand [1]"]


def test_every_registered_game_has_a_golden_transcript():
    assert all(path_for(game).exists() for game in GAMES.values())
