"""``companion run``: start the companion (or play the bundled demo game through the whole pipeline)."""

from __future__ import annotations

import json
import logging
import signal
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .demo import DemoGame

EXIT_MISMATCH = 1


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="Start the companion: watch the table, keep the count and light the board.")
    p.add_argument("--config",
                   help="The companion.toml to use (default: ./companion.toml, then the user's, then "
                        "/etc/companion's).")
    p.add_argument("--demo", action="store_true", help="Watch the bundled demo game instead of the camera.")
    p.add_argument("--headless", action="store_true", help="Open no window; with --demo, print the game seen as JSON.")
    p.add_argument("--db",
                   help="The game database (default: games.db in the user's data directory; demo.db with --demo).")
    p.add_argument("--new-game", action="store_true", help="Start a new game instead of resuming the last one.")
    p.add_argument("--source", help="The camera for this run: picamera, webcam:N, replay:PATH[@FPS][:loop] or none.")
    p.add_argument("--reader", choices=("camera", "scripted"), default="camera",
                   help="With --demo, scripted reads the cards from the demo's script, to check the pipeline "
                        "without the card reader (default camera).")
    p.add_argument("--seed", type=int, default=None,
                   help="With --demo, deal the demo game from this seed instead of the bundled one (3).")
    p.add_argument("--variant", default=None,
                   help="With --demo, the variant to play: six-card, five-card, seven-card, three-hand, four-hand "
                        "(partners) or four-individual.")
    p.add_argument("--players", default=None,
                   help="With --demo, the players' names in seat order, comma-separated (Ann,Bob,Cat).")
    p.add_argument("--target", type=int, choices=(61, 121, 181), default=None,
                   help="With --demo, the score to win (default: 61 for the bundled demo, else the variant's own).")
    p.add_argument("--log-level", choices=("debug", "info", "warning", "error"),
                   help="How much to log, overriding log.level in the config.")
    p.set_defaults(func=run)


def demo_from_args(args) -> DemoGame:
    """The demo game the command line asks for; the bundled one (seed 3, two players, 61) without the flags.
    A variant, player list or target that do not fit together is refused by name."""
    from .demo import DemoGame
    from .errors import ConfigError
    from .rules.variants import get_variant

    variant = get_variant(args.variant or "six-card")
    players = tuple(p.strip() for p in args.players.split(",")) if args.players else None
    if players is not None and (len(players) != variant.players or not all(players)):
        raise ConfigError(f"--players: {variant.name} is for {variant.players} players, got {args.players!r}")
    target = args.target or (61 if args.variant is None else None)
    seed = 3 if args.seed is None else args.seed
    return DemoGame.build(variant=variant.name, players=players, target=target, seed=seed)


