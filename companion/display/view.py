"""Plain views of the game: the values the screens draw, and :func:`view_from_state` that builds them.

A view holds only what a screen shows, already worked out: names, numbers, cards, texts. The screens never look at
the rules engine and never compute a score; this module reads the game state's attributes and copies them out.
Every view is a frozen dataclass, so "has anything changed?" is ``new_view != old_view``.

>>> from companion import score_hand
>>> side = SideView("Alice", (86, 180, 233), score=29, back=0)
>>> view = TableView(sides=(side, SideView("Bob", (230, 159, 0), 0, 0)), phase="show",
...                  show=show_view("Alice's hand", score_hand("5H 5C 5S JD", "5D"), "5H 5C 5S JD", "5D"))
>>> view.show.total, len(view.show.items)
(29, 15)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, parse_cards
from ..rules.words import number_words
from ..table import Phase, Screen

Colour = tuple[int, int, int]

# Okabe-Ito colours, told apart by most colour-blind players; each side has a marker shape as well.
SIDE_COLOURS: tuple[Colour, ...] = ((86, 180, 233), (230, 159, 0), (204, 121, 167), (240, 228, 66))
SIDE_MARKERS: tuple[str, ...] = ("circle", "square", "triangle", "diamond")

PHASE_TITLES = {
    "new": "New game", "cut": "Cut for deal", "deal": "Dealing", "discard": "Discard to the crib",
    "starter": "Turn the starter", "play": "The play", "show": "The show", "over": "Game over",
}

KIND_TITLES = {
    "fifteen": "Fifteen", "pair": "Pair", "run": "Run", "flush": "Flush", "nobs": "His nobs",
    "thirty-one": "Thirty-one", "go": "Go", "last card": "Last card", "heels": "His heels",
}


@dataclass(frozen=True, slots=True)
class SideView:
    """One side as the table sees it: name, colour, marker shape, both pegs, games won, deal and turn."""

    name: str
    colour: Colour
    score: int
    back: int
    games_won: int = 0
    is_dealer: bool = False
    is_turn: bool = False
    marker: str = "circle"

    @property
    def last_gain(self) -> int:
        """The gap between the pegs: the last score this side pegged."""
        return self.score - self.back


@dataclass(frozen=True, slots=True)
class ItemView:
    """One scoring combination to list: its title ("Fifteen", "Pair royal", "Run of 4"), cards and points."""

    kind: str
    title: str
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class ScoreView:
    """A score to explain: who got it, the points, the spoken form and the items with their cards."""

    who: str
    side: int | None
    points: int
    spoken: str
    items: tuple[ItemView, ...] = ()
    reason: str = ""

    @property
    def highlighted(self) -> frozenset[Card]:
        """The cards that made this score."""
        return frozenset(c for item in self.items for c in item.cards)


@dataclass(frozen=True, slots=True)
class SeriesRow:
    """One player's row in the play: the cards they laid in the current series, each with its place in the order."""

    name: str
    side: int
    cards: tuple[tuple[int, Card], ...] = ()


