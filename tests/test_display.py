"""The screens at every size, for views from real scripted games: what a player must see, nothing cut off or
overlapping."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import itertools  # noqa: E402

import pygame  # noqa: E402
import pytest  # noqa: E402

from companion.cards import Card, parse_cards  # noqa: E402
from companion.display import SIZES, Drawn, draw_screen, screen_for  # noqa: E402
from companion.display.samples import game_29, game_long_run, sample_views  # noqa: E402
from companion.display.view import Message, SideView, TableView  # noqa: E402

SIZE_IDS = [f"{w}x{h}" for w, h in SIZES]


@pytest.fixture(scope="module")
def views():
    return sample_views()


@pytest.fixture(scope="module")
def surfaces():
    pygame.font.init()
    return {size: pygame.Surface(size) for size in SIZES}


def check_layout(drawn: Drawn) -> None:
    """Every text and card inside the screen; no two texts overlap; no text lies on a card."""
    screen = pygame.Rect((0, 0), drawn.size)
    for t in drawn.texts:
        assert screen.contains(t.rect), f"{t.text!r} ({t.role}) at {t.rect} is cut off by the {drawn.size} screen"
        assert t.rect.w > 0 and t.rect.h > 0
    for c in drawn.cards:
        assert screen.contains(c.rect), f"card {c.card} at {c.rect} is cut off by the {drawn.size} screen"
    for a, b in itertools.combinations(drawn.texts, 2):
        assert not a.rect.colliderect(b.rect), f"{a.text!r} ({a.role}) overlaps {b.text!r} ({b.role})"
    for t in drawn.texts:
        for c in drawn.cards:
            assert not t.rect.colliderect(c.rect), f"{t.text!r} ({t.role}) lies on card {c.card}"
        for target in drawn.targets:  # a text is inside a button or clear of it
            assert target.rect.contains(t.rect) or not target.rect.colliderect(t.rect), \
                f"{t.text!r} ({t.role}) is half on the {target.name} button {target.index}"


def texts(drawn: Drawn, role: str) -> list[str]:
    return [t.text for t in drawn.find(role)]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_every_screen_fits_at_every_size(views, surfaces, size):
    for name, view in views.items():
        drawn = draw_screen(surfaces[size], view)
        try:
            check_layout(drawn)
        except AssertionError as exc:
            raise AssertionError(f"{name} at {size[0]}x{size[1]}: {exc}") from None
        assert drawn.texts, name
        cut = [t.text for t in drawn.texts if t.role in MUST_READ and t.text.endswith("...")]
        assert not cut, f"{name} at {size[0]}x{size[1]}: cut with '...': {cut}"


MUST_READ = {"name", "score", "count", "total", "claimed", "spoken", "last-points", "winner", "skunk", "item-title",
             "item-points", "running", "show-title", "row-name", "who", "points", "message", "owner", "rank"}


@pytest.mark.parametrize("screen", ["scoreboard", "play", "show", "history", "game over"])
@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_every_table_screen_for_every_scene(views, surfaces, size, screen):
    for view in views.values():
        if isinstance(view, TableView):
            check_layout(draw_screen(surfaces[size], view, screen))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_scoreboard_names_scores_dealer_turn_games_and_skunk_lines(views, surfaces, size):
    state = game_long_run().state
    drawn = draw_screen(surfaces[size], views["scoreboard"])
    assert drawn.screen == "scoreboard"
    assert texts(drawn, "name") == ["Alice", "Bob"]
    assert texts(drawn, "score") == [str(state.sides[0].front), str(state.sides[1].front)]
    info = texts(drawn, "info")
    assert "Dealer" in info[0] and "Games 1" in info[0]
    assert "To play" in info[1] and "Games 2" in info[1]
    assert len(drawn.find("skunk-line")) == 2 and texts(drawn, "target") == ["121"]
    assert any("Bob" in t for t in texts(drawn, "phase"))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_play_shows_count_series_and_the_run_highlighted(views, surfaces, size):
    drawn = draw_screen(surfaces[size], views["play-run"])
    assert drawn.screen == "play"
    assert texts(drawn, "count") == ["27"]
    assert "Alice: Twenty-seven for six" in texts(drawn, "spoken")
    assert texts(drawn, "last-points") == ["+6"]
    series = [c for c in drawn.cards if c.role == "series"]
    assert [c.card for c in sorted(series, key=lambda c: c.index)] == parse_cards("4C 2D 6H 5S 3C 7D")
    assert all(c.highlighted for c in series)
    assert texts(drawn, "row-name") == ["Alice", "Bob"]
    # each player's row: Bob's cards in one row, Alice's in the other, in the order laid
    rows = {c.card: c.rect.centery for c in series}
    assert rows[Card.parse("4C")] == rows[Card.parse("6H")] == rows[Card.parse("3C")]
    assert rows[Card.parse("2D")] == rows[Card.parse("5S")] == rows[Card.parse("7D")]
    assert rows[Card.parse("4C")] != rows[Card.parse("2D")]


def test_play_highlights_only_the_cards_that_scored(surfaces):
    game = game_long_run()
    from companion.display.view import view_from_state
    from companion.rules.events import Go

    assert game.try_apply(Go(1)) is None  # Bob cannot play his king on 27
    game.try_apply(Go(0))
    view = view_from_state(game.state)
    drawn = draw_screen(surfaces[(800, 480)], view, "play")
    check_layout(drawn)
    hi = {c.card for c in drawn.cards if c.highlighted}
    assert hi <= set(view.last_score.highlighted)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_show_29_lists_every_item_with_its_cards(views, surfaces, size):
    drawn = draw_screen(surfaces[size], views["show-29"])
    assert drawn.screen == "show"
    assert texts(drawn, "total") == ["29"]
    assert texts(drawn, "show-title") == ["Bob's hand"]
    assert [c.card for c in drawn.cards if c.role == "hand"] == parse_cards("5H 5C 5S JD")
    assert [c.card for c in drawn.cards if c.role == "starter"] == parse_cards("5D")
    titles = texts(drawn, "item-title")
    if size[1] >= 480 or not drawn.find("more"):  # the whole breakdown on one page
        assert titles.count("Fifteen") == 8 and titles.count("Pair") == 6 and titles.count("His nobs") == 1
        assert texts(drawn, "running")[-1] == "29"
    else:
        assert len(titles) >= 8
    for i, item in enumerate(views["show-29"].show.items[:len(titles)]):
        assert [c.card for c in drawn.cards if c.role == "item-card" and c.index == i] == list(item.cards)


def test_show_pages_and_selected_item(views, surfaces):
    from dataclasses import replace

    view = views["show-29"]
    many = replace(view, show=replace(view.show, items=view.show.items * 3))  # 45 lines: more than fit
    shown = 0
    for page in range(3):
        drawn = draw_screen(surfaces[(800, 480)], replace(many, show=replace(many.show, page=page)))
        check_layout(drawn)
        shown += len(texts(drawn, "item-title"))
        assert texts(drawn, "more")
    assert shown == 45
    chosen = replace(view, show=replace(view.show, selected=14))  # his nobs
    drawn = draw_screen(surfaces[(800, 480)], chosen)
    assert [c.card for c in drawn.cards if c.highlighted] == parse_cards("JD")


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_muggins_claim_beside_true_count(views, surfaces, size):
    drawn = draw_screen(surfaces[size], views["show-muggins"])
    assert texts(drawn, "claimed") == ["24"] and texts(drawn, "total") == ["29"]
    assert {"Claimed", "True"} <= set(texts(drawn, "label"))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_counted_out_show_and_game_over(views, surfaces, size):
    out = views["show-counted-out"]
    assert out.phase == "over" and out.winner == 1
    drawn = draw_screen(surfaces[size], out)
    assert texts(drawn, "total") == ["29"]
    over = draw_screen(surfaces[size], views["game-over"])
    assert over.screen == "game over"
    assert texts(over, "winner") == ["Bob wins"]
    assert texts(over, "score") == [str(s.score) for s in out.sides]
    assert not over.find("skunk")
    assert texts(over, "games") == ["games 1", "games 3"]
    assert texts(over, "match") == ["4 games won in this match"]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_skunk_and_double_skunk(views, surfaces, size):
    assert texts(draw_screen(surfaces[size], views["game-over-skunk"]), "skunk") == ["SKUNK"]
    assert texts(draw_screen(surfaces[size], views["game-over-double-skunk"]), "skunk") == ["DOUBLE SKUNK"]


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_history_newest_first_with_reasons(views, surfaces, size):
    view = views["history"]
    drawn = draw_screen(surfaces[size], view)
    assert texts(drawn, "who")[0] == "Bob" and texts(drawn, "points")[0] == "+29"
    assert texts(drawn, "reason")[0].startswith("Hand: Fifteen two")
    assert [t.index for t in drawn.targets if t.name == "history"][0] == 0


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_messages_never_cover_the_game(views, surfaces, size):
    drawn = draw_screen(surfaces[size], views["messages"])
    shown = texts(drawn, "message")
    assert shown[0].startswith("Camera lost") and any("seen twice" in t for t in shown)
    assert "+1 more" in shown
    assert texts(drawn, "count") == ["27"]  # the game is still there


def test_corrections(views, surfaces):
    drawn = draw_screen(surfaces[(800, 480)], views["correction-pick"])
    assert [c.card for c in drawn.cards if c.highlighted] == parse_cards("6H")
    drawn = draw_screen(surfaces[(800, 480)], views["correction-choose"])
    assert [c.card for c in drawn.cards if c.role == "new"] == parse_cards("8H")
    assert len([t for t in drawn.targets if t.name == "rank"]) == 13
    assert len([t for t in drawn.targets if t.name == "suit"]) == 4
    drawn = draw_screen(surfaces[(800, 480)], views["correction-owner"])
    assert texts(drawn, "owner") == ["Alice", "Bob"] and texts(drawn, "title") == ["Whose card is this?"]


def test_menu_scrolls_to_the_selected_line(surfaces):
    from companion.display.menus import new_game_menu

    menu = new_game_menu("four-hand", ("Ann", "Ben", "Cat", "Dan"), selected=12)
    assert menu.items[-1].key == "start" and len(menu.items) == 13
    for size in SIZES:
        drawn = draw_screen(surfaces[size], menu)
        check_layout(drawn)
        assert "Start the game" in texts(drawn, "label")


def test_large_type_at_800x480(views, surfaces):
    surface = surfaces[(800, 480)]
    board = draw_screen(surface, views["scoreboard"])
    assert min(t.size for t in board.find("score")) >= 120
    assert min(t.size for t in board.find("name")) >= 48
    play = draw_screen(surface, views["play-run"])
    assert play.find("count")[0].size >= 150 and min(t.size for t in play.find("score")) >= 70


def test_screens_from_hand_made_views(surfaces):
    long = "Maximiliana Featherstonehaugh-Smythe"
    sides = tuple(SideView(n, c, sc, 0, marker=m, is_dealer=i == 0, is_turn=i == 1)
                  for i, (n, c, sc, m) in enumerate([(long, (86, 180, 233), 120, "circle"),
                                                     ("Bo", (230, 159, 0), 7, "square"),
                                                     ("Cy", (204, 121, 167), 61, "triangle")]))
    view = TableView(sides=sides, phase="discard", target=61, skunk_lines=(30, None),
                     messages=(Message("A very long message " * 8, "info"),))
    for size in SIZES:
        for screen in ("scoreboard", "play", "show", "history", "game over"):
            drawn = draw_screen(surfaces[size], view, screen)
            check_layout(drawn)
    assert screen_for(view) == "scoreboard"


def test_counted_out_state_is_over():
    state = game_29((95, 100)).state
    assert state.phase == "over" and state.winner == 1 and state.skunk is None


def test_heels_shows_the_starter_that_scored(surfaces):
    from companion.display.samples import new_game
    from companion.display.view import view_from_state
    from companion.rules.events import Deal, Discard, Starter

    game = new_game()
    game.apply(Deal())
    game.apply(Discard(0, tuple(parse_cards("7H 8H"))))
    game.apply(Discard(1, tuple(parse_cards("9C KC"))))
    game.apply(Starter(Card.parse("JS")))
    view = view_from_state(game.state)
    assert view.phase == "play" and view.last_score.points == 2
    for size in SIZES:
        drawn = draw_screen(surfaces[size], view)
        check_layout(drawn)
        assert texts(drawn, "last-points") == ["+2"]
        assert not [c for c in drawn.cards if c.role == "scored"]  # the starter is on screen already
        assert [(c.card, c.highlighted) for c in drawn.cards if c.role == "starter"] == [(Card.parse("JS"), True)]


def test_a_score_whose_cards_left_the_table_shows_them_as_chips(views, surfaces):
    from dataclasses import replace

    view = views["play-run"]
    cleared = replace(view, series=tuple(replace(r, cards=()) for r in view.series), starter=None)
    drawn = draw_screen(surfaces[(800, 480)], cleared)
    check_layout(drawn)
    assert [c.card for c in drawn.cards if c.role == "scored"]  # the run's cards, small, beside the words


def test_text_still_draws_after_pygame_was_quit():
    """The calibration and watch windows quit pygame when they close; a screen drawn afterwards in the same process
    must not fail on the fonts made before."""
    from companion.display.draw import clear_caches, text_size

    width = text_size("Fifteen two", 30)[0]
    pygame.quit()
    clear_caches()
    assert text_size("Fifteen two", 30)[0] == width
