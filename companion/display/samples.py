"""Views from real scripted games, for the screenshots, the benchmark, the tests and a demo.

Each scene plays a game with the rules engine up to a moment worth showing, then builds its view with
:func:`~companion.display.view.view_from_state`. Nothing here is drawn by hand except the menus, the correction
screens and the camera picture, which have no game state of their own.

>>> views = sample_views()
>>> views["show-29"].show.total
29
"""

from __future__ import annotations

from ..cards import Card, parse_cards
from ..rules.events import Correction, Deal, Discard, Go, NewGame, Play, Show, Starter
from ..rules.game import Game
from ..rules.play import LIMIT
from ..rules.variants import Options
from ..table import Phase
from .menus import calibration_menu, new_game_menu, settings_menu
from .newgame import GameChoices, abandon_view, new_game_view
from .view import (CAMERA_LOST, LED_UNAVAILABLE, CameraView, CorrectionView, SeenCard, ZoneView, card_seen_twice,
                   view_from_state)

PLAYERS = ("Alice", "Bob")


def _hand(game: Game, dealt: tuple[str, str], discards: tuple[str, str], starter: str) -> list[list[Card]]:
    """Deal (seat 0 and seat 1's six cards), discard and turn the starter; return what each seat keeps."""
    game.apply(Deal())
    kept = []
    for seat in (0, 1):
        cards = parse_cards(dealt[seat])
        out = parse_cards(discards[seat])
        game.apply(Discard(seat, tuple(out)))
        kept.append([c for c in cards if c not in out])
    game.apply(Starter(Card.parse(starter)))
    return kept


def _play_out(game: Game, kept: list[list[Card]], stop_after: int | None = None) -> None:
    """Play the hands in the order they are listed, the first card that fits, until the play ends (or after
    ``stop_after`` cards)."""
    left = [list(k) for k in kept]
    played = 0
    while game.state.phase == Phase.PLAY and (stop_after is None or played < stop_after):
        seat = game.state.turn
        fits = [c for c in left[seat] if game.state.count + c.value <= LIMIT]
        if fits:
            left[seat].remove(fits[0])
            game.apply(Play(seat, fits[0]))
            played += 1
        else:
            game.apply(Go(seat))


# Alice deals; Bob holds 5-5-5-J and the starter is the fourth five: the 29 hand.
HAND_29 = (("7H 8H 2C 3D 4H 6S", "9C KC 5H 5C 5S JD"), ("7H 8H", "9C KC"), "5D")
# Bob leads 4, Alice 2, Bob 6, Alice 5, Bob 3 (a run of five), Alice 7: a run of six for 27.
HAND_RUN = (("7C 8C 2D 5S 7D QH", "9S KD 4C 6H 3C KH"), ("7C 8C", "9S KD"), "AS")


def new_game(*, muggins: bool = False, start: tuple[int, int] = (0, 0)) -> Game:
    game = Game([NewGame("six-card", PLAYERS, Options(muggins=muggins), first_dealer=0)])
    for side, points in enumerate(start):
        if points:
            game.apply(Correction(side, points, "carried over from a paper board"))
    return game


def game_29(start: tuple[int, int] = (0, 0), *, claimed: int | None = None) -> Game:
    """Up to Bob counting the 29 hand (first in the show)."""
    game = new_game(muggins=claimed is not None, start=start)
    kept = _hand(game, *HAND_29)
    _play_out(game, kept)
    if game.state.phase == Phase.SHOW:
        game.apply(Show(1, tuple(kept[1]), claimed))
    return game


def game_long_run() -> Game:
    """In the play, just after the six-card run for 27."""
    game = new_game(start=(14, 9))
    kept = _hand(game, *HAND_RUN)
    _play_out(game, [kept[0][:3] + kept[0][3:], kept[1]], stop_after=6)
    return game


def game_after_go() -> Game:
    """The run for 27, then neither can lay a card: Alice pegs one for the go with the 7D, and the count restarts."""
    game = game_long_run()
    game.apply(Go(1))
    game.apply(Go(0))
    return game