@dataclass(frozen=True, slots=True)
class ShowView:
    """One hand or crib in the show: the cards, the starter, the breakdown, the total and, with muggins, the claim."""

    title: str
    cards: tuple[Card, ...]
    starter: Card | None
    items: tuple[ItemView, ...]
    total: int
    spoken: str = ""
    side: int | None = None
    claimed: int | None = None
    selected: int | None = None  # an item whose cards are highlighted
    page: int = 0

    @property
    def highlighted(self) -> frozenset[Card]:
        if self.selected is None or not 0 <= self.selected < len(self.items):
            return frozenset()
        return frozenset(self.items[self.selected].cards)


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One score in the history (the view lists them newest first), with what opening it shows: the cards it was
    counted from (``starter`` among them for a show of the current hand) and its breakdown."""

    who: str
    side: int | None
    points: int
    reason: str
    spoken: str = ""
    items: tuple[ItemView, ...] = ()
    cards: tuple[Card, ...] = ()
    starter: Card | None = None

    @property
    def title(self) -> str:
        """What the score was for, in words: "Bob's hand", "Ann's crib", "Ann in the play", "Bob: his heels"."""
        who = self.who or "The table"
        if self.reason == "hand":
            return f"{who}'s hand"
        if self.reason == "crib":
            return f"{who}'s crib"
        if self.reason == "play":
            return f"{who} in the play"
        return f"{who}: {KIND_TITLES.get(self.reason, self.reason).lower()}"


def score_detail(entry: HistoryEntry, page: int = 0) -> ShowView:
    """A history entry opened: its cards and breakdown as a :class:`ShowView`, drawn like a show."""
    cards = tuple(c for c in entry.cards if c != entry.starter)
    return ShowView(entry.title, cards, entry.starter, entry.items, entry.points, entry.spoken, entry.side,
                    page=page)


@dataclass(frozen=True, slots=True)
class Message:
    """A note that never blocks the game: ``level`` is ``info``, ``warning`` or ``error``."""

    text: str
    level: str = "warning"


CAMERA_LOST = Message("Camera lost: reconnecting", "error")
LED_UNAVAILABLE = Message("LED board unavailable: scores on screen only", "warning")


def card_seen_twice(card: Card | str) -> Message:
    """The message for a card read in two places at once."""
    return Message(f"{Card.parse(card) if isinstance(card, str) else card} seen twice: check the table", "warning")


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the game screens show. ``screen`` picks one ("scoreboard", "play", "show", "history",
    "game over"); empty means the one for the phase."""

    sides: tuple[SideView, ...]
    phase: str
    target: int = 121
    variant: str = ""
    count: int = 0
    series: tuple[SeriesRow, ...] = ()
    starter: Card | None = None
    last_score: ScoreView | None = None
    show: ShowView | None = None
    history: tuple[HistoryEntry, ...] = ()
    selected: int = 0
    messages: tuple[Message, ...] = ()
    winner: int | None = None
    skunk: str | None = None
    skunk_lines: tuple[int | None, int | None] = (90, 60)
    turn: str | None = None
    dealer: str | None = None
    lowball: bool = False
    screen: str = ""

    @property
    def games_played(self) -> int:
        return sum(s.games_won for s in self.sides)


@dataclass(frozen=True, slots=True)
class MenuItem:
    """One line of a menu: a label, its current value (may be empty) and a key the app acts on."""

    label: str
    value: str = ""
    key: str = ""


@dataclass(frozen=True, slots=True)
class MenuView:
    title: str
    items: tuple[MenuItem, ...]
    selected: int = 0
    hint: str = "OK: choose   Next/Prev: move   Menu: back"
    messages: tuple[Message, ...] = ()


@dataclass(frozen=True, slots=True)
class CorrectionView:
    """Fix a misread card. ``mode``: ``pick`` (which card is wrong, among ``cards``), ``choose`` (the right rank and
    suit for ``card``; ``field`` says which the encoder turns) or ``owner`` ("whose card is this?", among
    ``owners``) or ``enter`` (a card entered by hand, ``title`` says for what)."""

    mode: str
    cards: tuple[Card, ...] = ()
    selected: int = 0
    card: Card | None = None
    rank: int = 1
    suit: str = "C"
    field: str = "rank"
    owners: tuple[str, ...] = ()
    messages: tuple[Message, ...] = ()
    title: str = ""  # for ``enter``: what the card is for ("Ann's card", "The starter")

    @property
    def choice(self) -> Card:
        return Card(self.rank, self.suit)


@dataclass(frozen=True, slots=True)
class ZoneView:
    """A zone of the mat in frame pixels: a name and its polygon."""

    name: str
    points: tuple[tuple[float, float], ...]
    colour: Colour = (120, 200, 255)


@dataclass(frozen=True, slots=True)
class SeenCard:
    """A card the camera read: its corners in frame pixels, the reading (None if unread) and the confidence."""

    points: tuple[tuple[float, float], ...]
    card: Card | None = None
    confidence: float = 1.0
    label: str = ""  # for a card not read: "unknown", or "face down" for a back


@dataclass(frozen=True, eq=False)
class CameraView:
    """A camera frame (an RGB ``numpy`` array, H x W x 3) with zones and read cards drawn over it. Two camera views
    are equal when their ``frame_id`` and overlays are, so a new frame is a new view."""

    frame: Any
    frame_id: int = 0
    zones: tuple[ZoneView, ...] = ()
    cards: tuple[SeenCard, ...] = ()
    status: str = ""
    messages: tuple[Message, ...] = ()

    def _key(self) -> tuple:
        return (self.frame_id, self.zones, self.cards, self.status, self.messages)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CameraView) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


# ---------------------------------------------------------------------------------------------------------------
# Building views from scores and from the rules engine's state (attributes only; nothing is scored here).


def item_title(item: Any) -> str:
    """A short title for a score item: its label if it has one ("a pair royal" -> "Pair royal"), else its kind."""
    label = (getattr(item, "label", "") or "").strip()
    if label:
        if label.startswith(("a ", "an ")):
            label = label.split(" ", 1)[1]
        return label[:1].upper() + label[1:]
    kind = getattr(item, "kind", "")
    title = KIND_TITLES.get(kind, kind.capitalize())
    if kind == "run":
        title = f"Run of {number_words(len(getattr(item, 'cards', ())))}"
    return title


