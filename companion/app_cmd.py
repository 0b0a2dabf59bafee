"""``companion run``: start the companion (or play the bundled demo game through the whole pipeline)."""

from __future__ import annotations

import json
import logging
import signal
import sys

EXIT_MISMATCH = 1


def add_parser(sub) -> None:
    p = sub.add_parser("run", help="start the companion (on a PC: the demo table, the virtual board, a window)")
    p.add_argument("--config", help="a companion.toml (default: ./companion.toml, the user's config, /etc/companion)")
    p.add_argument("--demo", action="store_true", help="watch the bundled demo game instead of the camera")
    p.add_argument("--headless", action="store_true", help="no window; with --demo, print the game as JSON")
    p.add_argument("--db", help="the game database (default: the user's data directory; demo.db for --demo)")
    p.add_argument("--new-game", action="store_true", help="start a new game instead of resuming the last one")
    p.add_argument("--source", help="camera source for this run: picamera, webcam:0, replay:PATH[@FPS][:loop], none")
    p.add_argument("--reader", choices=("camera", "scripted"), default="camera",
                   help="scripted: with --demo, read the cards from the demo's script (checks the pipeline "
                        "without the card reader)")
    p.add_argument("--log-level", choices=("debug", "info", "warning", "error"), help="override log.level")
    p.set_defaults(func=run)


def run(args) -> int:
    from .app import Companion
    from .config import build_config, load_config
    from .demo import DemoGame
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
        demo = DemoGame.build()
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
        app.run()
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
              f"(seen {result['scores']}, scripted {expected['scores']})", file=sys.stderr)
        return EXIT_MISMATCH
    return 0


def _headless_demo(app, demo) -> int:
    """Feed every frame of the demo through the pipeline; print the game seen; 0 if it is the game scripted."""
    try:
        while app.game.state.phase != "over" and not app.stop_requested:
            frame = app.source.read()
            if frame is None:
                break
            app.process_frame(frame, app.source.time)
        result = app.result()
    finally:
        app.close()
    if app.stop_requested:  # stopped by a signal: the game is saved and resumes at the next start
        return 0
    return _report(result, demo)
