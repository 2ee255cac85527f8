"""``python -m tests.golden --write``: record every registered game's golden transcript afresh."""

from __future__ import annotations

import argparse

from shared.games import GAMES
from tests.golden import path_for, transcript


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.golden", description=__doc__)
    parser.add_argument("--write", action="store_true", help="overwrite tests/golden/<game>.txt")
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    args = parser.parse_args()
    for game_id in args.games or sorted(GAMES):
        game = GAMES[game_id]
        lines = list(transcript(game))
        if args.write:
            path_for(game).write_bytes(b"\n".join(lines) + b"\n")
        batches = sum(line.startswith((b"setup ", b"seat ")) for line in lines)
        print(f"{game_id}: {batches} batches, {len(lines):,} lines, {sum(map(len, lines)):,} bytes"
              f"{' written' if args.write else ''}")


if __name__ == "__main__":
    main()