def item_views(score: Any) -> tuple[ItemView, ...]:
    """The items of a :class:`~companion.rules.score.Score` (or None) as :class:`ItemView` values."""
    if score is None:
        return ()
    return tuple(ItemView(i.kind, item_title(i), tuple(i.cards), i.points) for i in score.items)


def show_view(title: str, score: Any, cards: str | Iterable[Card], starter: str | Card | None, *,
              side: int | None = None, claimed: int | None = None, selected: int | None = None) -> ShowView:
    """A :class:`ShowView` from a show score and the cards it counted."""
    start = Card.parse(starter) if isinstance(starter, str) else starter
    return ShowView(title, tuple(parse_cards(cards)), start, item_views(score), score.total,
                    getattr(score, "spoken", ""), side, claimed, selected)


def _names(state: Any) -> tuple[str, ...]:
    return tuple(getattr(state, "players", ()) or ())


def _seat_name(state: Any, seat: int | None) -> str | None:
    names = _names(state)
    if seat is None:
        return None
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"


def _side_of_seat(state: Any, seat: int | None) -> int | None:
    if seat is None:
        return None
    for i, side in enumerate(getattr(state, "sides", ()) or ()):
        if seat in tuple(getattr(side, "seats", ()) or ()):
            return i
    return seat % max(1, len(getattr(state, "sides", ()) or (1,)))


def _who(state: Any, entry: Any) -> tuple[str, int | None]:
    seat = getattr(entry, "seat", None)
    side = getattr(entry, "side", None)
    if side is None:
        side = _side_of_seat(state, seat)
    if seat is not None:
        return _seat_name(state, seat) or "", side
    sides = getattr(state, "sides", ())
    if side is not None and 0 <= side < len(sides):
        return getattr(sides[side], "name", f"Side {side + 1}"), side
    return "", side


def score_view(state: Any, entry: Any) -> ScoreView:
    """A :class:`ScoreView` from one of the state's score entries (``.seat``, ``.side``, ``.points``, ``.reason``,
    ``.score``)."""
    who, side = _who(state, entry)
    score = getattr(entry, "score", None)
    reason = str(getattr(entry, "reason", "") or "")
    spoken = getattr(score, "spoken", "") if score is not None else ""
    return ScoreView(who, side, int(getattr(entry, "points", 0)), spoken or reason, item_views(score), reason)


def _counted_cards(state: Any, entry: Any, items: tuple[ItemView, ...]) -> tuple[tuple[Card, ...], Card | None]:
    """The cards a score was counted from: a show's whole hand (with the starter, named as such while it is still
    on the table), else the cards of its items in the order they were laid."""
    score = getattr(entry, "score", None)
    if score is not None and getattr(entry, "reason", "") in ("hand", "crib", "muggins"):
        for show in getattr(state, "shows", ()) or ():
            if getattr(show, "score", None) is score:
                cards = tuple(getattr(show, "cards", ()))
                starter = getattr(state, "starter", None)
                if getattr(entry, "hand", None) != getattr(state, "hand", None):  # an older hand's starter: the
                    extra = {c for it in items for c in it.cards} - set(cards)  # one card it scored with, if any
                    starter = next(iter(extra)) if len(extra) == 1 else None
                if starter is not None and starter not in cards:
                    cards += (starter,)
                return cards, starter
    seen: dict[Card, None] = {}
    for item in items:
        for card in item.cards:
            seen.setdefault(card, None)
    return tuple(seen), None


def _series_rows(state: Any) -> tuple[SeriesRow, ...]:
    names = _names(state)
    seats = range(len(names)) if names else sorted({s for s, _ in getattr(state, "series", ())})
    laid: dict[int, list[tuple[int, Card]]] = {s: [] for s in seats}
    for order, (seat, card) in enumerate(getattr(state, "series", ()) or ()):
        laid.setdefault(seat, []).append((order, card))
    return tuple(SeriesRow(_seat_name(state, s) or "", _side_of_seat(state, s) or 0, tuple(laid[s]))
                 for s in sorted(laid))


def _crib_owner(state: Any, entry: Any) -> int | None:
    """The seat whose crib was counted: the seat its score went to, else the dealer (the one before the current
    dealer once the deal has passed on)."""
    score = getattr(entry, "score", None)
    for s in reversed(tuple(getattr(state, "scores", ()) or ())):
        if getattr(s, "reason", "") == "crib" and getattr(s, "score", None) is score:
            return getattr(s, "seat", None)
    dealer = getattr(state, "dealer", None)
    players = len(_names(state)) or 1
    if dealer is not None and getattr(state, "phase", "") != Phase.SHOW:
        return (dealer - 1) % players
    return dealer


