"""The ``companion`` command line.

``companion score 5H 5C 5S JD 5D`` settles a dispute about a count; ``companion peg`` scores the play card by
card (``GO`` where nobody could play); ``companion history`` lists finished games; ``companion run`` starts the
companion. Bad input gets one line on stderr naming the problem and exit code 2, never a traceback, and a command
that only reads never creates, changes or moves a file.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sqlite3
import sys
from collections.abc import Sequence
from typing import Any
from pathlib import Path

from . import __version__
from .cards import parse_cards
from .errors import CompanionError
from .rules.play import LIMIT, score_play
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
    """argparse with the companion's manners: one line and exit 2 for bad input, whole sentences in the help."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        add_help = kwargs.pop("add_help", True)
        kwargs["add_help"] = False  # ours below, with a whole sentence
        super().__init__(*args, **kwargs)
        if add_help:
            self.add_argument("-h", "--help", action="help", help="Show this help and exit.")

    def error(self, message: str):  # one line and exit 2, as for every other bad input
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def _card_tokens(tokens: Sequence[str]) -> list[str]:
    """The tokens as given, refusing an empty one (``''`` from a shell variable that was not set) by position."""
    for i, token in enumerate(tokens):
        if not token.strip():
            raise CompanionError(f"card {i + 1} is empty: give a card code such as 5H")
    return list(tokens)


def _cards_text(cards) -> list[str]:
    return [str(c) for c in cards]


def _cmd_score(args) -> int:
    cards = parse_cards(_card_tokens(args.cards), distinct=True, what="hand and starter")
    if args.crib and len(cards) != 5:
        raise CompanionError(f"a crib is 4 cards and then the starter (5 cards), not {len(cards)}")
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


_GO, _LAST = "GO", "LAST"


def _peg_steps(tokens: Sequence[str]) -> list[dict]:
    """Score the play token by token: a card scores what it makes of the count; ``GO`` (nobody else can lay a
    card) gives one to the last card laid and restarts the count; ``LAST`` gives one for the last card of the
    play. A count of exactly 31 restarts by itself and has already been paid for: a go or last card after it
    is worth nothing more."""
    laid: list = []  # every card of the play so far, to refuse one laid twice
    series: list = []
    steps: list[dict] = []
    for i, token in enumerate(_card_tokens(tokens)):
        word = token.strip().upper()
        if word in (_GO, _LAST):
            if word == _LAST and i != len(tokens) - 1:
                raise CompanionError(f"{token!r} ends the play: it can only be the last token")
            if not laid:
                raise CompanionError(f"{token!r} at position {i + 1}: a card must be laid before a go or the last card")
            if steps[-1]["card"] in (_GO, _LAST):
                raise CompanionError(f"{token!r} at position {i + 1} follows another go: lay a card first")
            what = "one for the go" if word == _GO else "one for the last card"
            paid = bool(series)  # an empty series here means the count just reached 31
            count = sum(c.value for c in series)
            steps.append({"card": word, "count": count if paid else LIMIT, "points": 1 if paid else 0,
                          "items": [{"kind": "go" if word == _GO else "last card", "cards": [str(laid[-1])],
                                     "points": 1}] if paid else [],
                          "spoken": (what[0].upper() + what[1:]) if paid else
                          f"Thirty-one was already paid: nothing more for the {'go' if word == _GO else 'last card'}"})
            series = []
            continue
        card = parse_cards([token], what="play")[0]
        if card in laid:
            raise CompanionError(f"{card} appears twice in the play")
        laid.append(card)
        series.append(card)
        count = sum(c.value for c in series)
        if count > LIMIT:
            raise CompanionError(f"{card} would take the count to {count}, over 31: put GO before it if nobody "
                                 f"else could play")
        score = score_play(series)
        steps.append({"card": str(card), "count": score.count, "points": score.total,
                      "items": [i.to_json() for i in score.items], "spoken": score.spoken,
                      "detail": ", ".join(f"{i.label or i.kind} {i.points}" for i in score.items)})
        if count == LIMIT:
            series = []
    return steps


def _cmd_peg(args) -> int:
    steps = _peg_steps(args.cards)
    if args.json:
        print(json.dumps([{k: v for k, v in step.items() if k != "detail"} for step in steps]))
        return 0
    for step in steps:
        detail = step.get("detail", "")
        print(f"{step['card']:<4} count {step['count']:>2}  {step['points']:>2} points  {step['spoken']}"
              + (f"  ({detail})" if detail else ""))
    return 0