def run(args) -> int:
    from .app import Companion
    from .config import build_config, load_config
    from .paths import data_dir

    config = load_config(args.config)
    if args.source:
        config = build_config({**config.raw, "camera": {**config.raw.get("camera", {}), "source": args.source}},
                              config.source)
    level = (args.log_level or config.log.level).upper()
    logging.basicConfig(level=level, stream=sys.stderr if args.headless else sys.stdout,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    demo = None
    if args.demo or (config.camera.source == "demo" and not args.source):
        demo = demo_from_args(args)
    db = args.db or (data_dir() / "demo.db" if demo else None)
    if args.headless and demo is not None and args.db and not args.new_game:
        finished = _finished_demo(db, demo)
        if finished is not None:  # restarted after the game ended (a power cut at the last card): report it
            return _report(finished, demo)
    from .service import stop_on_signals

    app = None
    stopping: list[int] = []

    def stop(signum: int) -> None:  # systemctl stop, shutdown: end the loop so that everything is closed
        logging.getLogger("companion").info("%s: stopping", signal.Signals(signum).name)
        stopping.append(signum)
        if app is not None:
            app.stop_requested = True

    with stop_on_signals(stop):
        app = Companion.create(config, headless=args.headless, demo=demo, db_path=db,
                               new_game=args.new_game or (demo is not None and not args.db),
                               recognize="scripted" if args.reader == "scripted" else None)
        app.stop_requested = bool(stopping)
        return _run(app, args, demo)


def _run(app, args, demo) -> int:
    config = app.config
    logging.getLogger("companion").info("game %d: %s; board: %s; camera: %s", app.game.game_id,
                                        ", ".join(app.game.state.players), config.board.driver,
                                        "demo table" if demo else config.camera.source)
    if args.headless and demo is not None:
        return _headless_demo(app, demo)
    if args.headless:
        app.run(until_demo_ends=True)  # a replay ends; a camera runs until stopped
        return 0
    app.pace = 1.0  # the demo table plays at the speed it was filmed
    app.run(until_demo_ends=False)
    return 0


def _finished_demo(db, demo) -> dict | None:
    """The result of the newest game in ``db`` if it is this demo game and it is over."""
    from .demo import result_of
    from .rules.game import replay
    from .store import EventStore

    with EventStore(db) as store:
        game_id = store.latest()
        if game_id is None or store.unfinished() == game_id:
            return None
        events = store.events(game_id)
    if not events or events[0] != demo.events[0]:
        return None
    state = replay(events)
    return result_of(state) if state.winner is not None else None


def _report(result: dict, demo) -> int:
    print(json.dumps(result))
    expected = demo.result
    if result != expected:
        print(f"companion run: the game seen differs from the game scripted "
              f"(seen {result['scores']}, scripted {expected['scores']}): {first_difference(result, expected)}",
              file=sys.stderr)
        return EXIT_MISMATCH
    return 0


def first_difference(seen: dict, scripted: dict) -> str:
    """The first score that differs between two game results, in words."""
    for i, (a, b) in enumerate(zip(seen["events"], scripted["events"])):
        if a != b:
            return f"score {i + 1} in hand {b['hand']}: seen {a['points']} for {a['side']} ({a['reason']}: " \
                   f"{a['spoken']!r}, hand {a['hand']}), scripted {b['points']} for {b['side']} ({b['reason']}: " \
                   f"{b['spoken']!r}, hand {b['hand']})"
    n, m = len(seen["events"]), len(scripted["events"])
    if n != m:
        missing = scripted["events"][n] if m > n else seen["events"][m]
        return f"{'missing' if m > n else 'extra'} score {min(n, m) + 1}: {missing['points']} for " \
               f"{missing['side']} ({missing['reason']}, hand {missing['hand']})"
    return f"winner seen {seen['winner']}, scripted {scripted['winner']}"


def _headless_demo(app, demo) -> int:
    """Feed every frame of the demo through the pipeline; print the game seen; 0 if it is the game scripted."""
    result = watch_to_the_end(app)
    if app.stop_requested:  # stopped by a signal: the game is saved and resumes at the next start
        return 0
    return _report(result, demo)


def watch_to_the_end(app, *, answer_claims: bool = True) -> dict:
    """Feed every frame of ``app``'s table video through the pipeline until the game ends or the video does, and
    return the game seen (:func:`companion.demo.result_of`). With muggins on, the players claim what their cards
    are worth (``answer_claims``), as a headless table cannot press a button."""
    from .table import Phase, QuestionKind

    try:
        while app.game.state.phase != Phase.OVER and not app.stop_requested:
            frame = app.source.read()
            if frame is None:
                break
            app.process_frame(frame, app.source.time)
            if answer_claims:
                for q in [q for q in app.referee.questions if q.kind == QuestionKind.CLAIM]:
                    app.after(app.referee.answer(q, _true_count(app.referee, q.seat)))
        return app.result()
    finally:
        app.close()


def _true_count(referee, seat: int | None) -> int:
    """What the hand or crib about to be counted is worth: a player who counts right claims it."""
    from .rules.show import score_hand

    s = referee.state
    cards = referee.cards_to_count()
    if s.next_show is None:
        return score_hand(cards[:s.variant.crib_size], s.starter, crib=True).total
    return score_hand(cards[:s.variant.hand_size], s.starter).total