def _show_from_state(state: Any) -> ShowView | None:
    shows = tuple(getattr(state, "shows", ()) or ())
    if not shows:
        return None
    entry = shows[-1]
    seat = getattr(entry, "seat", None)
    if seat is None:
        dealer_seat = _crib_owner(state, entry)
        dealer = _seat_name(state, dealer_seat)
        title, side = (f"{dealer}'s crib" if dealer else "The crib"), _side_of_seat(state, dealer_seat)
    else:
        title, side = f"{_seat_name(state, seat)}'s hand", _side_of_seat(state, seat)
    score = getattr(entry, "score", None)
    starter = getattr(state, "starter", None)
    cards = tuple(c for c in getattr(entry, "cards", ()) if c != starter)
    claimed = getattr(entry, "claimed", None)
    return ShowView(title, cards, starter, item_views(score), getattr(score, "total", 0),
                    getattr(score, "spoken", ""), side, claimed)


def view_from_state(state: Any, *, colours: Sequence[Colour] | None = None, games_won: Sequence[int] = (),
                    messages: Iterable[Message] = (), screen: str = "", selected: int = 0,
                    history_limit: int = 30) -> TableView:
    """Build the :class:`TableView` for a game state, reading attributes only.

    ``colours`` and ``games_won`` (one per side) come from the settings and the match; ``messages`` from the app.
    """
    sides_state = tuple(getattr(state, "sides", ()) or ())
    variant = getattr(state, "variant", None)
    target = int(getattr(state, "target", 0) or getattr(variant, "target", 121))
    dealer_seat = getattr(state, "dealer", None)
    turn_seat = getattr(state, "turn", None)
    colours = tuple(colours or SIDE_COLOURS)
    sides = []
    for i, s in enumerate(sides_state):
        seats = tuple(getattr(s, "seats", ()) or (i,))
        sides.append(SideView(
            name=str(getattr(s, "name", f"Side {i + 1}")), colour=colours[i % len(colours)],
            # a game is won on reaching the target: the points past it are not pegged, so none are shown
            score=min(int(getattr(s, "front", 0)), target), back=min(int(getattr(s, "back", 0)), target),
            games_won=int(games_won[i]) if i < len(games_won) else 0,
            is_dealer=dealer_seat in seats, is_turn=turn_seat is not None and turn_seat in seats,
            marker=SIDE_MARKERS[i % len(SIDE_MARKERS)]))
    scores = tuple(getattr(state, "scores", ()) or ())
    history = tuple(HistoryEntry(v.who, v.side, v.points, v.reason or v.spoken, v.spoken, v.items,
                                 *_counted_cards(state, e, v.items))
                    for v, e in ((score_view(state, e), e) for e in reversed(scores[-history_limit:])))
    options = getattr(state, "options", None)
    lines = options.skunk_lines(target) if hasattr(options, "skunk_lines") else (
        target - 31, target - 61 if target > 61 else None)
    show = _show_from_state(state)
    if screen == Screen.SCORE and history:  # one score of the history opened
        show = score_detail(history[max(0, min(selected, len(history) - 1))])
    return TableView(
        sides=tuple(sides), phase=str(getattr(state, "phase", "")), target=target,
        variant=str(getattr(variant, "title", "") or getattr(variant, "name", "") or ""),
        count=int(getattr(state, "count", 0) or 0), series=_series_rows(state),
        starter=getattr(state, "starter", None),
        last_score=score_view(state, scores[-1]) if scores else None,
        show=show, history=history, selected=selected, messages=tuple(messages),
        winner=getattr(state, "winner", None), skunk=getattr(state, "skunk", None), skunk_lines=lines,
        turn=_seat_name(state, turn_seat), dealer=_seat_name(state, dealer_seat),
        lowball=bool(getattr(options, "lowball", False)), screen=screen)


__all__ = [
    "CAMERA_LOST", "LED_UNAVAILABLE", "PHASE_TITLES", "SIDE_COLOURS", "SIDE_MARKERS", "CameraView", "CorrectionView",
    "HistoryEntry", "ItemView", "MenuItem", "MenuView", "Message", "ScoreView", "SeenCard", "SeriesRow", "ShowView",
    "SideView", "TableView", "ZoneView", "card_seen_twice", "item_views", "score_detail", "score_view", "show_view",
    "view_from_state",
]
