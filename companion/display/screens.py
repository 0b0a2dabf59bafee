"""The screens: each draws one view onto a surface of any size and returns what it drew (:class:`Drawn`).

No game logic here: every number and text comes from the view. Use :func:`draw_screen` to pick the screen for a
view, or call one screen directly.

>>> import pygame
>>> from companion.display.view import SideView, TableView
>>> view = TableView(sides=(SideView("Ann", (86, 180, 233), 12, 6), SideView("Bob", (230, 159, 0), 4, 0)),
...                  phase="play", count=21)
>>> drawn = draw_screen(pygame.Surface((800, 480)), view)
>>> drawn.screen, [t.text for t in drawn.find("count")]
('play', ['21'])
"""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from ..cards import RANKS, SUITS
from .draw import (ACCENT, BG, DIM, ERROR, FG, OK_GREEN, PANEL, PANEL_HI, WARN, Canvas, Drawn, card_size_for,
                   draw_marker, draw_suit, line_height, panel, text_size, wrap_lines)
from .layout import Layout
from .view import (PHASE_TITLES, CameraView, CorrectionView, MenuView, Message, ShowView, SideView, TableView)
from ..table import Phase

SCREENS = ("scoreboard", "play", "show", "history", "score", "game over")


def screen_for(view: TableView) -> str:
    """The screen a table view asks for: its ``screen`` if set, else the one for its phase."""
    if view.screen:
        return view.screen
    if view.phase == Phase.OVER:
        return "game over"
    if view.phase == Phase.PLAY:
        return "play"
    if view.phase == Phase.SHOW and view.show is not None:
        return "show"
    return "scoreboard"


def draw_screen(surface: pygame.Surface, view, screen: str | None = None) -> Drawn:
    """Draw any view: a :class:`TableView` on its screen (or ``screen``), or a menu, correction or camera view."""
    if isinstance(view, MenuView):
        return draw_menu(surface, view)
    if isinstance(view, CorrectionView):
        return draw_correction(surface, view)
    if isinstance(view, CameraView):
        return draw_camera(surface, view)
    name = screen or screen_for(view)
    return _TABLE_SCREENS[name](surface, view)


# ---------------------------------------------------------------------------------------------------------------
# Shared parts


def _begin(surface: pygame.Surface, screen: str, messages: Sequence[Message]) -> tuple[Canvas, Layout, pygame.Rect]:
    """Clear the surface, draw the message strip at the bottom; return the canvas and the rest of the screen."""
    surface.fill(BG)
    canvas = Canvas(surface, screen)
    lay = Layout(*surface.get_size())
    area = surface.get_rect()
    if messages:
        area = _messages(canvas, lay, area, messages)
    return canvas, lay, area


_LEVEL_COLOURS = {"info": (60, 110, 200), "warning": (150, 95, 0), "error": (160, 30, 30)}


