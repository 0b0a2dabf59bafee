"""What a player notices on the 800x480 screen: readable card chips in the score banner, a club that looks like a
club, and a winning score shown as the target."""

from __future__ import annotations

import pygame
import pytest

from companion.cards import parse_cards
from companion.display.draw import draw_suit
from companion.display.samples import new_game, sample_views
from companion.display.screens import BANNER_CHIP_MIN, draw_screen
from companion.display.view import ItemView, ScoreView, SideView, TableView, view_from_state
from companion.rules.events import Correction


def test_the_go_card_in_the_score_banner_is_a_big_chip():
    drawn = draw_screen(pygame.Surface((800, 480)), sample_views()["play-go"])
    chips = [c for c in drawn.cards if c.role == "scored"]
    assert [str(c.card) for c in chips] == ["7D"]
    assert chips[0].rect.h >= 48  # was 14-18 px: a rank about 40 px tall now, read from across the table


def test_a_thirty_one_series_fits_the_banner_with_every_chip_readable():
    cards = tuple(parse_cards("TH TD TS AC"))
    view = TableView(sides=(SideView("Ann", (86, 180, 233), 30, 28), SideView("Bob", (230, 159, 0), 12, 6)),
                     phase="play", count=0, series=(), starter=None,
                     last_score=ScoreView("Ann", 0, 2, "Thirty-one for two",
                                          (ItemView("thirty-one", "Thirty-one", cards, 2),), "play"))
    for size in ((800, 480), (1024, 600)):
        drawn = draw_screen(pygame.Surface(size), view)
        chips = [c for c in drawn.cards if c.role == "scored"]
        assert sorted(str(c.card) for c in chips) == ["AC", "TD", "TH", "TS"]
        assert min(c.rect.h for c in chips) >= BANNER_CHIP_MIN
        spoken = drawn.find("spoken")[0]
        assert spoken.rect.right <= min(c.rect.left for c in chips)  # the words never run under the chips


def _pieces(suit: str, size: int) -> int:
    surf = pygame.Surface((size * 2, size * 2))
    surf.fill((255, 255, 255))
    draw_suit(surf, suit, (size, size), size, (0, 0, 0))
    mask = pygame.mask.from_threshold(surf, (0, 0, 0), (110, 110, 110, 255))
    return len([m for m in mask.connected_components() if m.count() > 1])


@pytest.mark.parametrize("size", [12, 14, 18, 22, 30])
@pytest.mark.parametrize("suit", ["C", "S", "H", "D"])
def test_a_small_suit_is_one_shape_not_dots_and_a_bar(suit, size):
    assert _pieces(suit, size) == 1


def test_a_score_past_the_target_is_shown_as_the_target():
    game = new_game(start=(100, 40))
    game.apply(Correction(0, 22, "pegged past the end"))
    assert game.state.sides[0].front == 122 and game.state.winner == 0
    view = view_from_state(game.state)
    assert view.sides[0].score == 121
    for screen in ("game over", "scoreboard"):
        drawn = draw_screen(pygame.Surface((800, 480)), view, screen)
        assert "121" in [t.text for t in drawn.find("score")] and "122" not in drawn.text_values()


def test_screens_draw_again_after_pygame_was_quit_and_started_again():
    surface = pygame.Surface((800, 480))
    draw_screen(surface, sample_views()["scoreboard"])
    pygame.quit()  # what the watch window does when it closes
    pygame.font.init()
    drawn = draw_screen(pygame.Surface((800, 480)), sample_views()["play-go"])
    assert drawn.find("spoken")
