"""The game: an event-sourced state machine. ``GameState`` is a fold of events; nothing here does I/O or reads a clock.

>>> from companion.cards import parse_cards
>>> g = Game()
>>> _ = g.apply(NewGame("six-card", ("Ann", "Bob")))
>>> _ = g.apply(Deal())
>>> _ = g.apply(Starter(Card.parse("JH")))     # his heels: 2 for the dealer
>>> g.state.sides[0].front, g.state.turn
(2, 1)
>>> _ = g.apply(Play(1, Card.parse("TS")))
>>> g.apply(Play(1, Card.parse("5S")))
Traceback (most recent call last):
...
companion.errors.IllegalMove: it is Ann's turn, not Bob's
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..cards import Card
from ..errors import CompanionError, IllegalMove
from .events import (Correction, Crib, Cut, Deal, Discard, Event, Go, Muggins, NewGame, Play, Redo, ReplaceCard,
                     Show, Starter, Undo)
from .phases import Phase
from .play import LIMIT, score_play
from .score import Score, ScoreItem
from .show import score_hand
from .variants import Options, Variant, get_variant
from .words import number_words, sentence

PHASES = ("new", "cut", "deal", "discard", "play", "show", "over")


@dataclass(frozen=True, slots=True)
class SideState:
    """One side: its name, the seats that score for it, and its two pegs (front = score, back = previous score)."""

    name: str
    seats: tuple[int, ...]
    front: int = 0
    back: int = 0

    @property
    def last_points(self) -> int:
        return self.front - self.back


@dataclass(frozen=True, slots=True)
class ScoreEntry:
    """One pegging: which side (and seat, None for a side-level correction), how many points, why, and the
    breakdown (``score``) that shows which cards made it."""

    side: int
    seat: int | None
    points: int
    reason: str
    hand: int
    score: Score | None = None

    @property
    def spoken(self) -> str:
        return self.score.spoken if self.score else f"{self.reason}: {self.points}"


@dataclass(frozen=True, slots=True)
class ShowEntry:
    """A counted hand (``seat``) or crib (``seat`` is None) with its true score and the count claimed."""

    seat: int | None
    cards: tuple[Card, ...]
    score: Score
    claimed: int | None = None


@dataclass(frozen=True, slots=True)
class GameState:
    """Everything the table needs to know, as plain values."""

    variant: Variant | None = None
    options: Options = field(default_factory=Options)
    players: tuple[str, ...] = ()
    sides: tuple[SideState, ...] = ()
    phase: str = "new"
    dealer: int | None = None
    hand: int = 0
    starter: Card | None = None
    count: int = 0
    series: tuple[tuple[int, Card], ...] = ()
    played: tuple[tuple[Card, ...], ...] = ()
    discards: tuple[tuple[Card, ...], ...] = ()
    turn: int | None = None
    passed: frozenset[int] = frozenset()
    last_player: int | None = None
    seen: frozenset[Card] = frozenset()
    shows: tuple[ShowEntry, ...] = ()
    scores: tuple[ScoreEntry, ...] = ()
    cut: tuple[Card, ...] = ()
    pending_muggins: tuple[int, int] | None = None  # (seat that missed, points missed)
    winner: int | None = None
    loser: int | None = None
    skunk: str | None = None

    # --- derived -------------------------------------------------------------------------------------------------
    @property
    def target(self) -> int:
        return self.variant.target if self.variant else 121

    def side_of(self, seat: int) -> int:
        return self.variant.side_of(seat) if self.variant else seat

    def seat_name(self, seat: int | None) -> str:
        """The player at ``seat``, in words ("nobody" for no seat)."""
        if seat is None:
            return "nobody"
        return self.players[seat] if 0 <= seat < len(self.players) else f"seat {seat}"

    @property
    def pone(self) -> int | None:
        return None if self.dealer is None else (self.dealer + 1) % len(self.players)

    @property
    def show_order(self) -> tuple[int | None, ...]:
        """Seats in the order they count (left of the dealer first, the dealer last), then None for the crib."""
        if self.dealer is None:
            return ()
        n = len(self.players)
        return tuple((self.dealer + k) % n for k in range(1, n + 1)) + (None,)

    @property
    def next_show(self) -> int | None:
        """The seat to count next in the show; ``None`` when the crib is next (see :attr:`counting_crib`), and
        outside the show, where nobody counts."""
        order = self.show_order
        return order[len(self.shows)] if self.phase == Phase.SHOW and len(self.shows) < len(order) else None

    @property
    def counting_crib(self) -> bool:
        """Whether the crib is the next thing to count (every hand of the show is counted)."""
        return self.phase == Phase.SHOW and len(self.shows) == len(self.show_order) - 1

    def cards_left(self, seat: int) -> int:
        return self.variant.hand_size - len(self.played[seat]) if self.variant else 0

    @property
    def games_won(self) -> int:
        """How many games this win is worth (1 for a plain win, more for a skunk), 0 while the game goes on."""
        if self.winner is None:
            return 0
        worth = self.options.worth
        return {"skunk": worth.skunk, "double skunk": worth.double_skunk}.get(self.skunk or "", worth.win)


# --- pegging ---------------------------------------------------------------------------------------------------

def _peg(s: GameState, side: int, points: int, reason: str, seat: int | None, score: Score | None) -> GameState:
    if points == 0 or s.phase == Phase.OVER:
        return s
    old = s.sides[side]
    front = max(0, old.front + points)
    sides = s.sides[:side] + (replace(old, front=front, back=old.front),) + s.sides[side + 1:]
    s = replace(s, sides=sides, scores=s.scores + (ScoreEntry(side, seat, points, reason, s.hand, score),))
    if front >= s.target:
        s = _finish(s, side)
    return s


def _finish(s: GameState, reached: int) -> GameState:
    if s.options.lowball:  # the first side to reach the target loses; the lowest of the others wins
        others = [i for i in range(len(s.sides)) if i != reached]
        winner = min(others, key=lambda i: s.sides[i].front)
        return replace(s, phase="over", winner=winner, loser=reached, turn=None, skunk=None)
    skunk_line, double_line = s.options.skunk_lines(s.target)
    worst = min(side.front for i, side in enumerate(s.sides) if i != reached)
    skunk = None
    if double_line is not None and worst <= double_line:
        skunk = "double skunk"
    elif skunk_line is not None and worst <= skunk_line:
        skunk = "skunk"
    return replace(s, phase="over", winner=reached, turn=None, skunk=skunk)


def _bonus_allowed(s: GameState, side: int, points: int, reason: str) -> bool:
    """House rules on go points and heels: the stinkhole and "no go point past 115"."""
    front = s.sides[side].front
    if s.options.stinkhole and front == s.target - 1 and reason in ("go", "last card", "heels"):
        return False
    if s.options.no_go_past is not None and front > s.options.no_go_past and reason in ("go", "last card"):
        return False
    return True


def _simple_score(kind: str, cards: tuple[Card, ...], points: int, spoken: str) -> Score:
    return Score((ScoreItem(kind, cards, points),), spoken)


# --- one pure update per event type -------------------------------------------------------------------------

def _need(s: GameState, *phases: str, doing: str) -> None:
    if s.phase == Phase.OVER:
        raise IllegalMove(f"the game is over: {s.sides[s.winner].name} won" if s.winner is not None
                          else "the game is over")
    if s.phase not in phases:
        raise IllegalMove(f"cannot {doing} now: the game is at the {s.phase} phase")


def _check_seat(s: GameState, seat: int) -> None:
    if not isinstance(seat, int) or not 0 <= seat < len(s.players):
        raise IllegalMove(f"there is no seat {seat!r}: seats are 0 to {len(s.players) - 1}")


def _unseen(s: GameState, cards: Iterable[Card]) -> None:
    for c in cards:
        if c in s.seen:
            raise IllegalMove(f"{c} has already been seen this hand: a card cannot be laid twice")


def _new_game(s: GameState, e: NewGame) -> GameState:
    if s.phase != Phase.NEW:
        raise IllegalMove("a game is already under way: start a new game instead")
    variant = get_variant(e.variant)
    if e.target is not None:
        variant = variant.with_target(e.target)
    players = tuple(e.players)
    if len(players) != variant.players:
        raise IllegalMove(f"{variant.title or variant.name} is for {variant.players} players, not {len(players)}")
    if variant.partners:
        sides = tuple(SideState(" & ".join(players[i::variant.sides]), tuple(range(i, variant.players,
                                                                                    variant.sides)))
                      for i in range(variant.sides))
    else:
        sides = tuple(SideState(name, (i,)) for i, name in enumerate(players))
    s = replace(s, variant=variant, options=e.options, players=players, sides=sides,
                played=((),) * len(players), discards=((),) * len(players))
    if e.first_dealer is None:
        return replace(s, phase="cut")
    if not 0 <= e.first_dealer < len(players):
        raise IllegalMove(f"there is no seat {e.first_dealer} to deal: seats are 0 to {len(players) - 1}")
    return replace(s, phase="deal", dealer=e.first_dealer)


def _cut(s: GameState, e: Cut) -> GameState:
    _need(s, "cut", doing="cut for the deal")
    if len(e.cards) != len(s.players) or len(set(e.cards)) != len(e.cards):
        raise IllegalMove(f"the cut needs {len(s.players)} different cards, one per player")
    low = min(c.rank for c in e.cards)
    lowest = [i for i, c in enumerate(e.cards) if c.rank == low]
    if len(lowest) > 1:
        return replace(s, cut=e.cards)  # a tie for lowest: cut again
    return replace(s, cut=e.cards, dealer=lowest[0], phase="deal")


def _deal(s: GameState, e: Deal) -> GameState:
    _need(s, "deal", doing="deal")
    n = len(s.players)
    s = replace(s, hand=s.hand + 1, phase="discard", starter=None, count=0, series=(), played=((),) * n,
                discards=((),) * n, turn=None, passed=frozenset(), last_player=None, seen=frozenset(), shows=(),
                pending_muggins=None)
    if s.hand == 1 and s.variant.start_bonus:
        pone = s.pone
        score = _simple_score("three for last", (), s.variant.start_bonus,
                              sentence(f"{number_words(s.variant.start_bonus)} for last"))
        s = _peg(s, s.side_of(pone), s.variant.start_bonus, "three for last", pone, score)
    return s


def _discard(s: GameState, e: Discard) -> GameState:
    _need(s, "discard", doing="discard to the crib")
    _check_seat(s, e.seat)
    if s.discards[e.seat]:
        raise IllegalMove(f"{s.seat_name(e.seat)} has already discarded")
    want = s.variant.discard
    if e.cards and len(e.cards) != want:
        raise IllegalMove(f"each player lays {want} card{'s' if want > 1 else ''} in the crib, not {len(e.cards)}")
    _unseen(s, e.cards)
    discards = s.discards[:e.seat] + (tuple(e.cards),) + s.discards[e.seat + 1:]
    return replace(s, discards=discards, seen=s.seen | set(e.cards))


def _starter(s: GameState, e: Starter) -> GameState:
    _need(s, "discard", doing="turn the starter")
    _unseen(s, [e.card])
    s = replace(s, starter=e.card, seen=s.seen | {e.card}, phase="play", turn=s.pone, count=0)
    if e.card.rank == 11:
        side = s.side_of(s.dealer)
        if _bonus_allowed(s, side, 2, "heels"):
            s = _peg(s, side, 2, "heels", s.dealer, _simple_score("heels", (e.card,), 2, "Two for his heels"))
    return s


def _play(s: GameState, e: Play) -> GameState:
    _need(s, "play", doing="play a card")
    _check_seat(s, e.seat)
    if e.seat != s.turn:
        raise IllegalMove(f"it is {s.seat_name(s.turn)}'s turn, not {s.seat_name(e.seat)}'s")
    if s.cards_left(e.seat) <= 0:
        raise IllegalMove(f"{s.seat_name(e.seat)} has played all {s.variant.hand_size} cards")
    _unseen(s, [e.card])
    if s.count + e.card.value > LIMIT:
        raise IllegalMove(f"{e.card} would make the count {s.count + e.card.value}, over 31: "
                          f"play a lower card or say go")
    series = s.series + ((e.seat, e.card),)
    score = score_play([c for _, c in series])
    played = s.played[:e.seat] + (s.played[e.seat] + (e.card,),) + s.played[e.seat + 1:]
    s = replace(s, series=series, count=score.count, played=played, last_player=e.seat, seen=s.seen | {e.card})
    s = _peg(s, s.side_of(e.seat), score.total, "play", e.seat, score)
    return _advance(s, e.seat)


def _go(s: GameState, e: Go) -> GameState:
    _need(s, "play", doing="say go")
    _check_seat(s, e.seat)
    if e.seat != s.turn:
        raise IllegalMove(f"it is {s.seat_name(s.turn)}'s turn, not {s.seat_name(e.seat)}'s")
    if s.count <= LIMIT - 10:
        raise IllegalMove(f"at {s.count} every card fits: {s.seat_name(e.seat)} must play, not say go")
    return _advance(replace(s, passed=s.passed | {e.seat}), e.seat)


def _advance(s: GameState, after: int) -> GameState:
    """Pass the turn on after a card or a go; end the series when nobody can play or the count is 31."""
    if s.phase == Phase.OVER:
        return s
    n = len(s.players)
    if s.count < LIMIT:
        for k in range(1, n + 1):
            seat = (after + k) % n
            if seat not in s.passed and s.cards_left(seat) > 0:
                return replace(s, turn=seat)
    return _end_series(s)


def _end_series(s: GameState) -> GameState:
    n = len(s.players)
    all_out = all(s.cards_left(i) == 0 for i in range(n))
    last = s.last_player
    if last is not None and s.count < LIMIT:
        reason = "last card" if all_out else "go"
        side = s.side_of(last)
        if _bonus_allowed(s, side, 1, reason):
            card = s.series[-1][1]
            words = "One for last card" if all_out else "One for the go"
            s = _peg(s, side, 1, reason, last, _simple_score(reason, (card,), 1, words))
            if s.phase == Phase.OVER:
                return s
    s = replace(s, count=0, series=(), passed=frozenset())
    if all_out or s.variant.play_stops_at_first_go:
        return replace(s, phase="show", turn=None)
    start = last if last is not None else s.turn
    for k in range(1, n + 1):
        seat = (start + k) % n
        if s.cards_left(seat) > 0:
            return replace(s, turn=seat, last_player=None)
    return replace(s, phase="show", turn=None)  # pragma: no cover - all_out covers it


def _claimed_points(s: GameState, true: int, claimed: int | None) -> tuple[int, int]:
    """(points pegged, points missed): with muggins a player pegs only what they claim, never more than true."""
    if not s.options.muggins or claimed is None:
        return true, 0
    if claimed < 0:
        raise IllegalMove(f"a claimed count cannot be negative: {claimed}")
    pegged = min(claimed, true)
    return pegged, true - pegged


def _show(s: GameState, e: Show) -> GameState:
    _need(s, "show", doing="count a hand")
    _check_seat(s, e.seat)
    expected = s.next_show
    if expected != e.seat:
        who = "the crib" if expected is None else s.seat_name(expected)
        raise IllegalMove(f"{who} counts next, not {s.seat_name(e.seat)}")
    cards = tuple(e.cards)
    if len(cards) != s.variant.hand_size:
        raise IllegalMove(f"a hand has {s.variant.hand_size} cards in the show, not {len(cards)}")
    missing = [c for c in s.played[e.seat] if c not in cards]
    if missing:
        raise IllegalMove(f"the hand shown does not hold {' '.join(map(str, missing))}, which "
                          f"{s.seat_name(e.seat)} played")
    _unseen(s, [c for c in cards if c not in s.played[e.seat]])
    score = score_hand(cards, s.starter)
    pegged, missed = _claimed_points(s, score.total, e.claimed)
    s = replace(s, shows=s.shows + (ShowEntry(e.seat, cards, score, e.claimed),), seen=s.seen | set(cards),
                pending_muggins=(e.seat, missed) if missed else None)
    return _peg(s, s.side_of(e.seat), pegged, "hand", e.seat, score)


def _crib(s: GameState, e: Crib) -> GameState:
    _need(s, "show", doing="count the crib")
    if s.next_show is not None:
        raise IllegalMove(f"{s.seat_name(s.next_show)} counts next: the crib is counted last")
    cards = tuple(e.cards)
    if len(cards) != s.variant.crib_size:
        raise IllegalMove(f"the crib has {s.variant.crib_size} cards, not {len(cards)}")
    known = [c for d in s.discards for c in d]
    missing = [c for c in known if c not in cards]
    if missing:
        raise IllegalMove(f"the crib shown does not hold {' '.join(map(str, missing))}, which was discarded")
    _unseen(s, [c for c in cards if c not in known])
    score = score_hand(cards, s.starter, crib=True)
    pegged, missed = _claimed_points(s, score.total, e.claimed)
    s = replace(s, shows=s.shows + (ShowEntry(None, cards, score, e.claimed),), seen=s.seen | set(cards),
                pending_muggins=(s.dealer, missed) if missed else None)
    s = _peg(s, s.side_of(s.dealer), pegged, "crib", s.dealer, score)
    if s.phase == Phase.OVER:
        return s
    return replace(s, phase="deal", dealer=(s.dealer + 1) % len(s.players), turn=None)


def _muggins(s: GameState, e: Muggins) -> GameState:
    if not s.options.muggins:
        raise IllegalMove("muggins is not on in this game")
    _need(s, "show", "deal", doing="call muggins")
    _check_seat(s, e.seat)
    if s.pending_muggins is None:
        raise IllegalMove("there are no missed points to claim")
    missed_by, missed = s.pending_muggins
    if s.side_of(e.seat) == s.side_of(missed_by):
        raise IllegalMove(f"{s.seat_name(e.seat)} cannot claim their own side's missed points")
    if not 0 < e.points <= missed:
        raise IllegalMove(f"only {missed} point{'s were' if missed > 1 else ' was'} missed, not {e.points}")
    score = _simple_score("muggins", (), e.points, sentence(f"muggins for {number_words(e.points)}"))
    s = replace(s, pending_muggins=None)
    return _peg(s, s.side_of(e.seat), e.points, "muggins", e.seat, score)


def _correction(s: GameState, e: Correction) -> GameState:
    _need(s, *PHASES[1:-1], doing="correct a score")
    if not 0 <= e.side < len(s.sides):
        raise IllegalMove(f"there is no side {e.side}: sides are 0 to {len(s.sides) - 1}")
    if not e.reason.strip():
        raise IllegalMove("a correction needs a reason")
    return _peg(s, e.side, e.points, "correction", None,
                _simple_score("correction", (), e.points, f"Correction: {e.reason}"))


_APPLY: dict[type, Callable[[GameState, Any], GameState]] = {
    NewGame: _new_game, Cut: _cut, Deal: _deal, Discard: _discard, Starter: _starter, Play: _play, Go: _go,
    Show: _show, Crib: _crib, Muggins: _muggins, Correction: _correction}


def apply(state: GameState, event: Event) -> GameState:
    """The state after one game event; raises :class:`IllegalMove` (the state is a value: nothing changed)."""
    try:
        fn = _APPLY[type(event)]
    except KeyError:
        raise IllegalMove(f"{type(event).__name__} is not a game event here (undo, redo and card replacement "
                          "are resolved over the whole log: use Game or replay)") from None
    return fn(state, event)


# --- the log: undo, redo and misread cards -------------------------------------------------------------------

def _substitute(event: Event, old: Card, new: Card) -> Event:
    def swap(c: Card) -> Card:
        return new if c == old else c
    changes: dict[str, Any] = {}
    for name in ("card",):
        if getattr(event, name, None) == old:
            changes[name] = new
    if hasattr(event, "cards"):
        changes["cards"] = tuple(swap(c) for c in event.cards)
    return replace(event, **changes) if changes else event


def _undo_stack(log: Sequence[Event]) -> tuple[list[Event], list[Event]]:
    """(events in effect, events undone and not redone yet): undo moves the last event in effect to the undone
    stack (never the new game itself), redo moves it back, any other event clears the undone stack."""
    kept: list[Event] = []
    undone: list[Event] = []
    for e in log:
        if isinstance(e, Undo):
            if len(kept) > 1:
                undone.append(kept.pop())
        elif isinstance(e, Redo):
            if undone:
                kept.append(undone.pop())
        else:
            kept.append(e)
            undone.clear()
    return kept, undone


def effective_events(log: Sequence[Event]) -> list[Event]:
    """The events in effect: undo removes the last one, redo puts it back, and a card replacement rewrites the
    events of the current hand that named the misread card."""
    kept, _ = _undo_stack(log)
    out: list[Event] = []
    for e in kept:
        if isinstance(e, ReplaceCard):
            start = max((i for i, x in enumerate(out) if isinstance(x, Deal)), default=0)
            out[start:] = _reinfer_goes(out[:start], [_substitute(x, e.old, e.new) for x in out[start:]])
        else:
            out.append(e)
    return out


def infer_goes(state: GameState, seat: int | None = None, card: Card | None = None, *,
               most: int = 8) -> tuple[GameState, list[Go]]:
    """The goes nobody said that the table shows, and the state after them. With ``card``: before ``seat`` can lay
    it, each player whose turn it is says go, as long as the count is over 21 (at 21 or less every card fits, so a
    player must play). Without a card: the goes that end the series (the rows were turned down). Stops at the first
    go the rules refuse.

    >>> from companion.rules.events import NewGame, Deal, Starter
    >>> c = Card.parse
    >>> s = replay([NewGame("six-card", ("Ann", "Bob")), Deal(), Starter(c("2D")), Play(1, c("TH")), Play(0, c("KS")),
    ...             Play(1, c("9C"))])
    >>> after, goes = infer_goes(s, 0, Card.parse("5H"))  # 29: Ann cannot lay the 5, nor can Bob go on
    >>> [g.seat for g in goes], after.count
    ([0, 1], 0)
    """
    goes: list[Go] = []
    while state.phase == Phase.PLAY and state.count > LIMIT - 10 and state.turn is not None and len(goes) < most:
        if card is not None and state.turn == seat and state.count + card.value <= LIMIT:
            break
        go = Go(state.turn, inferred=True)
        try:
            state = apply(state, go)
        except IllegalMove:
            break
        goes.append(go)
    return state, goes


def _reinfer_goes(before: Sequence[Event], hand: list[Event]) -> list[Event]:
    """The events of a hand after a card in it was corrected, with the goes nobody said worked out again: a go
    inferred from the old card may no longer hold (the count is lower), or another may be needed (higher)."""
    state = GameState()
    for e in before:
        state = apply(state, e)
    out: list[Event] = []
    for e in hand:
        if isinstance(e, Go) and e.inferred:
            continue
        if isinstance(e, Play):
            state, goes = infer_goes(state, e.seat, e.card)
            out += goes
        try:
            state = apply(state, e)
        except IllegalMove:
            return out + hand[hand.index(e):]  # leave the rest as it was: the replay will say what is wrong
        out.append(e)
    if isinstance(hand[-1], Go) and hand[-1].inferred:  # the rows were turned down: the series is over
        state, goes = infer_goes(state)
        out += goes
    return out


def replay(log: Iterable[Event]) -> GameState:
    """The state after a whole log (undo, redo and replacements included). The same log always gives the same
    state; raises :class:`IllegalMove` if the log does not make a legal game."""
    state = GameState()
    for e in effective_events(list(log)):
        state = apply(state, e)
    return state


def _undo_redo_possible(log: list[Event], kind: type) -> bool:
    kept, undone = _undo_stack(log)
    return len(kept) > 1 if kind is Undo else bool(undone)


class Game:
    """A game in progress: the event log and the state it folds to.

    :meth:`apply` refuses an illegal event with :class:`IllegalMove` and leaves the game unchanged.
    """

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.log: list[Event] = []
        self.state = GameState()
        for e in events:
            self.apply(e)

    def preview(self, event: Event) -> GameState:
        """The state ``event`` would lead to, without applying it; raises :class:`IllegalMove` if refused."""
        if isinstance(event, (Undo, Redo)):
            if not _undo_redo_possible(self.log, type(event)):
                raise IllegalMove("nothing to undo" if isinstance(event, Undo) else "nothing to redo")
            return replay(self.log + [event])
        if isinstance(event, ReplaceCard):
            if event.old not in self.state.seen and event.old not in self.state.cut:
                raise IllegalMove(f"{event.old} has not been seen this hand: nothing to replace")
            if event.new in self.state.seen:
                raise IllegalMove(f"{event.new} has already been seen this hand")
            return replay(self.log + [event])
        return apply(self.state, event)

    def commit(self, event: Event, state: GameState) -> None:
        """Record ``event`` with the state :meth:`preview` gave for it."""
        self.log.append(event)
        self.state = state

    def apply(self, event: Event) -> GameState:
        """Apply ``event`` and return the new state; raises :class:`IllegalMove` and changes nothing if refused."""
        state = self.preview(event)
        self.commit(event, state)
        return state

    def try_apply(self, event: Event) -> str | None:
        """Apply ``event``; return None, or the reason it was refused (the game is unchanged)."""
        try:
            self.apply(event)
        except CompanionError as exc:
            return str(exc)
        return None