def _messages(canvas: Canvas, lay: Layout, area: pygame.Rect, messages: Sequence[Message]) -> pygame.Rect:
    size = lay.fs(30, 18)
    line = text_size("Mg", size)[1] + lay.pad
    shown = list(messages[:2])
    strip = pygame.Rect(area.x, area.bottom - line * len(shown), area.w, line * len(shown))
    for i, msg in enumerate(shown):
        row = pygame.Rect(strip.x, strip.y + i * line, strip.w, line)
        pygame.draw.rect(canvas.surface, _LEVEL_COLOURS.get(msg.level, PANEL_HI), row)
        mark = "!" if msg.level != "info" else "i"
        badge = pygame.Rect(0, 0, line - 8, line - 8)
        badge.midleft = (row.x + lay.pad, row.centery)
        pygame.draw.circle(canvas.surface, FG, badge.center, badge.w // 2)
        canvas.text(mark, badge.center, size, BG, anchor="center", role="message-mark")
        more = f"+{len(messages) - 2} more" if i == len(shown) - 1 and len(messages) > 2 else ""
        right = row.right - lay.pad
        if more:
            right = canvas.text(more, (right, row.centery), size, FG, anchor="midright", role="message").left
            right -= lay.pad
        canvas.text(msg.text, (badge.right + lay.pad, row.centery), size, FG, anchor="midleft", role="message",
                    max_width=right - badge.right - 2 * lay.pad)
    return pygame.Rect(area.x, area.y, area.w, area.h - strip.h)


def _tags(side: SideView, compact: bool) -> str:
    tags = []
    if side.is_dealer:
        tags.append("deals")
    if side.is_turn:
        tags.append("to play")
    return " · ".join(tags)


def _header(canvas: Canvas, lay: Layout, area: pygame.Rect, sides: Sequence[SideView]) -> pygame.Rect:
    """The score strip at the top of the play, show and history screens; returns the area below it."""
    h = max(54, int(lay.h * 0.155))
    n = max(1, len(sides))
    cell_w = area.w // n
    for i, side in enumerate(sides):
        cell = pygame.Rect(area.x + i * cell_w, area.y, cell_w, h).inflate(-lay.pad // 2, -lay.pad // 2)
        panel(canvas.surface, cell, PANEL, border=ACCENT if side.is_turn else None, width=max(3, lay.pad // 2),
              radius=8)
        pygame.draw.rect(canvas.surface, side.colour, (cell.x, cell.y + 6, max(6, lay.pad), cell.h - 12))
        msize = int(cell.h * 0.42)
        mx = cell.x + max(6, lay.pad) + lay.pad + msize // 2
        draw_marker(canvas.surface, side.marker, (mx, cell.centery), msize, side.colour)
        score_size = min(lay.fs(84), int(cell.h / 0.74))
        srect = canvas.text(str(side.score), (cell.right - lay.pad, cell.centery + 2), score_size, FG,
                            anchor="midright", role="score")
        left = mx + msize // 2 + lay.pad
        width = srect.left - left - lay.pad
        tags = _tags(side, lay.compact)
        name_size = min(lay.fs(38), int(cell.h * 0.48))
        tag_size = min(lay.fs(28), int(cell.h * 0.34))
        if tags and text_size("Mg", name_size)[1] + text_size("Mg", tag_size)[1] <= cell.h - 4:
            nh = text_size("Mg", name_size)[1]
            th = text_size("Mg", tag_size)[1]
            top = cell.centery - (nh + th) // 2
            canvas.text(side.name, (left, top), name_size, FG, role="name", max_width=width)
            canvas.text(tags, (left, top + nh), tag_size, ACCENT if side.is_turn else DIM, role="tag",
                        max_width=width)
        else:
            canvas.text(side.name, (left, cell.centery), name_size, FG, anchor="midleft", role="name",
                        max_width=width)
    return pygame.Rect(area.x, area.y + h, area.w, area.h - h)


def _hint(canvas: Canvas, lay: Layout, area: pygame.Rect, text: str) -> pygame.Rect:
    """A line of key hints at the bottom of ``area``; returns the area above it."""
    size = lay.fs(24, 16)
    hh = text_size("Mg", size)[1] + lay.pad
    canvas.text(text, (area.centerx, area.bottom - hh // 2), size, DIM, anchor="center", role="hint",
                max_width=area.w - 2 * lay.pad)
    return pygame.Rect(area.x, area.y, area.w, area.h - hh)


# ---------------------------------------------------------------------------------------------------------------
# Scoreboard


def draw_scoreboard(surface: pygame.Surface, view: TableView) -> Drawn:
    """Each side's name, colour, marker, score and games won; who deals and plays; the board with both pegs."""
    canvas, lay, area = _begin(surface, "scoreboard", view.messages)
    pad = lay.pad
    footer_size = lay.fs(32, 18)
    footer_h = text_size("Mg", footer_size)[1] + pad
    footer = pygame.Rect(area.x, area.bottom - footer_h, area.w, footer_h)
    phase = PHASE_TITLES.get(view.phase, view.phase.capitalize())
    parts = [phase]
    if view.turn and view.phase != Phase.OVER:
        parts.append(f"{view.turn} to play" if view.phase == Phase.PLAY else f"{view.turn} next")
    if view.variant and not lay.compact:
        parts.append(f"{view.variant} to {view.target}")
    canvas.text("  ·  ".join(parts), (footer.centerx, footer.centery), footer_size, DIM, anchor="center",
                role="phase", max_width=footer.w - 2 * pad)
    n = max(1, len(view.sides))
    track_h = max(14, int(lay.h * (0.06 if n <= 2 else 0.045)))
    label_size = lay.fs(22, 14)
    label_h = text_size("Mg", label_size)[1]
    board_h = label_h + n * (track_h + pad // 2) + pad
    board = pygame.Rect(area.x + pad, footer.y - board_h, area.w - 2 * pad, board_h)
    _board(canvas, lay, board, view, track_h, label_size)
    rows = pygame.Rect(area.x, area.y, area.w, board.y - area.y)
    row_h = rows.h // n
    for i, side in enumerate(view.sides):
        _side_row(canvas, lay, pygame.Rect(rows.x, rows.y + i * row_h, rows.w, row_h).inflate(-pad, -pad // 2),
                  side, view)
    return canvas.drawn()


def _side_row(canvas: Canvas, lay: Layout, cell: pygame.Rect, side: SideView, view: TableView) -> None:
    pad = lay.pad
    panel(canvas.surface, cell, PANEL, border=ACCENT if side.is_turn else None, width=max(3, pad // 2))
    pygame.draw.rect(canvas.surface, side.colour, (cell.x, cell.y + 8, max(8, pad), cell.h - 16))
    msize = int(min(cell.h * 0.5, lay.fs(64)))
    mx = cell.x + max(8, pad) + pad + msize // 2
    draw_marker(canvas.surface, side.marker, (mx, cell.centery), msize, side.colour)
    score_size = min(lay.fs(150), int(cell.h * 0.95 / 0.8))
    srect = canvas.text(str(side.score), (cell.right - 2 * pad, cell.centery + score_size // 20), score_size, FG,
                        anchor="midright", role="score")
    gain_size = lay.fs(34, 16)
    right = srect.left - pad
    if side.last_gain:
        right = canvas.text(f"+{side.last_gain}", (right, cell.centery), gain_size, side.colour,
                            anchor="midright", role="gain").left - 2 * pad
    left = mx + msize // 2 + 2 * pad
    width = right - left
    name_size = min(lay.fs(58), int(cell.h * 0.45 / 0.8))
    info_size = min(lay.fs(30), int(cell.h * 0.3 / 0.8))
    info = []
    if side.is_dealer:
        info.append("Dealer")
    if side.is_turn:
        info.append("To play")
    if view.games_played or side.games_won:
        info.append(f"Games {side.games_won}")
    nh = text_size("Mg", name_size)[1]
    ih = text_size("Mg", info_size)[1] if info else 0
    top = cell.centery - (nh + ih) // 2
    canvas.text(side.name, (left, top), name_size, FG, role="name", max_width=width)
    if info:
        canvas.text("  ·  ".join(info), (left, top + nh), info_size, ACCENT if side.is_turn else DIM, role="info",
                    max_width=width)


def _board(canvas: Canvas, lay: Layout, rect: pygame.Rect, view: TableView, track_h: int, label_size: int) -> None:
    """A compact peg board: a track per side with ticks every five holes, the skunk lines and both pegs."""
    surf = canvas.surface
    target = max(1, view.target)
    label_h = text_size("Mg", label_size)[1]
    x0, x1 = rect.x + track_h, rect.right - track_h

    def x_of(points: float) -> float:
        return x0 + (x1 - x0) * max(0.0, min(points, target)) / target

    top = rect.y + label_h
    tracks = [pygame.Rect(rect.x, top + i * (track_h + lay.pad // 2), rect.w, track_h)
              for i in range(len(view.sides))]
    for track in tracks:
        pygame.draw.rect(surf, PANEL_HI, track, border_radius=track_h // 2)
        for p in range(5, target, 5):
            x = int(x_of(p))
            tall = p % 30 == 0
            pygame.draw.line(surf, DIM if tall else (95, 100, 115), (x, track.y + (2 if tall else track_h // 3)),
                             (x, track.bottom - (3 if tall else track_h // 3)), 2 if tall else 1)
    compact = lay.compact
    lines = [(view.skunk_lines[0], "S" if compact else "skunk"), (view.skunk_lines[1], "SS" if compact else "double")]
    for line, label in lines:
        if line is None or not 0 < line < target:
            continue
        x = int(x_of(line + 0.5))
        pygame.draw.line(surf, ERROR, (x, top - 2), (x, tracks[-1].bottom + 2) if tracks else (x, top), 3)
        canvas.text(label, (x, rect.y), label_size, ERROR, anchor="midtop", role="skunk-line")
    canvas.text(str(target), (x1, rect.y), label_size, DIM, anchor="midtop", role="target")
    for side, track in zip(view.sides, tracks):
        cy = track.centery
        back_x, front_x = x_of(side.back), x_of(side.score)
        if front_x > back_x:
            pygame.draw.line(surf, side.colour, (back_x, cy), (front_x, cy), max(3, track_h // 4))
        peg = track_h * 0.95
        draw_marker(surf, side.marker, (back_x, cy), peg, side.colour, filled=False)
        draw_marker(surf, side.marker, (front_x, cy), peg + 4, BG)
        draw_marker(surf, side.marker, (front_x, cy), peg, side.colour)


# ---------------------------------------------------------------------------------------------------------------
# The play


def draw_play(surface: pygame.Surface, view: TableView) -> Drawn:
    """The running count large, each player's row of the current series, and the last score explained."""
    canvas, lay, area = _begin(surface, "play", view.messages)
    area = _header(canvas, lay, area, view.sides)
    pad = lay.pad
    last_h = int(area.h * (0.27 if lay.compact else 0.25))
    last = pygame.Rect(area.x + pad, area.bottom - last_h, area.w - 2 * pad, last_h - pad)
    _last_score(canvas, lay, last, view)
    mid = pygame.Rect(area.x, area.y, area.w, last.y - area.y)
    count_w = int(mid.w * (0.3 if lay.compact else 0.26))
    count_box = pygame.Rect(mid.x + pad, mid.y + pad, count_w - pad, mid.h - 2 * pad)
    panel(surface, count_box, PANEL)
    label_size = lay.fs(30, 16)
    lrect = canvas.text("Count", (count_box.centerx, count_box.y + pad // 2), label_size, DIM, anchor="midtop",
                        role="label")
    count_size = min(lay.fs(200), int((count_box.bottom - lrect.bottom - pad) / 0.8),
                     int(count_box.w * 0.9 / 1.05))
    canvas.text(str(view.count), (count_box.centerx, (lrect.bottom + count_box.bottom) // 2 + count_size // 20),
                count_size, FG, anchor="center", role="count")
    rows = pygame.Rect(count_box.right + pad, mid.y, mid.right - count_box.right - 2 * pad, mid.h)
    if any(row.cards for row in view.series) or view.starter is None:
        _series(canvas, lay, rows, view)
    else:  # nothing laid yet: the starter, big
        _starter(canvas, lay, rows, view)
    return canvas.drawn()


def _starter(canvas: Canvas, lay: Layout, rect: pygame.Rect, view: TableView) -> None:
    label = lay.fs(28, 16)
    lh = text_size("Mg", label)[1]
    card_w, card_h = card_size_for((rect.h - lh - 2 * lay.pad) / 1.15)
    hi = view.last_score is not None and view.starter in view.last_score.highlighted
    r = pygame.Rect(rect.centerx - card_w // 2, rect.y + int(card_h * 0.12) + lay.pad, card_w, card_h)
    canvas.card(view.starter, r, highlighted=hi, role="starter")
    canvas.text("starter", (rect.centerx, r.bottom + lay.pad // 2), label, DIM, anchor="midtop", role="label")


def _series(canvas: Canvas, lay: Layout, rect: pygame.Rect, view: TableView) -> None:
    """One row per player, cards in the order laid (each card in its own column, so the turns interleave).
    Two rows carry their name above the cards; three or four rows carry it on the left, to keep the cards big."""
    rows = view.series or ()
    if not rows:
        return
    pad = lay.pad
    n = len(rows)
    band_h = rect.h // n
    beside = n > 2
    name_size = min(lay.fs(30, 16), int(band_h * (0.4 if beside else 0.28) / 0.8))
    name_h = text_size("Mg", name_size)[1]
    name_w = int(rect.w * 0.2) if beside else 0
    card_h = int((band_h - (0 if beside else name_h) - pad) / 1.12)
    card_w, card_h = card_size_for(card_h)
    cards = pygame.Rect(rect.x + name_w, rect.y, rect.w - name_w, rect.h)
    total = max([o for r in rows for o, _ in r.cards] + [-1]) + 1
    columns = max(total, 4)
    step = min(card_w + pad, (cards.w - card_w) / max(1, columns - 1))
    hi = view.last_score.highlighted if view.last_score else frozenset()
    for i, row in enumerate(rows):
        band = pygame.Rect(rect.x, rect.y + i * band_h, rect.w, band_h)
        side = view.sides[row.side] if 0 <= row.side < len(view.sides) else None
        colour = side.colour if side else FG
        msize = int(name_h * 0.8)
        name_y = band.centery - name_h // 2 if beside else band.y + pad // 2
        if side:
            draw_marker(canvas.surface, side.marker, (band.x + msize // 2 + 2, name_y + name_h // 2), msize, colour)
        canvas.text(row.name, (band.x + msize + pad, name_y), name_size, colour, role="row-name",
                    max_width=(name_w if beside else band.w) - msize - 2 * pad)
        y = band.bottom - card_h - pad // 2
        for order, card in row.cards:
            r = pygame.Rect(int(cards.x + order * step), y, card_w, card_h)
            canvas.card(card, r, highlighted=card in hi, role="series", index=order)


BANNER_CHIP_MIN = 32  # px at 800x480: the smallest banner chip, its rank about 20 px tall (a table's width away)


def _last_score(canvas: Canvas, lay: Layout, rect: pygame.Rect, view: TableView) -> None:
    """The score banner: who scored, the spoken score, its items, and as chips the cards that made it that are no
    longer on the table (the go card, a thirty-one's series), large enough to read from across the table."""
    score = view.last_score
    panel(canvas.surface, rect, PANEL)
    if score is None:
        if view.turn:
            canvas.text(f"{view.turn} to play", rect.center, min(lay.fs(40), int(rect.h * 0.6 / 0.8)), DIM,
                        anchor="center", role="spoken", max_width=rect.w - 2 * lay.pad)
        return
    pad = lay.pad
    side = view.sides[score.side] if score.side is not None and 0 <= score.side < len(view.sides) else None
    colour = side.colour if side else FG
    big = min(lay.fs(46), int(rect.h * 0.55 / 0.8))
    small = min(lay.fs(28, 16), int(rect.h * 0.32 / 0.8))
    bh, sh = text_size("Mg", big)[1], text_size("Mg", small)[1]
    two_lines = bool(score.items) and bh + sh + pad // 2 <= rect.h
    top = rect.centery - ((bh + sh) // 2 if two_lines else bh // 2)
    x = rect.x + pad
    if side:
        draw_marker(canvas.surface, side.marker, (x + bh // 3, top + bh // 2), int(bh * 0.6), colour)
        x += int(bh * 0.66) + pad
    pts = canvas.text(f"+{score.points}", (rect.right - pad, top + bh // 2), big, colour, anchor="midright",
                      role="last-points")
    on_table = {c for row in view.series for _, c in row.cards}
    if not on_table and view.starter is not None:
        on_table.add(view.starter)  # drawn big in place of the empty rows
    away = [c for c in sorted(score.highlighted) if c not in on_table]
    text_right = pts.left - pad
    if away:
        # as tall as the banner allows, shrinking (not below the minimum) to leave the words half the width
        room = (pts.left - 2 * pad - x) // 2
        chip_h = min(rect.h - 2 * pad, max(int(rect.h * 0.62), BANNER_CHIP_MIN))
        while chip_h > BANNER_CHIP_MIN and len(away) * (int(chip_h * 1.45) + pad // 2) > room:
            chip_h -= 2
        chip_w = int(chip_h * 1.45)
        fits = max(1, min(len(away), room // (chip_w + pad // 2)))
        cx = pts.left - pad - fits * (chip_w + pad // 2)
        text_right = cx - pad
        for card in away[:fits]:
            canvas.card(card, pygame.Rect(cx, rect.centery - chip_h // 2, chip_w, chip_h), role="scored")
            cx += chip_w + pad // 2
    head = f"{score.who}: {score.spoken}" if score.who else score.spoken
    canvas.text(head, (x, top), big, FG, role="spoken", max_width=text_right - x, min_size=lay.fs(28, 16))
    if two_lines:
        detail = "   ".join(f"{it.title} +{it.points}" for it in score.items)
        canvas.text(detail, (x, top + bh), small, DIM, role="items", max_width=text_right - x)


# ---------------------------------------------------------------------------------------------------------------
# The show


def draw_show(surface: pygame.Surface, view: TableView) -> Drawn:
    """The hand and the starter as cards, the breakdown item by item with its cards, the total, the claim."""
    return _draw_show(surface, view, "show")


def draw_score(surface: pygame.Surface, view: TableView) -> Drawn:
    """One score of the history opened: the cards it was counted from and its breakdown, drawn like a show."""
    return _draw_show(surface, view, "score", "Next/Prev: other scores   OK or Menu: back   Undo: take it back")


def _draw_show(surface: pygame.Surface, view: TableView, name: str, hint: str = "") -> Drawn:
    canvas, lay, area = _begin(surface, name, view.messages)
    show = view.show
    if not hint:  # a score opened from the history leaves out the score strip: its whole breakdown fits one page
        area = _header(canvas, lay, area, view.sides)
    if hint:
        area = _hint(canvas, lay, area, hint)
    if show is None:
        return canvas.drawn()
    pad = lay.pad
    base = 0.36 if lay.compact else 0.34
    choices = [(f, size) for size in (lay.fs(30, 16), lay.fs(27, 15), lay.fs(25, 14)) for f in (base, base - 0.06)]
    for frac, size in choices:  # the biggest cards and type at which the whole breakdown fits one page
        top_h = int(area.h * frac)
        items = pygame.Rect(area.x + pad, area.y + top_h + 2 * pad, area.w - 2 * pad, area.h - top_h - 3 * pad)
        if _breakdown_plan(lay, items, show, size)[3]:
            break
    top = pygame.Rect(area.x + pad, area.y + pad, area.w - 2 * pad, top_h)
    block_w = int(top.w * (0.36 if lay.compact else 0.3))
    block = pygame.Rect(top.right - block_w, top.y, block_w, top.h)
    _show_total(canvas, lay, block, show, view)
    cards_rect = pygame.Rect(top.x, top.y, block.x - top.x - pad, top.h)
    _show_cards(canvas, lay, cards_rect, show)
    _breakdown(canvas, lay, items, show, size)
    return canvas.drawn()


def _show_total(canvas: Canvas, lay: Layout, rect: pygame.Rect, show: ShowView, view: TableView) -> None:
    panel(canvas.surface, rect, PANEL)
    pad = lay.pad
    side = view.sides[show.side] if show.side is not None and 0 <= show.side < len(view.sides) else None
    title_size = min(lay.fs(32, 16), int(rect.h * 0.2 / 0.8))
    t = canvas.text(show.title, (rect.centerx, rect.y + pad // 2), title_size, side.colour if side else FG,
                    anchor="midtop", role="show-title", max_width=rect.w - 2 * pad)
    rest = pygame.Rect(rect.x, t.bottom, rect.w, rect.bottom - t.bottom)
    if show.claimed is None:
        size = min(lay.fs(120), int(rest.h * 0.95 / 0.8), int(rect.w * 0.8 / 1.1))
        canvas.text(str(show.total), (rest.centerx, rest.centery + size // 20), size, FG, anchor="center",
                    role="total")
        return
    label = min(lay.fs(24, 14), int(rest.h * 0.22 / 0.8))
    lh = text_size("Mg", label)[1]
    size = min(lay.fs(84), int((rest.h - lh) * 0.9 / 0.8), int(rect.w * 0.4 / 1.1))
    half = rect.w // 2
    claim_colour = OK_GREEN if show.claimed == show.total else WARN
    for i, (name, value, colour, role) in enumerate((("Claimed", show.claimed, claim_colour, "claimed"),
                                                     ("True", show.total, FG, "total"))):
        cx = rect.x + half // 2 + i * half
        canvas.text(name, (cx, rest.y), label, DIM, anchor="midtop", role="label")
        canvas.text(str(value), (cx, rest.y + lh + (rest.h - lh) // 2 + size // 20), size, colour,
                    anchor="center", role=role)


def _show_cards(canvas: Canvas, lay: Layout, rect: pygame.Rect, show: ShowView) -> None:
    pad = lay.pad
    label_size = lay.fs(22, 14)
    label_h = text_size("Mg", label_size)[1]
    n = len(show.cards) + (1 if show.starter else 0)
    gap = pad * 3 if show.starter else 0
    card_h = int((rect.h - label_h) / 1.1)
    card_w, card_h = card_size_for(card_h)
    if n:
        card_w = min(card_w, int((rect.w - gap - pad * (n - 1)) / n))
        card_h = int(card_w * 7 / 5)
    hi = show.highlighted
    y = rect.y + int(card_h * 0.1)
    x = rect.x
    for i, card in enumerate(show.cards):
        canvas.card(card, pygame.Rect(x, y, card_w, card_h), highlighted=card in hi, role="hand", index=i)
        x += card_w + pad
    if show.starter:
        x += gap - pad
        r = canvas.card(show.starter, pygame.Rect(x, y, card_w, card_h), highlighted=show.starter in hi,
                        role="starter", index=len(show.cards))
        canvas.text("starter", (r.centerx, y + card_h + 2), label_size, DIM, anchor="midtop", role="label")


def _breakdown_plan(lay: Layout, rect: pygame.Rect, show: ShowView, size: int) -> tuple[int, int, int, bool]:
    """Columns, rows and line height for the breakdown at a font size, and whether it all fits one page."""
    items = show.items
    pad = lay.pad
    line_h = max(text_size("Mg", size)[1], int(size * 0.85)) + pad
    chip_w = int((line_h - pad) * 1.45)
    title_w = max(text_size(it.title, size)[0] for it in items) if items else 0
    max_cards = max((len(it.cards) for it in items), default=0)
    col_w = (title_w + pad + max_cards * (chip_w + 3) + pad + text_size("+12", size)[0] + pad
             + text_size("29", size)[0] + 2 * pad)
    cols = max(1, min(3, rect.w // max(1, col_w)))
    rows = max(1, rect.h // line_h)
    return cols, rows, line_h, cols * rows >= len(items)


def _breakdown(canvas: Canvas, lay: Layout, rect: pygame.Rect, show: ShowView, size: int) -> None:
    """The breakdown in as many columns as fit; when it does not all fit, a page of it and how many follow."""
    pad = lay.pad
    items = show.items
    if not items:  # a hand of nothing, or a score with no cards to show (a correction): its words, wrapped
        text = "Nineteen: nothing to count" if not show.total else (show.spoken or "")
        canvas.wrapped(text, (rect.x, rect.y), lay.fs(34), DIM, role="item-title", max_width=rect.w,
                       max_lines=max(1, rect.h // line_height(lay.fs(34))))
        return
    cols, rows, line_h, _ = _breakdown_plan(lay, rect, show, size)
    chip_h = line_h - pad
    chip_w = int(chip_h * 1.45)
    title_w = max(text_size(it.title, size)[0] for it in items)
    run_w = text_size("29", size)[0]
    per_page = cols * rows
    pages = (len(items) + per_page - 1) // per_page
    if pages > 1:
        per_page -= 1  # room for "more" on each page
        pages = (len(items) + per_page - 1) // per_page
    page = show.page % pages
    first = page * per_page
    running = sum(it.points for it in items[:first])
    col_w = rect.w // cols
    hi = show.highlighted
    shown = items[first:first + per_page]
    for k, it in enumerate(shown):
        c, r = divmod(k, rows)
        x, y = rect.x + c * col_w, rect.y + r * line_h
        running += it.points
        selected = show.selected == first + k
        if selected:
            pygame.draw.rect(canvas.surface, PANEL_HI, (x, y, col_w - pad, line_h - 2), border_radius=6)
        canvas.text(it.title, (x + pad // 2, y + line_h // 2), size, ACCENT if selected else FG, anchor="midleft",
                    role="item-title")
        cx = x + pad // 2 + title_w + pad
        for card in it.cards:
            canvas.card(card, pygame.Rect(cx, y + pad // 2, chip_w, chip_h), highlighted=False, role="item-card",
                        index=first + k, dim=bool(hi) and card not in hi)
            cx += chip_w + 3
        right = x + col_w - 2 * pad
        canvas.text(str(running), (right, y + line_h // 2), size, DIM, anchor="midright", role="running")
        canvas.text(f"+{it.points}", (right - run_w - pad, y + line_h // 2), size, OK_GREEN, anchor="midright",
                    role="item-points")
        canvas.target(pygame.Rect(x, y, col_w, line_h), "item", first + k)
    if pages > 1:
        k = len(shown)
        c, r = divmod(k, rows)
        left = len(items) - first - len(shown)
        more = f"{left} more: Next" if left else f"page {page + 1}/{pages}"
        canvas.text(more, (rect.x + c * col_w + pad // 2, rect.y + r * line_h + line_h // 2), size, ACCENT,
                    anchor="midleft", role="more", max_width=col_w - pad)


# ---------------------------------------------------------------------------------------------------------------
# History


def _history_text(entry) -> str:
    reason = entry.reason.capitalize() if entry.reason else ""
    spoken = entry.spoken if entry.spoken != entry.reason else ""
    return spoken if spoken.lower().startswith(entry.reason.lower()) else (f"{reason}: {spoken}" if spoken else reason)


def draw_history(surface: pygame.Surface, view: TableView) -> Drawn:
    """The last scores with their reasons, newest first, each wrapped onto as many lines as it needs (up to
    five); the chosen one can be opened (OK) or taken back (Undo)."""
    canvas, lay, area = _begin(surface, "history", view.messages)
    area = _header(canvas, lay, area, view.sides)
    area = _hint(canvas, lay, area, "Next/Prev: choose   OK: open   Undo: take it back   Menu: close")
    pad = lay.pad
    size = lay.fs(32, 18)
    small = lay.fs(26, 16)
    title = canvas.text("Scores, newest first", (area.x + pad, area.y + pad // 2), size, DIM, role="title")
    body = pygame.Rect(area.x + pad, title.bottom + pad // 2, area.w - 2 * pad, area.bottom - title.bottom - pad)
    entries = view.history
    if not entries:
        canvas.text("No scores yet", (body.x, body.y), size, FG, role="empty")
        return canvas.drawn()
    sel = max(0, min(view.selected, len(entries) - 1))
    line_h = text_size("Mg", size)[1] + pad + 4
    pts_w = text_size("+29", size)[0]
    name_w = int(body.w * 0.22)
    msize = int((line_h - 4) * 0.55)
    text_x = 2 * pad + msize + name_w + pad + pts_w + 2 * pad
    text_w = body.w - text_x - pad
    small_h = line_height(small)
    layouts = []
    for entry in entries:  # one line at the full size if it fits, else up to three smaller lines
        text = _history_text(entry)
        if text_size(text, size)[0] <= text_w:
            layouts.append(([text], size, line_h))
        else:
            lines = wrap_lines(text, small, text_w, 5)
            layouts.append((lines, small, max(line_h, len(lines) * small_h + pad + 4)))
    first = sel  # the chosen entry, with as many before it as fit in half the list
    used = layouts[sel][2]
    while first > 0 and used + layouts[first - 1][2] <= body.h // 2:
        first -= 1
        used += layouts[first][2]
    y = body.y
    for i in range(first, len(entries)):
        entry, (lines, tsize, h) = entries[i], layouts[i]
        if y + h - 4 > body.bottom:
            break
        row = pygame.Rect(body.x, y, body.w, h - 4)
        y += h
        side = view.sides[entry.side] if entry.side is not None and 0 <= entry.side < len(view.sides) else None
        panel(canvas.surface, row, PANEL_HI if i == sel else PANEL, border=ACCENT if i == sel else None, width=3,
              radius=6)
        cy = row.y + (line_h - 4) // 2
        if side:
            draw_marker(canvas.surface, side.marker, (row.x + pad + msize // 2, cy), msize, side.colour)
        x = row.x + 2 * pad + msize
        canvas.text(entry.who, (x, cy), size, side.colour if side else FG, anchor="midleft", role="who",
                    max_width=name_w)
        x += name_w + pad
        canvas.text(f"+{entry.points}", (x + pts_w, cy), size, FG, anchor="midright", role="points")
        x += pts_w + 2 * pad
        colour = FG if i == sel else DIM
        if len(lines) == 1 and tsize == size:
            canvas.text(lines[0], (x, cy), size, colour, anchor="midleft", role="reason")
        else:
            top = row.centery - len(lines) * small_h // 2
            for k, line in enumerate(lines):
                canvas.text(line, (x, top + k * small_h), tsize, colour, role="reason")
        canvas.target(row, "history", i)
    return canvas.drawn()


# ---------------------------------------------------------------------------------------------------------------
# Game over


def draw_game_over(surface: pygame.Surface, view: TableView) -> Drawn:
    """The winner, the final scores, skunk or double skunk, and the games in the match."""
    canvas, lay, area = _begin(surface, "game over", view.messages)
    area = _hint(canvas, lay, area, "OK: new game   Undo: take back the last score")
    pad = lay.pad
    winner = view.sides[view.winner] if view.winner is not None and 0 <= view.winner < len(view.sides) else None
    head_size = min(lay.fs(92), int(area.h * 0.2 / 0.8))
    head_h = text_size("Mg", head_size)[1]
    y = area.y + pad
    if winner:
        text = f"{winner.name} wins"
        msize = int(head_h * 0.7)
        tw = min(text_size(text, head_size)[0], area.w - msize - 4 * pad)
        x = area.centerx - (tw + msize + pad) // 2
        draw_marker(canvas.surface, winner.marker, (x + msize // 2, y + head_h // 2), msize, winner.colour)
        canvas.text(text, (x + msize + pad, y), head_size, winner.colour, role="winner",
                    max_width=area.right - pad - (x + msize + pad))
    else:
        canvas.text("Game over", (area.centerx, y), head_size, FG, anchor="midtop", role="winner")
    y += head_h + pad
    if view.skunk:
        badge_size = min(lay.fs(52), int(area.h * 0.12 / 0.8))
        bh = text_size("Mg", badge_size)[1]
        label = view.skunk.upper()
        bw = text_size(label, badge_size)[0] + 4 * pad
        badge = pygame.Rect(area.centerx - bw // 2, y, bw, bh + pad)
        pygame.draw.rect(canvas.surface, ERROR, badge, border_radius=badge.h // 2)
        canvas.text(label, badge.center, badge_size, FG, anchor="center", role="skunk")
        y = badge.bottom + pad
    n = max(1, len(view.sides))
    match_size = lay.fs(32, 16)
    match_h = text_size("Mg", match_size)[1] + pad
    played = view.games_played
    if played:
        canvas.text(f"{played} game{'s' if played != 1 else ''} won in this match", (area.centerx, area.bottom),
                    match_size, DIM, anchor="midbottom", role="match")
    row_h = min((area.bottom - y - pad - (match_h if played else 0)) // n, int(lay.h * 0.24))
    size = min(lay.fs(72), int(row_h * 0.8 / 0.8))
    small = min(lay.fs(30, 16), int(row_h * 0.6 / 0.8))
    box = pygame.Rect(area.x + area.w // 8, y, area.w * 3 // 4, row_h * n)
    if lay.compact:
        box = pygame.Rect(area.x + pad, y, area.w - 2 * pad, row_h * n)
    for i, side in enumerate(view.sides):
        row = pygame.Rect(box.x, box.y + i * row_h, box.w, row_h - pad // 2)
        panel(canvas.surface, row, PANEL, border=side.colour if i == view.winner else None, width=3, radius=8)
        msize = int(row.h * 0.5)
        draw_marker(canvas.surface, side.marker, (row.x + pad + msize // 2, row.centery), msize, side.colour)
        s = canvas.text(str(side.score), (row.right - pad, row.centery + 2), size, FG, anchor="midright",
                        role="score")
        right = s.left
        if played:
            right = canvas.text(f"games {side.games_won}", (s.left - 2 * pad, row.centery), small, DIM,
                                anchor="midright", role="games").left
        canvas.text(side.name, (row.x + 2 * pad + msize, row.centery), size, side.colour, anchor="midleft",
                    role="name", max_width=right - row.x - 3 * pad - msize)
    return canvas.drawn()


# ---------------------------------------------------------------------------------------------------------------
# Menus, corrections, camera


def draw_menu(surface: pygame.Surface, view: MenuView) -> Drawn:
    """A list of settings: label on the left, value on the right; the chosen line is ringed."""
    canvas, lay, area = _begin(surface, "menu", view.messages)
    pad = lay.pad
    area = _hint(canvas, lay, area, view.hint) if view.hint else area
    title = canvas.text(view.title, (area.x + 2 * pad, area.y + pad), lay.fs(48, 24), FG, role="title",
                        max_width=area.w - 4 * pad)
    size = lay.fs(36, 20)
    line_h = text_size("Mg", size)[1] + 2 * pad
    body = pygame.Rect(area.x + pad, title.bottom + pad, area.w - 3 * pad, area.bottom - title.bottom - 2 * pad)
    rows = max(1, body.h // line_h)
    sel = max(0, min(view.selected, len(view.items) - 1))
    first = max(0, min(sel - rows // 2, len(view.items) - rows))
    for k, item in enumerate(view.items[first:first + rows]):
        i = first + k
        row = pygame.Rect(body.x, body.y + k * line_h, body.w, line_h - 4)
        panel(canvas.surface, row, PANEL_HI if i == sel else PANEL, border=ACCENT if i == sel else None, width=3,
              radius=6)
        right = row.right - pad
        if item.value:
            right = canvas.text(item.value, (right, row.centery), size, ACCENT if i == sel else DIM,
                                anchor="midright", role="value", max_width=row.w // 2).left - pad
        canvas.text(item.label, (row.x + pad, row.centery), size, FG, anchor="midleft", role="label",
                    max_width=right - row.x - 2 * pad)
        canvas.target(row, "item", i)
    if rows < len(view.items):  # a scroll bar says there is more
        bar = pygame.Rect(area.right - pad // 2 - 4, body.y, 4, rows * line_h)
        pygame.draw.rect(canvas.surface, PANEL_HI, bar)
        knob_h = max(12, bar.h * rows // len(view.items))
        knob_y = bar.y + (bar.h - knob_h) * first // max(1, len(view.items) - rows)
        pygame.draw.rect(canvas.surface, ACCENT, (bar.x, knob_y, bar.w, knob_h))
    return canvas.drawn()


def draw_correction(surface: pygame.Surface, view: CorrectionView) -> Drawn:
    """Pick a misread card, choose its right rank and suit, or say whose card it is."""
    canvas, lay, area = _begin(surface, "correction", view.messages)
    pad = lay.pad
    hints = {"pick": "Next/Prev: move   OK: correct this card   Menu: cancel",
             "choose": "Turn or Next/Prev: change   OK: rank, then suit, then done",
             "enter": "Turn or Next/Prev: change   OK: rank, then suit, then done   Menu: cancel",
             "owner": "Next/Prev: choose   OK: confirm"}
    area = _hint(canvas, lay, area, hints.get(view.mode, ""))
    titles = {"pick": "Which card was misread?", "choose": "Correct the card", "owner": "Whose card is this?",
              "enter": view.title or "Enter a card"}
    title = canvas.text(titles.get(view.mode, view.mode), (area.centerx, area.y + pad), lay.fs(46, 24), FG,
                        anchor="midtop", role="title", max_width=area.w - 2 * pad)
    body = pygame.Rect(area.x + pad, title.bottom + pad, area.w - 2 * pad, area.bottom - title.bottom - 2 * pad)
    if view.mode == "pick":
        n = max(1, len(view.cards))
        card_w, card_h = card_size_for(min(body.h / 1.3, (body.w - pad * (n - 1)) / n * 7 / 5))
        x = body.centerx - (n * card_w + (n - 1) * pad) // 2
        for i, card in enumerate(view.cards):
            canvas.card(card, pygame.Rect(x + i * (card_w + pad), body.centery - card_h // 2 + card_h // 10,
                                          card_w, card_h), highlighted=i == view.selected, role="pick", index=i)
    elif view.mode in ("choose", "enter"):
        _choose(canvas, lay, body, view)
    else:
        _owner(canvas, lay, body, view)
    return canvas.drawn()


def _choose(canvas: Canvas, lay: Layout, body: pygame.Rect, view: CorrectionView) -> None:
    pad = lay.pad
    strips_h = int(body.h * 0.5)
    top = pygame.Rect(body.x, body.y, body.w, body.h - strips_h)
    card_w, card_h = card_size_for(top.h * 0.82)
    size = lay.fs(34, 18)
    arrow = text_size("becomes", size)[0]
    y = top.y + card_h // 8  # room for the lift of the highlighted card
    if view.card is None:  # entering a new card: only the card being chosen
        canvas.card(view.choice, pygame.Rect(top.centerx - card_w // 2, y, card_w, card_h), highlighted=True,
                    role="new")
    else:
        x = top.centerx - (2 * card_w + arrow + 4 * pad) // 2
        canvas.card(view.card, pygame.Rect(x, y, card_w, card_h), dim=True, role="old")
        canvas.text("becomes", (x + card_w + 2 * pad, y + card_h // 2), size, DIM, anchor="midleft", role="label")
        canvas.card(view.choice, pygame.Rect(x + card_w + arrow + 4 * pad, y, card_w, card_h), highlighted=True,
                    role="new")
    strip_h = (strips_h - pad) // 2
    ranks = pygame.Rect(body.x, top.bottom + pad // 2, body.w, strip_h)
    suits = pygame.Rect(body.x, ranks.bottom + pad // 2, body.w, strip_h)
    cell = ranks.w // 13
    rsize = min(lay.fs(34, 16), int(strip_h * 0.8 / 0.8), int(cell * 0.9 / 1.0))
    for i, r in enumerate(RANKS):
        rect = pygame.Rect(ranks.x + i * cell, ranks.y, cell - 3, strip_h)
        chosen = view.rank == i + 1
        panel(canvas.surface, rect, PANEL_HI if chosen else PANEL,
              border=ACCENT if chosen else None, width=3 if view.field == "rank" else 2, radius=6)
        canvas.text("10" if r == "T" else r, rect.center, rsize, ACCENT if chosen else FG, anchor="center",
                    role="rank", max_width=rect.w - 4)
        canvas.target(rect, "rank", i + 1)
    cell = suits.w // 4
    for i, s in enumerate(SUITS):
        rect = pygame.Rect(suits.x + i * cell, suits.y, cell - pad, strip_h)
        chosen = view.suit == s
        panel(canvas.surface, rect, (235, 235, 230) if chosen else (150, 150, 145),
              border=ACCENT if chosen else None, width=5 if view.field == "suit" else 3, radius=6)
        draw_suit(canvas.surface, s, rect.center, strip_h * 0.7)
        canvas.target(rect, "suit", i)


def _owner(canvas: Canvas, lay: Layout, body: pygame.Rect, view: CorrectionView) -> None:
    pad = lay.pad
    card_w, card_h = card_size_for(min(body.h * 0.9, body.w * 0.3 * 7 / 5))
    if view.card is not None:
        canvas.card(view.card, pygame.Rect(body.x + pad, body.centery - card_h // 2, card_w, card_h), role="owned")
    names = view.owners or ()
    box = pygame.Rect(body.x + card_w + 3 * pad, body.y, body.right - body.x - card_w - 3 * pad, body.h)
    line_h = min(box.h // max(1, len(names)), int(lay.h * 0.17))
    size = min(lay.fs(44, 20), int(line_h * 0.7 / 0.8))
    for i, name in enumerate(names):
        row = pygame.Rect(box.x, box.y + i * line_h, box.w, line_h - pad)
        chosen = i == view.selected
        panel(canvas.surface, row, PANEL_HI if chosen else PANEL, border=ACCENT if chosen else None, width=4)
        canvas.text(name, row.center, size, ACCENT if chosen else FG, anchor="center", role="owner",
                    max_width=row.w - 2 * pad)
        canvas.target(row, "owner", i)


def frame_surface(frame) -> pygame.Surface:
    """An RGB ``numpy`` frame (H x W x 3, uint8) as a pygame surface (sharing the frame's memory if it can)."""
    h, w = frame.shape[:2]
    data = frame if frame.flags["C_CONTIGUOUS"] else frame.copy()
    return pygame.image.frombuffer(data, (w, h), "RGB")


_scaled: dict[str, tuple] = {}


def _scaled_frame(view: CameraView, size: tuple[int, int]) -> pygame.Surface:
    """The frame scaled to ``size``, kept while the same frame is redrawn (a new overlay on an old picture)."""
    key = (id(view.frame), view.frame_id, size)
    cached = _scaled.get("frame")
    if cached is None or cached[0] != key:
        cached = _scaled["frame"] = (key, pygame.transform.scale(frame_surface(view.frame), size))
    return cached[1]


def draw_camera(surface: pygame.Surface, view: CameraView) -> Drawn:
    """The camera picture, fitted to the screen, with the zones and the cards read drawn over it."""
    canvas, lay, area = _begin(surface, "camera", view.messages)
    size = lay.fs(26, 16)
    if view.frame is None:
        canvas.text("No camera picture", area.center, lay.fs(40), DIM, anchor="center", role="status")
        return canvas.drawn()
    fh, fw = view.frame.shape[:2]
    scale = min(area.w / fw, area.h / fh)
    dw, dh = int(fw * scale), int(fh * scale)
    ox, oy = area.x + (area.w - dw) // 2, area.y + (area.h - dh) // 2
    surface.blit(_scaled_frame(view, (dw, dh)), (ox, oy))

    def to_screen(p: tuple[float, float]) -> tuple[int, int]:
        return int(ox + p[0] * scale), int(oy + p[1] * scale)

    for zone in view.zones:
        pts = [to_screen(p) for p in zone.points]
        if len(pts) >= 3:
            pygame.draw.polygon(surface, zone.colour, pts, 3)
            top = min(pts, key=lambda p: (p[1], p[0]))
            _label(canvas, lay, zone.name, (top[0] + 4, top[1] + 4), size, zone.colour, "zone")
    for seen in view.cards:  # green: read; orange: read but unsure, or face down; red: not read
        pts = [to_screen(p) for p in seen.points]
        if seen.card is not None:
            colour = OK_GREEN if seen.confidence >= 0.8 else WARN
        else:
            colour = WARN if seen.label == "face down" else ERROR
        if len(pts) >= 3:
            pygame.draw.polygon(surface, colour, pts, 3)
        text = f"{seen.card} {seen.confidence:.0%}" if seen.card is not None else (seen.label or "unknown")
        cx = sum(p[0] for p in pts) // max(1, len(pts))
        cy = sum(p[1] for p in pts) // max(1, len(pts))
        _label(canvas, lay, text, (cx, cy), size, colour, "seen", anchor="center")
    if view.status:
        _label(canvas, lay, view.status, (area.x + lay.pad, area.y + lay.pad), size, FG, "status")
    return canvas.drawn()


def _label(canvas: Canvas, lay: Layout, text: str, pos: tuple[int, int], size: int, colour, role: str,
           anchor: str = "topleft") -> None:
    """Text on a dark box, readable over a picture."""
    w, h = text_size(text, size)
    box = pygame.Rect(0, 0, w + 8, h + 4)
    setattr(box, anchor, pos)
    pygame.draw.rect(canvas.surface, (0, 0, 0), box, border_radius=4)
    canvas.text(text, box.center, size, colour, anchor="center", role=role)


_TABLE_SCREENS = {
    "scoreboard": draw_scoreboard, "play": draw_play, "show": draw_show, "history": draw_history,
    "score": draw_score, "game over": draw_game_over,
}
