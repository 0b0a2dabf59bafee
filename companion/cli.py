"""The ``companion`` command line.

``companion score 5H 5C 5S JD 5D`` settles a dispute about a count; ``companion peg`` scores a series of the play;
``companion history`` lists finished games; ``companion run`` starts the companion. Bad input gets one line on
stderr naming the problem and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from . import __version__
from .cards import parse_cards
from .errors import CompanionError
from .rules.play import score_play
from .rules.show import score_hand

EXIT_BAD_INPUT = 2

# Commands that live beside the part of the program they drive; each module has add_parser() and run().
_PLUGGED = (
    "companion.app_cmd",
    "companion.vision.read_cmd",
    "companion.vision.watch_cmd",
    "companion.vision.mat_cmd",
    "companion.vision.calibrate_cmd",
    "companion.board.board_test_cmd",
    "companion.setup_cmd",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line and exit 2, as for every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def _cards_text(cards) -> list[str]:
    return [str(c) for c in cards]


def _cmd_score(args) -> int:
    cards = parse_cards(" ".join(args.cards), distinct=True, what="hand and starter")
    if len(cards) not in (4, 5, 6):
        raise CompanionError(f"give 3 to 5 hand cards and then the starter (4 to 6 cards), not {len(cards)}")
    hand, starter = cards[:-1], cards[-1]
    score = score_hand(hand, starter, crib=args.crib)
    if args.json:
        print(json.dumps({"total": score.total, "items": [i.to_json() for i in score.items],
                          "spoken": score.spoken}))
        return 0
    what = "Crib" if args.crib else "Hand"
    print(f"{what}: {' '.join(map(str, hand))}   starter: {starter}")
    for item in score.items:
        print(f"  {item.kind:<8} {' '.join(_cards_text(item.cards)):<16} {item.points:>2}")
    print(f"  {'total':<25} {score.total:>2}")
    print(score.spoken)
    return 0


def _cmd_peg(args) -> int:
    cards = parse_cards(" ".join(args.cards), distinct=True, what="series")
    series, out = [], []
    for card in cards:
        series.append(card)
        if sum(c.value for c in series) > 31:
            raise CompanionError(f"{card} would take the count to {sum(c.value for c in series)}, over 31")
        score = score_play(series)
        out.append((card, score))
    if args.json:
        print(json.dumps([{"card": str(c), "count": s.count, "points": s.total,
                           "items": [i.to_json() for i in s.items], "spoken": s.spoken} for c, s in out]))
        return 0
    for card, score in out:
        detail = ", ".join(f"{i.label or i.kind} {i.points}" for i in score.items)
        print(f"{str(card):<3} count {score.count:>2}  {score.total:>2} points  {score.spoken}"
              + (f"  ({detail})" if detail else ""))
    return 0


def _cmd_history(args) -> int:
    from .paths import history_database
    from .store import EventStore

    path = Path(args.db) if args.db else history_database()
    with EventStore(path, readonly=path.is_file()) as store:  # reading the history never changes the file
        if store.warning:
            print(store.warning, file=sys.stderr)
        games = store.history(limit=args.limit)
        if args.json:
            print(json.dumps([g.__dict__ for g in games]))
            return 0
        if not games:
            print("No finished games yet.")
            return 0
        for g in games:
            scores = ", ".join(f"{name} {pts}" for name, pts in g.scores.items())
            extra = f" ({g.skunk})" if g.skunk else ""
            print(f"{g.finished[:16].replace('T', ' ')}  {g.variant:<12} {g.winner} won{extra}: {scores}")
        stats = store.player_stats()
        print("\nPlayer      played  won  games")
        for name, row in sorted(stats.items()):
            print(f"{name:<12}{row['played']:>6}{row['won']:>5}{row['games_won']:>7}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description="The cribbage companion: reads the cards, keeps the count, "
                                                   "lights the pegs.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("score", help="count a hand or crib: the hand cards, then the starter")
    p.add_argument("cards", nargs="+", help="e.g. 5H 5C 5S JD 5D (the last card is the starter)")
    p.add_argument("--crib", action="store_true", help="count as the crib (a flush needs all five)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("peg", help="score each card of one series of the play, in the order laid")
    p.add_argument("cards", nargs="+", help="e.g. 5H TD 5S")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_cmd_peg)

    p = sub.add_parser("history", help="finished games and player statistics")
    p.add_argument("--db", help="the game database (default: the user's data directory, else the service's "
                                "/var/lib/companion/games.db)")
    p.add_argument("--limit", type=int, default=20)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_history)

    for name in _PLUGGED:
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except (CompanionError, ValueError) as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