def _read_only_store(path: Path):
    """The event store at ``path`` opened read-only, or a :class:`CompanionError` saying why not.

    A listing must not create a database that is not there, nor set aside one it cannot read (the store does that
    for the game it runs), so SQLite is asked for ``mode=ro`` and the tables are checked before anything is read.
    """
    from .store import EventStore

    if not path.exists():
        raise CompanionError(f"{path}: no such file (no game has been stored there)")
    if not path.is_file():
        raise CompanionError(f"{path}: not a file")
    # With no write-ahead log beside it no companion has the file open, and ``immutable`` keeps SQLite from making
    # one (a reader of a WAL database otherwise leaves NAME-wal and NAME-shm behind); a live one is read as it is.
    live = Path(f"{path}-wal").exists()
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?{'mode=ro' if live else 'immutable=1'}", uri=True,
                             check_same_thread=False)
    except sqlite3.Error as exc:
        raise CompanionError(f"{path}: cannot be opened ({exc})") from None
    try:
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    except sqlite3.DatabaseError:
        db.close()
        raise CompanionError(f"{path}: not a companion game database (not SQLite); it was left as it is") from None
    if not {"games", "events"} <= tables:
        db.close()
        raise CompanionError(f"{path}: not a companion game database (no games table); it was left as it is")
    store = EventStore.__new__(EventStore)  # the store's queries over a connection that cannot write
    store.path, store.warning, store._db = str(path), None, db
    return store


def _capped(store, game):
    """``game`` with each score past the target shown as the target: the winner pegs out at 121, not 122."""
    from dataclasses import replace

    from .rules.variants import VARIANTS

    row = store._db.execute("SELECT data FROM events WHERE game_id = ? AND seq = 0", (game.game_id,)).fetchone()
    try:
        target = json.loads(row[0]).get("target") if row else None
    except (ValueError, AttributeError):
        target = None
    target = target or getattr(VARIANTS.get(game.variant), "target", None)
    if not target:
        return game
    return replace(game, scores={name: min(points, target) for name, points in game.scores.items()})


def _cmd_history(args) -> int:
    from .paths import history_database

    if args.limit < 1:
        raise CompanionError(f"--limit {args.limit}: give 1 or more games")
    path = Path(args.db) if args.db else history_database()  # the user's games, else the service's on a Pi
    if not args.db and not path.exists():  # nothing played on this machine yet: nothing to list, nothing created
        store = None
    else:
        store = _read_only_store(path)
    try:
        games = [_capped(store, g) for g in store.history(limit=args.limit)] if store else []
        stats = store.player_stats() if store else {}
    except sqlite3.DatabaseError as exc:
        raise CompanionError(f"{path}: cannot be read ({exc}); it was left as it is") from None
    finally:
        if store is not None:
            store.close()
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
    print("\nPlayer      played  won  games")
    for name, row in sorted(stats.items()):
        print(f"{name:<12}{row['played']:>6}{row['won']:>5}{row['games_won']:>7}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description="The cribbage companion: reads the cards, keeps the count, "
                                                   "lights the pegs.")
    parser.add_argument("--version", action="version", version=f"companion {__version__}",
                        help="Show the companion's version and exit.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("score", help="Count a hand or a crib: give the hand cards, then the starter.",
                       description="Count a hand or a crib and say how each point was made.")
    p.add_argument("cards", nargs="+", metavar="CARD",
                   help="The hand's 3 to 5 cards (a crib's 4), then the starter last, e.g. 5H 5C 5S JD 5D.")
    p.add_argument("--crib", action="store_true", help="Count the cards as the crib, where a flush needs all five.")
    p.add_argument("--json", action="store_true", help="Print the count as one JSON object.")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("peg", help="Score the play card by card, in the order the cards were laid.",
                       description="Score the play card by card. Put GO where nobody else could lay a card (one "
                                   "for the go, the count starts again) and LAST after the last card of the play.")
    p.add_argument("cards", nargs="+", metavar="CARD",
                   help="The cards in the order laid, with GO and LAST where they happened, e.g. 7H 8S GO 9C LAST.")
    p.add_argument("--json", action="store_true", help="Print one JSON object per card, go and last card.")
    p.set_defaults(func=_cmd_peg)

    p = sub.add_parser("history", help="List the finished games and each player's statistics.",
                       description="List the finished games and each player's statistics. The database is only "
                                   "read: it is never created, changed or moved.")
    p.add_argument("--db", help="The game database to read (default: games.db in the user's data directory, or "
                                "the service's /var/lib/companion/games.db when the user has none).")
    p.add_argument("--limit", type=int, default=20, help="List at most this many games, newest first (default 20).")
    p.add_argument("--json", action="store_true", help="Print the games as a JSON list.")
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
    if not getattr(args, "func", None):  # no command: what there is to choose from, and a usage error
        parser.print_help(sys.stderr)
        return EXIT_BAD_INPUT
    try:
        return int(args.func(args) or 0)
    except (CompanionError, ValueError) as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
