"""The referee: table changes (from the tracker) and commands (buttons, keys, touch) become game events.

It follows the table (../shared/DESIGN.md): cards cut in the starter spot choose the dealer; a card turned in the
starter spot after a deal is the starter; a card laid in seat N's row is that player's play; the show counts the
hands it saw in the play (reading any card it never saw) and the crib when it is turned up. "Go" comes from the
OK/Go button or is inferred; anything it is unsure of becomes a :class:`Question` for the screen, never a guess.
Every decision, inferred events and all, is undone with one press.

It does no I/O: it drives a game object with ``state``, ``preview(event)`` and ``apply(event)`` (a
:class:`~companion.rules.game.Game` or a stored game), and returns what it decided.

>>> from companion.rules.game import Game
>>> from companion.rules.events import NewGame
>>> ref = Referee(Game([NewGame("six-card", ("Ann", "Bob"))]))
>>> [d.reason for d in ref.card_laid("starter", "5D")]
['new hand: Ann deals; the starter is 5D']
>>> [d.reason for d in ref.card_laid("seat2", "TH")]
['Bob played TH: Ten']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import Card
from .errors import CompanionError, IllegalMove
from .rules.events import (Correction, Crib, Cut, Deal, Go, Muggins, Play, Redo, ReplaceCard, Show, Starter,
                           Undo)
from .rules.game import Game, GameState
from .rules.play import score_play

BACK, UNKNOWN = "back", "unknown"


@dataclass(frozen=True)
class Decision:
    """What the referee did and why: the events applied (one press of Undo takes them all back)."""

    events: tuple
    reason: str


@dataclass(frozen=True)
class Question:
    """Something the referee will not guess: shown on the screen until a player answers or dismisses it.

    ``kind``: ``whose-card`` (a card outside every row), ``conflict`` (from the tracker), ``illegal`` (a play the
    rules refuse), ``claim`` (muggins: how many do you claim?), ``muggins`` (missed points to take).
    """

    kind: str
    text: str
    choices: tuple[str, ...] = ()
    card: str | None = None
    seat: int | None = None
    points: int | None = None


def seat_of_zone(zone: str) -> int | None:
    """``"seat1"`` -> 0: the mat numbers seats from 1, the game from 0."""
    if zone.startswith("seat") and zone[4:].isdigit():
        return int(zone[4:]) - 1
    return None


def _fork(game) -> Game:
    """A throw-away copy of the game to try a sequence of events on (states are immutable: this is cheap)."""
    g = Game()
    g.log = list(game.game.log if hasattr(game, "game") else game.log)
    g.state = game.state
    return g


@dataclass
class Referee:
    """Turns table changes and commands into game events for ``game``."""

    game: object
    questions: list[Question] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    cut_cards: list[Card] = field(default_factory=list)
    show_cards: dict[int, list[Card]] = field(default_factory=dict)
    crib_cards: list[Card] = field(default_factory=list)
    claims: dict[int | None, int] = field(default_factory=dict)
    early_starter: Card | None = None  # a starter seen before the last hand was over (the crib still to count)
    early_starter_at: float = float("inf")  # when it first appeared on the table
    early_plays: list[tuple[float, int, Card]] = field(default_factory=list)  # (when, seat, card) before the starter
    paused: bool = False  # after an undo the show waits for the next sighting or OK before counting again
    _hand: int = -1
    _at: float = 0.0  # when the card being handled first appeared (reports without a time count as in order)

    def __post_init__(self) -> None:
        self._hand = self.game.state.hand  # a resumed game is already in its hand

    @property
    def state(self) -> GameState:
        return self.game.state

    # --- applying ------------------------------------------------------------------------------------------------
    def _commit(self, events: Sequence, reason: str, *, record: bool = True) -> list[Decision]:
        """Try ``events`` on a copy first; apply them all or none, then follow up (the show counts itself)."""
        trial = _fork(self.game)
        for e in events:
            trial.apply(e)  # raises IllegalMove before anything real changed
        for e in events:
            self.game.apply(e)
        decision = Decision(tuple(events), reason)
        if record:
            self.decisions.append(decision)
        return [decision] + self._after()

    def _after(self) -> list[Decision]:
        """Follow-ups that need no new sighting: reset per-hand memory, count the show as far as it is known."""
        s = self.state
        if s.hand != self._hand:
            self._hand = s.hand
            self.show_cards, self.crib_cards, self.claims = {}, [], {}
        if s.phase == "show":
            return self._count_show()
        # the table moves faster than the tracker is sure of it: cards seen before the game expected them
        if s.phase == "deal" and self.early_starter is not None:
            card, self.early_starter, self.early_starter_at = self.early_starter, None, float("inf")
            return self._try([Deal(), Starter(card)], f"new hand: {s.players[s.dealer]} deals; the starter is {card}")
        if s.phase == "play" and self.early_plays:
            out: list[Decision] = []
            early, self.early_plays = sorted(self.early_plays, key=lambda e: e[0]), []
            for _, seat, card in early:
                if card not in self.state.seen:
                    out += self.play(seat, card)
            return out
        return []

    def _ask(self, question: Question) -> list[Decision]:
        if question not in self.questions:
            self.questions.append(question)
        return []

    # --- the table -------------------------------------------------------------------------------------------------
    def card_laid(self, zone: str, code: str, at: float | None = None) -> list[Decision]:
        """A card newly stable in ``zone`` (``seat1``.., ``starter``, ``crib``, ``deck``, ``elsewhere``); ``at``
        is when it first appeared on the table (the tracker is sure of cards in different places at different
        times, so the order of the reports is not always the order of the table)."""
        self._at = at if at is not None else self._at + 1e-6
        if code in (BACK, UNKNOWN):
            return []
        self.paused = False
        try:
            card = Card.parse(code)
        except CompanionError:
            return self._ask(Question("unsure", f"could not read a card in {zone}: {code!r}", card=code))
        s = self.state
        seat = seat_of_zone(zone)
        if s.phase == "over" or self._already_known(zone, seat, card):
            return []
        if zone == "starter":
            return self._starter_zone(card)
        if seat is not None and 0 <= seat < len(s.players):
            return self._seat_row(seat, card)
        if zone == "crib" and s.phase == "show":
            if card not in self.crib_cards:
                self.crib_cards.append(card)
            return self._count_show()
        if zone in ("deck", "crib"):
            return []
        names = tuple(s.players)
        return self._ask(Question("whose-card", f"Whose card is {card}?", names, card=str(card)))

    def _already_known(self, zone: str, seat: int | None, card: Card) -> bool:
        """A card the game already has where it lies now: seen again after a hand passed over it, or after a
        restart (the tracker starts with an empty picture and reports the whole table). Nothing to do."""
        s = self.state
        if zone == "starter" and (card == s.starter or (s.hand == 0 and card in s.cut)):
            return True
        if seat is not None and 0 <= seat < len(s.played) and card in s.played[seat]:
            return True
        if s.phase == "deal" and card in s.seen:  # the last hand's cards before they are gathered
            return True
        return False

    def _starter_zone(self, card: Card) -> list[Decision]:
        s = self.state
        if s.phase == "cut":
            if card not in self.cut_cards:
                self.cut_cards.append(card)
            if len(self.cut_cards) < len(s.players):
                return []
            cards, self.cut_cards = tuple(self.cut_cards), []
            out = self._commit([Cut(cards)], f"cut for the deal: {' '.join(map(str, cards))}")
            if self.state.phase == "cut":
                self._ask(Question("conflict", "A tie for lowest: cut again"))
            return out
        if s.phase == "deal":
            dealer = s.players[s.dealer]
            return self._try([Deal(), Starter(card)], f"new hand: {dealer} deals; the starter is {card}")
        if s.phase == "discard":
            return self._try([Starter(card)], f"the starter is {card}")
        if s.phase == "show":  # the next hand's starter, seen before this hand's crib was counted
            self.early_starter, self.early_starter_at = card, self._at
        return []

    def _seat_row(self, seat: int, card: Card) -> list[Decision]:
        s = self.state
        if s.phase == "play":
            return self.play(seat, card)
        if s.phase == "show":
            if card in s.played[seat]:
                return self._count_show()
            if self._at > self.early_starter_at:  # laid after the next starter: a play of the next hand
                return self._early_play(seat, card)
            if s.next_show is None and seat == s.dealer:  # the dealer spreads the crib in his own row
                if card not in self.crib_cards:
                    self.crib_cards.append(card)
                return self._count_show()
            self.show_cards.setdefault(seat, [])
            if card not in self.show_cards[seat]:
                self.show_cards[seat].append(card)
            return self._count_show()
        if s.phase in ("deal", "discard"):  # kept until the starter is read: the tracker may report it later
            return self._early_play(seat, card)
        return []

    def _early_play(self, seat: int, card: Card) -> list[Decision]:
        if all((seat, card) != (e[1], e[2]) for e in self.early_plays):
            self.early_plays.append((self._at, seat, card))
        if len(self.early_plays) >= 3 and self.early_starter is None:
            return self._ask(Question("unsure", "Cards are being played but no starter was read: enter the "
                                                "starter (Menu, Enter a card)", ("dismiss",)))
        return []

    def play(self, seat: int, card: Card | str) -> list[Decision]:
        """``seat`` lays ``card``: goes are inferred when the player whose turn it was cannot have played."""
        card = card if isinstance(card, Card) else Card.parse(card)
        trial = _fork(self.game)
        goes: list = []
        while trial.state.phase == "play" and not (
                trial.state.turn == seat and trial.state.count + card.value <= 31):
            if trial.state.count <= 21 or len(goes) > 8:
                break
            go = Go(trial.state.turn)
            trial.apply(go)
            goes.append(go)
        name = self.state.players[seat]
        series = [c for _, c in trial.state.series]
        try:
            trial.apply(Play(seat, card))
        except IllegalMove as exc:
            return self._ask(Question("illegal", f"{card} in {name}'s row: {exc}", ("fix the card", "dismiss"),
                                      card=str(card), seat=seat))
        why = f"{name} played {card}: {score_play(series + [card]).spoken}"
        if goes:
            who = ", ".join(f"{self.state.players[g.seat]}" for g in goes)
            why = f"go inferred for {who}; " + why
        return self._commit(goes + [Play(seat, card)], why)

    def row_face_down(self, zone: str) -> list[Decision]:
        """A seat's row turned face down in the play: the series is over, so everyone who had not played said go."""
        s = self.state
        if s.phase != "play" or s.count == 0:
            return []
        trial = _fork(self.game)
        goes = []
        while trial.state.phase == "play" and trial.state.count > 21 and trial.state.count != 0 and len(goes) < 8:
            go = Go(trial.state.turn)
            trial.apply(go)
            goes.append(go)
        if not goes:
            return []
        return self._try(goes, f"the cards in {zone} were turned down: go")

    def _try(self, events: Sequence, reason: str) -> list[Decision]:
        try:
            return self._commit(events, reason)
        except IllegalMove as exc:
            return self._ask(Question("illegal", str(exc), ("dismiss",)))

    # --- cards entered by hand (no camera, or by choice) ----------------------------------------------------------
    def expected_zone(self) -> str | None:
        """Where the next card entered by hand belongs: the starter spot, the row of the player to play or to
        show, or the crib."""
        s = self.state
        if s.phase in ("cut", "deal", "discard"):
            return "starter"
        if s.phase == "play" and s.turn is not None:
            return f"seat{s.turn + 1}"
        if s.phase == "show":
            nxt = s.next_show
            if nxt is None:
                return "crib"
            if isinstance(nxt, int):
                return f"seat{nxt + 1}"
        return None

    def entry_title(self) -> str:
        """What the next card entered by hand is, in words for the screen."""
        s = self.state
        zone = self.expected_zone()
        if zone is None:
            return "No card is expected now"
        if s.phase == "cut":
            return f"Cut for the deal: {s.players[len(self.cut_cards) % len(s.players)]}'s card"
        if zone == "starter":
            return "The starter"
        if zone == "crib":
            return f"{s.players[s.dealer]}'s crib: card {len(self.crib_cards) + 1}"
        seat = seat_of_zone(zone)
        if s.phase == "play":
            return f"{s.players[seat]} plays (count {s.count})"
        known = len(s.played[seat]) + len(self.show_cards.get(seat, []))
        return f"{s.players[seat]}'s hand: card {known + 1}"

    def enter_card(self, card: Card | str) -> list[Decision]:
        """A card entered with the buttons, keys or touch, placed where the game expects the next card."""
        zone = self.expected_zone()
        if zone is None:
            return self._ask(Question("illegal", "No card is expected now", ("dismiss",)))
        return self.card_laid(zone, str(card))

    # --- the show --------------------------------------------------------------------------------------------------
    def _count_show(self) -> list[Decision]:
        out: list[Decision] = []
        while self.state.phase == "show" and not self.paused:
            s = self.state
            if s.hand != self._hand:
                break
            nxt = s.next_show
            if nxt == "done":
                break
            if nxt is None:
                known = [c for d in s.discards for c in d]
                cards = known + [c for c in self.crib_cards if c not in known]
                if len(cards) < s.variant.crib_size:
                    break
                event = Crib(tuple(cards[:s.variant.crib_size]), self.claims.get(None))
                who = f"{s.players[s.dealer]}'s crib"
            else:
                cards = list(s.played[nxt]) + [c for c in self.show_cards.get(nxt, []) if c not in s.played[nxt]]
                if len(cards) < s.variant.hand_size:
                    break
                event = Show(nxt, tuple(cards[:s.variant.hand_size]), self.claims.get(nxt))
                who = f"{s.players[nxt]}'s hand"
            if s.options.muggins and event.claimed is None:
                seat = s.dealer if nxt is None else nxt
                self._ask(Question("claim", f"How many does {s.players[seat]} claim for {who}?", seat=seat))
                break
            trial = _fork(self.game)
            try:
                trial.apply(event)
            except IllegalMove as exc:
                self._ask(Question("illegal", f"{who}: {exc}", ("fix the card", "dismiss")))
                break
            entry = trial.state.shows[-1]
            self.game.apply(event)
            decision = Decision((event,), f"{who}: {entry.score.total}. {entry.score.spoken}")
            self.decisions.append(decision)
            out.append(decision)
            pending = self.state.pending_muggins
            if pending:
                missed_by, points = pending
                takers = [i for i, _ in enumerate(self.state.players)
                          if self.state.side_of(i) != self.state.side_of(missed_by)]
                self._ask(Question("muggins", f"Muggins! {self.state.players[missed_by]} missed {points}: "
                                              f"{self.state.players[takers[0]]} takes them?",
                                   ("take", "let go"), seat=takers[0], points=points))
        if out and self.state.phase == "deal":  # the crib is counted: a starter already seen starts the next hand
            out += self._after()
        return out

    # --- commands ------------------------------------------------------------------------------------------------
    def go(self) -> list[Decision]:
        """The OK/Go button during the play: the player whose turn it is says go."""
        s = self.state
        if s.phase == "show" and self.paused:  # OK after an undo in the show: count on
            self.paused = False
            return self._count_show()
        if s.phase != "play":
            return []
        return self._try([Go(s.turn)], f"{s.players[s.turn]} says go")

    def undo(self) -> list[Decision]:
        """Take back the last decision, however many events it applied."""
        n = len(self.decisions[-1].events) if self.decisions else 1
        was_paused, self.paused = self.paused, True
        try:
            out = self._commit([Undo()] * n, "undo", record=False)
        except IllegalMove as exc:
            self.paused = was_paused
            return self._ask(Question("illegal", str(exc), ("dismiss",)))
        if self.decisions:
            self.decisions.pop()
        return out

    def redo(self) -> list[Decision]:
        return self._try([Redo()], "redo")

    def replace_card(self, old: Card | str, new: Card | str) -> list[Decision]:
        """A misread card corrected by a player: every score that depended on it is recomputed."""
        old = old if isinstance(old, Card) else Card.parse(old)
        new = new if isinstance(new, Card) else Card.parse(new)
        self.questions = [q for q in self.questions if q.card != str(old)]
        return self._try([ReplaceCard(old, new)], f"{old} corrected to {new}")

    def claim(self, seat: int | None, points: int) -> list[Decision]:
        """Muggins: the count a player claims for their hand (seat None: the crib)."""
        key = None if seat is None or (self.state.next_show is None and seat == self.state.dealer) else seat
        self.claims[key] = points
        self.questions = [q for q in self.questions if q.kind != "claim"]
        return self._count_show()

    def correction(self, side: int, points: int, reason: str) -> list[Decision]:
        return self._try([Correction(side, points, reason)], f"correction: {points:+d} for "
                                                              f"{self.state.sides[side].name} ({reason})")

    def answer(self, question: Question, choice: str | int) -> list[Decision]:
        """A player's answer to a question on the screen."""
        if question in self.questions:
            self.questions.remove(question)
        if question.kind == "whose-card" and isinstance(choice, int):
            return self._seat_row(choice, Card.parse(question.card))
        if question.kind == "muggins" and choice == "take":
            return self._try([Muggins(question.seat, question.points)],
                             f"muggins: {self.state.players[question.seat]} takes {question.points}")
        if question.kind == "claim" and isinstance(choice, int):
            return self.claim(question.seat, choice)
        return []

    def dismiss_all(self) -> None:
        self.questions.clear()
