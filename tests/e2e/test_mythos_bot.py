"""``mythos bot run`` against the real stack (issue 45): each example bot of docs/bots/ seeks a quick play game of its
game against AI seats and plays it to the end through the runner, which logs the end and the audit; the runner whose
connections are all cut once mid-game (its player's stream, its game's stream, an answer on its way) resumes and
finishes, each of its commands applied once; and a runner answers two challenges by its policy and plays the one it
accepts against another runner's bot to the end, cut off once mid-game too. The loop's rules one by one:
tests/unit/test_bot_game_loop.py."""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import requests

from shared.games import GAMES
from tests.support.browser import wait_for
from tests.support.cut_proxy import CutProxy

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
MYTHOS = str(Path(sys.executable).with_name("mythos"))


def bot_account(url: str, name: str) -> tuple[str, str]:
    made = requests.post(f"{url}/v1/players", json={"name": name, "bot": True}, timeout=10).json()
    return made["key"], made["id"]


def bot_args(url: str, key: str, bot: str, *games: str) -> list[str]:
    """A run that seeks a game of each of ``games`` in turn, AI seats of the fast level filling each at once, plays them
    at the same time and leaves after them."""
    quick = [arg for game in games for arg in ("--quick", game)]
    return [MYTHOS, "bot", "run", "--key", key, "--url", url, *quick, "--ai-after", "0", "--ai", "random",
            "--concurrency", str(len(games)), "--games", str(len(games)), str(ROOT / "docs" / "bots" / bot)]


def games_of(out: str) -> dict[str, str]:
    """The tables a run sat down at, by game title."""
    return {title: game_id for game_id, title in re.findall(r" (g_[\w-]+) (.*): seat \d+ against ", out)}


def check_played(url: str, out: str, player: str, game: str, game_id: str) -> None:
    """The game is over, the bot's seat marked a bot, every command the run counted applied once, and the log says the
    end and a verified audit."""
    table = requests.get(f"{url}/v1/games/{game_id}", timeout=10).json()
    assert table["game"] == game and table["status"] == "finished", table
    seat = next(s for s in table["seats"] if s.get("player") == player)
    assert seat["bot"] is True
    over = re.search(rf"{game_id} over \((\w+)\): .*; (\d+) commands", out)
    assert over and over.group(1) == table["outcome"]["reason"], out
    export = requests.get(f"{url}/v1/games/{game_id}/export", timeout=30).json()
    assert sum(c["seat"] == seat["seat"] and c["by"] == "seat" for c in export["commands"]) == int(over.group(2))
    assert f"{game_id} audit: verified (hash chain ok, re-decision ok" in out, out
    audit = requests.get(f"{url}/v1/games/{game_id}/audit", timeout=30).json()
    assert audit["chain_ok"] and audit["replay_ok"]


def test_the_example_bots_play_a_quick_play_game_of_every_kind_at_once_against_ai_seats_to_its_end(stack):
    key, player = bot_account(stack.url, "Example bot")
    ran = subprocess.run(bot_args(stack.url, key, "every_game.py:BOT", *sorted(GAMES)), capture_output=True, text=True,
                         timeout=180, cwd="/")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "Traceback" not in ran.stdout + ran.stderr and "replaced by the first legal command" not in ran.stdout
    tables = games_of(ran.stdout)
    assert sorted(tables) == sorted(g.catalogue.title for g in GAMES.values()), ran.stdout
    for game in GAMES.values():
        check_played(stack.url, ran.stdout, player, game.id, tables[game.catalogue.title])