def scripted_states(variant: str, names: tuple[str, ...], seed: int = 7):
    """A whole scripted game of ``variant`` from shuffled decks: the play state with the longest series, and the
    final state."""
    import random

    from ..cards import full_deck
    from ..rules.autoplay import script_game

    rng = random.Random(seed)
    decks = []
    for _ in range(80):
        deck = full_deck()
        rng.shuffle(deck)
        decks.append(deck)
    game = Game()
    best = None
    for event in script_game(variant, names, decks):
        game.apply(event)
        if game.state.phase == Phase.PLAY and (best is None or len(game.state.series) >= len(best.series)):
            best = game.state
    return best, game.state


def sample_views() -> dict[str, object]:
    """Named views: the main screens at the moments that matter, from scripted games."""
    run = game_long_run().state
    g29 = game_29((22, 17)).state
    mug = game_29((22, 17), claimed=24).state
    out = game_29((95, 100)).state
    skunk = game_29((70, 100)).state
    double = game_29((40, 100)).state
    won = (1, 2)
    views: dict[str, object] = {
        "scoreboard": view_from_state(run, games_won=won, screen="scoreboard"),
        "play-run": view_from_state(run, games_won=won),
        "show-29": view_from_state(g29, games_won=won),
        "show-muggins": view_from_state(mug, games_won=won),
        "show-counted-out": view_from_state(out, games_won=won, screen="show"),
        "history": view_from_state(g29, games_won=won, screen="history", selected=1),
        "game-over": view_from_state(out, games_won=(1, 3)),
        "game-over-skunk": view_from_state(skunk, games_won=(1, 4)),
        "game-over-double-skunk": view_from_state(double, games_won=(1, 6)),
        "messages": view_from_state(run, games_won=won, messages=(CAMERA_LOST, card_seen_twice("5H"),
                                                                   LED_UNAVAILABLE)),
        "menu-new-game": new_game_menu(),
        "menu-settings": settings_menu(),
        "menu-calibration": calibration_menu(),
        "correction-pick": CorrectionView("pick", cards=tuple(parse_cards("4C 2D 6H 5S 3C 7D")), selected=2),
        "correction-choose": CorrectionView("choose", card=Card.parse("6H"), rank=8, suit="H", field="rank"),
        "correction-owner": CorrectionView("owner", card=Card.parse("QS"), owners=PLAYERS, selected=1),
        "camera": sample_camera_view(),
        "play-go": view_from_state(game_after_go().state, games_won=won),
        "history-open": view_from_state(g29, games_won=won, screen="score", selected=0),
        "new-game": new_game_view(GameChoices(names=PLAYERS, pool=("Carol",)), selected=2),
        "abandon": abandon_view(GameChoices(names=PLAYERS), "Alice 32, Bob 47"),
    }
    for variant, names in (("three-hand", ("Ann", "Ben", "Cat")), ("four-hand", ("Ann", "Ben", "Cat", "Dan"))):
        play, end = scripted_states(variant, names)
        views[f"play-{variant}"] = view_from_state(play)
        views[f"scoreboard-{variant}"] = view_from_state(play, screen="scoreboard")
        views[f"game-over-{variant}"] = view_from_state(end)
    return views


def sample_camera_view():
    """A synthetic picture of the mat: two rows, a starter zone and two cards read."""
    import numpy as np

    h, w = 480, 640
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = (24, 90, 50)
    frame[200:300, 40:110] = (240, 240, 240)
    frame[60:160, 300:370] = (240, 240, 240)
    zones = (ZoneView("Alice", ((20, 180), (620, 180), (620, 320), (20, 320))),
             ZoneView("Bob", ((20, 340), (620, 340), (620, 470), (20, 470)), (255, 180, 80)),
             ZoneView("starter", ((280, 40), (390, 40), (390, 170), (280, 170)), (200, 200, 255)))
    cards = (SeenCard(((40, 200), (110, 200), (110, 300), (40, 300)), Card.parse("5H"), 0.97),
             SeenCard(((300, 60), (370, 60), (370, 160), (300, 160)), Card.parse("JD"), 0.62))
    return CameraView(frame, 1, zones, cards, "camera 0 · 15 fps")


__all__ = ["HAND_29", "HAND_RUN", "game_29", "game_after_go", "game_long_run", "sample_camera_view", "sample_views",
           "scripted_states"]