def test_a_bot_cut_off_mid_game_resumes_on_both_streams_and_finishes(stack):
    proxy = CutProxy(stack.port)
    key, player = bot_account(stack.url, "Cut bot")
    run = subprocess.Popen(bot_args(proxy.url, key, "every_game.py:BOT", "rites-of-cthulhu"), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, cwd="/")
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(run.stdout), daemon=True).start()
    try:
        game_id = wait_for(lambda: games_of("".join(lines)).get("Rites of Cthulhu"), what="the table")

        def mid_game():
            table = requests.get(f"{stack.url}/v1/games/{game_id}", timeout=10).json()
            return table if table["status"] != "active" or table["version"] >= 60 else None

        table = wait_for(mid_game, timeout_s=60, what="the game to be under way")
        assert table["status"] == "active", "the game ended before the cut"
        assert proxy.cut() >= 2  # the player's stream and the game's, at least
        assert run.wait(120) == 0, "".join(lines)
    finally:
        run.kill()
        proxy.close()
    out = "".join(lines)
    assert re.search(rf"{game_id}: the stream dropped; resumed after version \d+", out), out
    assert "the player's stream dropped; reopened" in out
    check_played(stack.url, out, player, "rites-of-cthulhu", game_id)


def test_a_bot_answers_challenges_by_its_policy_and_plays_the_one_it_accepts_to_its_end_though_cut_off_mid_game(stack):
    """Two runners of the docs' bot: the challenged (casual games only, behind a proxy) declines a rated challenge and
    accepts a casual one, the challenger's runner (which accepts none) finds the table on its stream, and they play it
    to the end, the challenged one's connections all cut once mid-game."""
    proxy = CutProxy(stack.port)
    key, player = bot_account(stack.url, "Challenged bot")
    their_key, challenger = bot_account(stack.url, "Challenger bot")
    runs, outs = [], [[], []]
    for run_key, url, policy, out in ((key, proxy.url, "casual", outs[0]), (their_key, stack.url, "none", outs[1])):
        runs.append(subprocess.Popen([MYTHOS, "bot", "run", "--key", run_key, "--url", url, "--games", "1", "--accept",
                                      policy, str(ROOT / "docs" / "bots" / "every_game.py:BOT")],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd="/"))
        threading.Thread(target=lambda r=runs[-1], o=out: o.extend(r.stdout), daemon=True).start()
    try:
        def challenge(rated: bool) -> dict:
            made = requests.post(f"{stack.url}/v1/challenges", headers={"Authorization": f"Bearer {their_key}"}, timeout=10,
                                 json={"to": player, "game": "pocket-madness", "rated": rated})
            assert made.status_code == 201, made.text
            return made.json()

        def answered(made: dict) -> dict | None:
            found = requests.get(f"{stack.url}/v1/challenges/{made['id']}", headers={"Authorization": f"Bearer {their_key}"},
                                 timeout=10).json()
            return found if found["status"] != "open" else None

        rated, casual = challenge(rated=True), challenge(rated=False)
        assert wait_for(lambda: answered(rated), what="the rated challenge's answer")["status"] == "declined"
        accepted = wait_for(lambda: answered(casual), what="the casual challenge's answer")
        assert accepted["status"] == "accepted" and accepted["table"]

        def mid_game():
            reply = requests.get(f"{stack.url}/v1/games/{accepted['table']}", timeout=10)
            assert reply.status_code == 200, reply.text  # an accepted challenge names a table that is there
            table = reply.json()
            return table if table["status"] != "active" or table["version"] >= 60 else None

        assert wait_for(mid_game, timeout_s=60, what="the game to be under way")["status"] == "active"
        assert proxy.cut() >= 2
        assert [run.wait(120) for run in runs] == [0, 0], ["".join(out) for out in outs]
    finally:
        for run in runs:
            run.kill()
        proxy.close()
    mine, theirs = ("".join(out) for out in outs)
    assert "declined Challenger bot's challenge (pocket-madness): this bot plays casual games only" in mine, mine
    assert "accepted Challenger bot's challenge (pocket-madness, casual)" in mine, mine
    assert re.search(rf"{accepted['table']}: the stream dropped; resumed after version \d+", mine), mine
    for out, who in ((mine, player), (theirs, challenger)):
        assert games_of(out) == {"Pocket Madness": accepted["table"]}, out
        check_played(stack.url, out, who, "pocket-madness", accepted["table"])
