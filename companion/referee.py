"""The referee: table changes (from the tracker) and commands (buttons, keys, touch) become game events.

It follows the table (../shared/DESIGN.md): cards cut in the starter spot choose the dealer; a card turned in the
starter spot after a deal is the starter; a card laid in seat N's row is that player's play; the show counts the
hands it saw in the play (reading any card it never saw) and the crib when it is turned up. "Go" comes from the
OK/Go button or is inferred; a card laid before the card whose turn it was has been read waits for it (the tracker
may be sure of a card late: a hand or glare over it); anything it is unsure of becomes a :class:`Question` for the
screen, never a guess.
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
from dataclasses import dataclass, field, replace
from typing import Protocol

from .cards import Card
from .errors import CompanionError, IllegalMove
from .rules.events import (Correction, Crib, Cut, Deal, Go, Muggins, Play, Redo, ReplaceCard, Show, Starter,
                           Undo)
from .rules.game import Game, GameState, apply, infer_goes, replay
from .rules.play import LIMIT, score_play
from .table import BACK, UNKNOWN, Change, Phase, QuestionKind, Zone, seat_zone, zone_seat

#: how long after the first table change a resumed referee takes the cards the game already holds to be the ones
#: lying on the table (the tracker starts with an empty picture and reports the whole table at once)
RESUME_SETTLE_S = 3.0
#: a card laid more than this long before a taken-back card beside it was lifted followed it: it was not a swap
SWAP_S = 0.5


class GameLike(Protocol):
    """What the referee drives: a :class:`~companion.rules.game.Game` or a stored game."""

    @property
    def state(self) -> GameState: ...

    def apply(self, event: object) -> GameState: ...


class ChangeLike(Protocol):
    """A table change as the tracker reports it (:class:`~companion.vision.tracker.TableChange`)."""

    kind: str
    zone: str
    cards: tuple[str, ...]
    time: float
    from_zone: str | None


@dataclass(frozen=True)
class Decision:
    """What the referee did and why: the events applied (one press of Undo takes them all back). ``note``: what the
    screen shows beside the scores until the next decision (plays mended after a card read late)."""

    events: tuple
    reason: str
    note: str = ""


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
    hand: int = -1  #: the hand it was asked in (set by the referee): a question never outlives its hand
    phase: str = ""  #: the phase it was asked in



def _fork(game) -> Game:
    """A throw-away copy of the game to try a sequence of events on (states are immutable: this is cheap)."""
    g = Game()
    g.log = list(game.game.log if hasattr(game, "game") else game.log)
    g.state = game.state
    return g


#: A card that shows an inferred go was wrong is played where it was laid only when at most this many plays came
#: after that go: a card read late is read after the next player's, while a card that comes after several more
#: plays may follow a go the player said wrongly (the three-player go sequence of ``tests/test_e2e.py``).
LATE_PLAYS = 1


def _rewound(game, undone: int) -> Game:
    """A throw-away copy of ``game`` with its last ``undone`` events taken back (one replay, not one a step)."""
    g = _fork(game)
    g.log += [Undo()] * undone
    g.state = replay(g.log)
    return g


def _lying_after(s: GameState) -> set[tuple[str, Card]]:
    """(zone, card): the cards a game in state ``s`` may have left lying on the table, where it left them. A camera
    that starts afresh (after a restart) reports them all at once; they are not new."""
    rows = [seat_zone(i) for i in range(len(s.players))]
    if s.phase in (Phase.NEW, Phase.CUT):
        return set()
    if s.phase == Phase.DEAL and s.hand == 0:  # the cut, in the starter spot or each in its row
        return {(z, c) for c in s.cut for z in [Zone.STARTER, *rows]}
    out: set[tuple[str, Card]] = {(Zone.STARTER, s.starter)} if s.starter is not None else set()
    if s.phase in (Phase.DISCARD, Phase.PLAY):
        return out | {(rows[i], c) for i, cards in enumerate(s.played) for c in cards}
    # the show, or the last hand's cards before they are gathered: hands and crib laid out in the rows and the crib
    return out | {(z, c) for c in s.seen for z in [Zone.STARTER, Zone.CRIB, *rows]}


@dataclass
class Referee:
    """Turns table changes and commands into game events for ``game``."""

    game: GameLike
    questions: list[Question] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    cut_cards: list[Card] = field(default_factory=list)  # cut in the starter spot, in the order laid
    cut_rows: dict[int, Card] = field(default_factory=dict)  # seat -> the card it cut in its own row
    show_cards: dict[int, list[Card]] = field(default_factory=dict)
    crib_cards: list[Card] = field(default_factory=list)
    claims: dict[int | None, int] = field(default_factory=dict)
    early_starter: Card | None = None  # a starter seen before the last hand was over (the crib still to count)
    early_starter_at: float = float("inf")  # when it first appeared on the table
    early_plays: list[tuple[float, int, Card]] = field(default_factory=list)  # (when, seat, card) before the starter
    #: (when, seat, card) laid in the play before the card whose turn it was is read (a card read late, or laid
    #: before the player whose turn it was): each is played when its seat's turn comes, in the order laid
    waiting: list[tuple[float, int, Card]] = field(default_factory=list)
    paused: bool = False  # after an undo the show waits for the next sighting or OK before counting again
    #: (zone, card) of plays and starters taken back by an undo while the card still lies there: picked up, they are
    #: gone; left there while the table moves on, the table is right and they stand again
    taken_back: list[tuple[str, Card]] = field(default_factory=list)
    cut_taken_back: tuple[Card, ...] | None = None  # a cut taken back by an undo: it stands if play goes on
    #: (zone, card, when) laid beside a card taken back, until the table says whether it replaced it or followed it
    held: list[tuple[str, Card, float]] = field(default_factory=list)
    #: zone -> the cards the tracker says lie there now (face up or turned down), in the order laid: the referee
    #: follows the table, so a card that comes back after its zone was cleared is a new card, not a memory
    table: dict[str, list[Card]] = field(default_factory=dict)
    _hand: int = -1
    _at: float = 0.0  # when the card being handled first appeared (reports without a time count as in order)
    _assumed: set[tuple[str, Card]] = field(default_factory=set)  # (zone, card) a resumed game left on the table
    _assumed_until: float | None = None

    def __post_init__(self) -> None:
        s = self.game.state
        self._hand = s.hand  # a resumed game is already in its hand
        self._assumed = _lying_after(s)  # resumed: the camera will report the table as the game left it

    @property
    def state(self) -> GameState:
        return self.game.state

    def zone_words(self, zone: str) -> str:
        """A zone as players say it: "Ann's row", "the starter spot", "the crib", "the deck"."""
        seat = zone_seat(zone)
        if seat is not None and seat < len(self.state.players):
            return f"{self.state.players[seat]}'s row"
        places: dict[str, str] = {Zone.STARTER: "the starter spot", Zone.CRIB: "the crib", Zone.DECK: "the deck"}
        return places.get(zone, zone)

    def catch_up(self) -> list[Decision]:
        """What a resumed game can decide without a new sighting: a restart in the show (a power cut between two
        hands' counts) counts on the hands it already knows from the play, as the uninterrupted game did."""
        if self.state.phase == Phase.SHOW:
            return self._count_show()
        return []

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
            self.waiting = []
        self.prune_questions()
        if s.phase == Phase.SHOW:
            return self._count_show()
        # the table moves faster than the tracker is sure of it: cards seen before the game expected them
        if s.phase == Phase.DEAL and self.early_starter is not None:
            card, self.early_starter, self.early_starter_at = self.early_starter, None, float("inf")
            return self._try([Deal(), Starter(card)], f"new hand: {s.seat_name(s.dealer)} deals; the starter is {card}")
        if s.phase == Phase.PLAY and self.early_plays:
            out: list[Decision] = []
            early, self.early_plays = sorted(self.early_plays, key=lambda e: e[0]), []
            for _, seat, card in early:
                if card not in self.state.seen:
                    out += self.play(seat, card)
            return out
        if s.phase == Phase.PLAY and self.waiting:
            return self._play_waiting()
        return []

    def _play_waiting(self) -> list[Decision]:
        """The cards that were laid before their turn and whose turn it now is, played in the order they were laid."""
        out: list[Decision] = []
        now = self._at
        while self.state.phase == Phase.PLAY:
            s = self.state
            ready = [w for w in sorted(self.waiting, key=lambda w: w[0]) if infer_goes(s, w[1], w[2])[0].turn == w[1]]
            if not ready:
                break
            self.waiting.remove(ready[0])
            self._at = ready[0][0]
            out += self.play(ready[0][1], ready[0][2])
        self._at = now
        return out

    def _ask(self, question: Question) -> list[Decision]:
        question = replace(question, hand=self.state.hand, phase=str(self.state.phase))
        self.prune_questions()
        if question not in self.questions:
            self.questions.append(question)
        return []

    def _still_open(self, q: Question) -> bool:
        """Whether a question is still true of the game: none outlives its hand or the game; a tie in the cut lasts
        while the cut does, a claim until that count is made, a muggins offer while the missed points stand, a
        play the rules refused while the game is in the phase it was asked in, "whose card" until it is placed."""
        s = self.state
        if s.phase == Phase.OVER or q.hand != s.hand:
            return False
        if q.kind == QuestionKind.CLAIM:
            return s.phase == Phase.SHOW and not self.claims_made(q.seat)
        if q.kind == QuestionKind.MUGGINS:
            return s.pending_muggins is not None
        if q.kind == QuestionKind.TAKEN_BACK:
            if q.card is None:
                return self.cut_taken_back is not None and s.phase == Phase.CUT
            return any(str(card) == q.card for _, card in self.taken_back)
        if q.kind == QuestionKind.OUT_OF_TURN:
            return any(str(card) == q.card and seat == q.seat for _, seat, card in self.waiting)
        if q.kind == QuestionKind.UNFINISHED:  # only the newest starter seen is kept for the next hand
            return str(s.phase) == q.phase and self.early_starter is not None and str(self.early_starter) == q.card
        if q.kind in (QuestionKind.WHOSE_CARD, QuestionKind.UNSURE) and q.card is not None:
            try:
                if Card.parse(q.card) in s.seen:  # the card found its place
                    return False
            except CompanionError:
                pass
        return str(s.phase) == q.phase

    def claims_made(self, seat: int | None) -> bool:
        """Whether the count a muggins claim was asked for has been made."""
        return self._claim_key(seat) in self.claims

    def _claim_key(self, seat: int | None) -> int | None:
        """Whose count a claim by ``seat`` is: its hand, or the crib (``None``) when the dealer claims for it."""
        return None if seat is None or (self.state.counting_crib and seat == self.state.dealer) else seat

    def prune_questions(self) -> None:
        """Drop every question that was answered or is no longer true (the screen never shows a stale one)."""
        self.questions = [q for q in self.questions if self._still_open(q)]

    # --- the table -------------------------------------------------------------------------------------------------
    def on_change(self, change: ChangeLike) -> list[Decision]:
        """A change of the table from the tracker: what it means for the game (cards laid, a row turned down),
        and the referee's picture of what lies where (cards picked up leave it, so a card laid again later, in a
        new hand or a recut, is a new card)."""
        if self._assumed and self._assumed_until is None:
            self._assumed_until = change.time + RESUME_SETTLE_S
        kind = change.kind
        out: list[Decision] = []
        if kind in (Change.REMOVED, Change.CLEARED):
            if self._stood_until_gathered(change):
                out += self._table_moved_on()
            for code in change.cards:
                self._take_off(change.zone, code)
            return out + self._cut_picked_up(change.zone) + self._release_held()
        if kind == Change.FACE_DOWN:  # the series ended on the table: a card taken back but left there was in it
            return (self._table_moved_on() if self.taken_back else []) + self.row_face_down(change.zone)
        if kind == Change.MOVED:
            source = change.from_zone
            for code in change.cards:
                if source is not None:
                    self._take_off(source, code)
            if source not in (Zone.ELSEWHERE, None):
                for code in change.cards:  # slid from one zone into another: the same card, nothing new
                    self._put_on(change.zone, code)
                return []
        for code in change.cards:
            card = self._put_on(change.zone, code) if code not in (BACK, UNKNOWN) else None
            if card is not None and self.table[change.zone].count(card) > 1:
                continue
            out += self.card_laid(change.zone, code, change.time)
        return out

    def _put_on(self, zone: str, code: str) -> Card | None:
        """Note ``code`` as lying in ``zone``; a card already noted there is noted twice (the report repeats)."""
        try:
            card = Card.parse(code)
        except CompanionError:
            return None
        self.table.setdefault(zone, []).append(card)
        return card

    def _cut_picked_up(self, zone: str) -> list[Decision]:
        """A cut card picked up before the cut was complete: the cut is the cards lying in the starter spot together,
        so a missed card must not turn the next card laid there (the starter) into a cut card."""
        if zone != Zone.STARTER or self.state.phase != Phase.CUT:
            return []
        gone = [c for c in self.cut_cards if c not in self.table.get(zone, ())]
        if not gone:
            return []
        self.cut_cards = [c for c in self.cut_cards if c not in gone]
        return self._ask(Question(QuestionKind.UNSURE, f"Only {len(gone)} card of the cut was read "
                                  f"({' '.join(map(str, gone))}): cut again, with the cards side by side in the "
                                  "starter spot, or enter the cut (Menu, Enter a card)", ("dismiss",)))

    def _take_off(self, zone: str, code: str) -> None:
        try:
            card = Card.parse(code)
        except CompanionError:
            return
        while card in self.table.get(zone, ()):
            self.table[zone].remove(card)
        self._assumed.discard((zone, card))
        still = [w for w in self.waiting if not (w[2] == card and seat_zone(w[1]) == zone)]
        if len(still) < len(self.waiting):  # picked up before its turn came
            self.waiting = still
            self.prune_questions()
        if (zone, card) in self.taken_back:  # picked up after the undo: taken back for good
            self.taken_back.remove((zone, card))
            self.prune_questions()

    def _stood_until_gathered(self, change: ChangeLike) -> bool:
        """Whether a taken-back card leaving the table was gathered with its row after play went on, rather than
        picked up to take it back: the whole row went at once, or a card held beside it had been laid well before
        it went (a card swapped for it is laid after it is lifted)."""
        gone = set(change.cards)
        if not any(z == change.zone and str(c) in gone for z, c in self.taken_back):
            return False
        return change.kind == Change.CLEARED or any(
            z == change.zone and at < change.time - SWAP_S for z, _, at in self.held)

    def _table_moved_on(self) -> list[Decision]:
        """A card is laid while a card taken back by an undo still lies where it was: the players played on, so the
        table stands and the taken-back card is played (or turned as the starter) again, then the cards held beside
        it, before the new one."""
        out: list[Decision] = []
        back, self.taken_back = self.taken_back, []
        for zone, card in back:
            if card in self.table.get(zone, ()):
                out += self._laid(zone, card)
        self.prune_questions()
        return out + self._release_held()

    def _release_held(self) -> list[Decision]:
        """The cards held beside a taken-back card whose place is now clear (it was picked up, or it stood again):
        they are laid now, in the order they came."""
        ready = [h for h in self.held if all(z != h[0] for z, _ in self.taken_back)]
        if not ready:
            return []
        self.held = [h for h in self.held if h not in ready]
        out: list[Decision] = []
        for zone, card, at in ready:
            if card in self.table.get(zone, ()):
                self._at = at
                out += self._laid(zone, card)
        return out

    def card_laid(self, zone: str, code: str, at: float | None = None) -> list[Decision]:
        """A card newly stable in ``zone`` (``seat1``.., ``starter``, ``crib``, ``deck``, ``elsewhere``); ``at``
        is when it first appeared on the table (the tracker is sure of cards in different places at different
        times, so the order of the reports is not always the order of the table)."""
        self._at = at if at is not None else self._at + 1e-6
        if code in (BACK, UNKNOWN):
            return []
        try:
            card = Card.parse(code)
        except CompanionError:
            return self._ask(Question(QuestionKind.UNSURE, f"could not read a card in {self.zone_words(zone)}: "
                                                           f"{code!r}", card=code))
        out: list[Decision] = []
        if self.paused:  # the count an undo paused comes first: the new card belongs to what follows it
            self.paused = False
            out += self._count_show()
        if self.taken_back and (zone, card) not in self.taken_back:
            if any(z == zone for z, _ in self.taken_back):
                # beside a card taken back: laid instead of it (it is reported gone a little later) or after it
                # (play went on): held until the table tells which
                self.held.append((zone, card, self._at))
                return out
            out += self._table_moved_on()  # a card anywhere else: the players played on around it
        return out + self._laid(zone, card)

    def _laid(self, zone: str, card: Card) -> list[Decision]:
        s = self.state
        seat = zone_seat(zone)
        if s.phase == Phase.OVER or self._already_known(zone, seat, card):
            return []
        if zone == Zone.STARTER:
            return self._starter_zone(card)
        if seat is not None and 0 <= seat < len(s.players):
            return self._seat_row(seat, card)
        if zone == Zone.CRIB and s.phase == Phase.SHOW:
            if card not in self.crib_cards:
                self.crib_cards.append(card)
            return self._count_show()
        if zone in (Zone.DECK, Zone.CRIB):
            return []
        names = tuple(s.players)
        return self._ask(Question(QuestionKind.WHOSE_CARD, f"Whose card is {card}?", names, card=str(card)))

    def _already_known(self, zone: str, seat: int | None, card: Card) -> bool:
        """A card the game already has, seen again where the game put it: the starter after the deal, a card this
        seat played in this hand's play (lifted and laid back), or, just after a restart, a card the resumed game
        left where it is reported (:func:`_lying_after`). The table decides everything else: a card laid again after
        its zone was cleared is a new card."""
        s = self.state
        if self._assumed:
            if self._assumed_until is not None and self._at > self._assumed_until:
                self._assumed.clear()
            elif (zone, card) in self._assumed:
                self._assumed.discard((zone, card))
                return True
        if zone == Zone.STARTER and card == s.starter and s.phase in (Phase.DISCARD, Phase.PLAY, Phase.SHOW):
            return True
        if s.phase == Phase.PLAY and seat is not None and 0 <= seat < len(s.played) and card in s.played[seat]:
            return True
        return False

    def _starter_zone(self, card: Card) -> list[Decision]:
        s = self.state
        if s.phase == Phase.CUT and self.cut_taken_back is not None and len(s.players) > 2:
            return self._cut_stands(Zone.STARTER, card)  # they cut in their rows: a starter means play goes on
        if s.phase == Phase.CUT:
            if card not in self.cut_cards:
                self.cut_cards.append(card)
            if len(self.cut_cards) < len(s.players):
                return []
            cards, self.cut_cards = tuple(self.cut_cards), []
            return self._cut(cards)
        if s.phase == Phase.DEAL:
            dealer = s.seat_name(s.dealer)
            return self._try([Deal(), Starter(card)], f"new hand: {dealer} deals; the starter is {card}")
        if s.phase == Phase.DISCARD:
            return self._try([Starter(card)], f"the starter is {card}")
        if s.phase in (Phase.PLAY, Phase.SHOW) and card != s.starter:
            # the next hand's starter, seen before this hand is over: kept for it, never taken into this hand
            self.early_starter, self.early_starter_at = card, self._at
            if s.phase == Phase.PLAY:
                left = {s.players[i]: s.cards_left(i) for i in range(len(s.players)) if s.cards_left(i)}
                who = ", ".join(f"{name} {n}" for name, n in left.items())
                return self._ask(Question(QuestionKind.UNFINISHED, f"A new starter ({card}) was turned, but the "
                                          f"play of this hand is not over (cards to play: {who}): enter them or "
                                          "undo", ("dismiss",), card=str(card)))
        return []

    def _cut_stands(self, zone: str, card: Card) -> list[Decision]:
        """The game went on after an undo took the cut back and no new cut was made: the cut stands again, and the
        cards laid since are the hand's (the starter where the two cut, and ``card``)."""
        assert self.cut_taken_back is not None
        cut, self.cut_taken_back = self.cut_taken_back, None
        since, self.cut_cards, self.cut_rows = self.cut_cards, [], {}
        out = self._cut(cut)
        for c in since:
            out += self._laid(Zone.STARTER, c)
        return out + self._laid(zone, card)

    def _cut(self, cards: tuple[Card, ...]) -> list[Decision]:
        """Every player's cut card is read (in the starter spot or in the rows): the lowest deals, a tie cuts again."""
        self.cut_taken_back = None
        out = self._commit([Cut(cards)], f"cut for the deal: {' '.join(map(str, cards))}")
        if self.state.phase == Phase.CUT:
            self._ask(Question(QuestionKind.CONFLICT, "A tie for lowest: cut again"))
        return out

    def _seat_row(self, seat: int, card: Card) -> list[Decision]:
        s = self.state
        if s.phase == Phase.CUT:  # three or four players each cut in front of themselves
            if len(s.players) == 2 and self.cut_taken_back is not None:  # play went on after an undone cut
                return self._cut_stands(seat_zone(seat), card)
            if len(s.players) == 2:  # two cut in the starter spot: a card in a row now is not the cut
                return self._ask(Question(QuestionKind.UNSURE, f"{card} in {s.players[seat]}'s row before the cut: "
                                          "cut for the deal in the starter spot", ("dismiss",), card=str(card)))
            self.cut_rows[seat] = card
            if len(self.cut_rows) < len(s.players):
                return []
            cards, self.cut_rows = tuple(self.cut_rows[i] for i in range(len(s.players))), {}
            return self._cut(cards)
        if s.phase == Phase.PLAY:
            if self._at > self.early_starter_at:  # laid after the next starter: a play of the next hand
                return self._early_play(seat, card)
            return self.play(seat, card)
        if s.phase == Phase.SHOW:
            if card in s.played[seat]:
                return self._count_show()
            if self._at > self.early_starter_at:  # laid after the next starter: a play of the next hand
                return self._early_play(seat, card)
            if s.counting_crib and seat == s.dealer:  # the dealer spreads the crib in his own row
                if card not in self.crib_cards:
                    self.crib_cards.append(card)
                return self._count_show()
            self.show_cards.setdefault(seat, [])
            if card not in self.show_cards[seat]:
                self.show_cards[seat].append(card)
            return self._count_show()
        if s.phase in (Phase.DEAL, Phase.DISCARD):  # kept until the starter is read: the tracker may report it later
            return self._early_play(seat, card)
        return []

    def _early_play(self, seat: int, card: Card) -> list[Decision]:
        if all((seat, card) != (e[1], e[2]) for e in self.early_plays):
            self.early_plays.append((self._at, seat, card))
        if len(self.early_plays) >= 3 and self.early_starter is None:
            return self._ask(Question(QuestionKind.UNSURE, "Cards are being played but no starter was read: enter the "
                                                "starter (Menu, Enter a card)", ("dismiss",)))
        s = self.state
        if s.phase == Phase.SHOW and self.early_starter is not None:  # a new hand is under way: the show is stuck
            return self._ask(Question(QuestionKind.UNFINISHED, f"The next hand has begun, but {self._show_missing()}"
                                      ": enter the missing cards (Menu, Enter a card)", ("dismiss",),
                                      card=str(self.early_starter)))
        return []

    def cards_to_count(self) -> list[Card]:
        """The cards known so far for the show's next count: the crib's (its discards, then those turned up) or the
        next hand's (what it played, then what it laid out). The count is made once there are as many as it holds."""
        s = self.state
        nxt = s.next_show
        if nxt is None:
            known = [c for d in s.discards for c in d]
            return known + [c for c in self.crib_cards if c not in known]
        return list(s.played[nxt]) + [c for c in self.show_cards.get(nxt, []) if c not in s.played[nxt]]

    def _show_missing(self) -> str:
        """What the show still waits for, in words: "Bob's crib has 3 of its 4 cards"."""
        s = self.state
        v, nxt = s.variant, s.next_show
        if v is None:
            return "the show is not counted"
        known = len(self.cards_to_count())
        if nxt is None:
            return f"{s.seat_name(s.dealer)}'s crib has {known} of its {v.crib_size} cards"
        return f"{s.players[nxt]}'s hand has {known} of its {v.hand_size} cards"

    def play(self, seat: int, card: Card | str, *, mend: bool = True) -> list[Decision]:
        """``seat`` lays ``card``: goes are inferred when the player whose turn it was cannot have played. A card
        that shows such a go was wrong (``seat`` held it then, and it fitted) was read late, and is played where it
        was laid (:meth:`_read_late`); ``mend=False`` plays it where the game stands."""
        card = card if isinstance(card, Card) else Card.parse(card)
        if mend:
            mended = self._read_late(seat, card)
            if mended is not None:
                return mended
        after, goes = infer_goes(self.state, seat, card)
        name = self.state.players[seat]
        if goes and after.phase != Phase.PLAY:  # the go ended the play (the five-card game): a card to show
            who = ", ".join(f"{self.state.players[g.seat]}" for g in goes)
            out = self._commit(goes, f"go inferred for {who}: the play is over")
            return out + self._seat_row(seat, card)
        series = [c for _, c in after.series]
        if after.phase == Phase.PLAY and after.turn not in (None, seat) and card not in after.seen \
                and after.cards_left(seat) > 0:
            # laid before the card whose turn it was: that card may be read late (a hand over it, glare), so this
            # one waits for it rather than being refused, and is played when its seat's turn comes
            if all(c != card for _, _, c in self.waiting):
                self.waiting.append((self._at, seat, card))
            turn = self.state.players[after.turn]
            return self._ask(Question(QuestionKind.OUT_OF_TURN, f"{name}'s {card} waits for {turn}'s card (not read? "
                                      "Menu, Enter a card)", ("dismiss",), card=str(card), seat=seat))
        try:
            apply(after, Play(seat, card))
        except IllegalMove as exc:
            return self._ask(Question(QuestionKind.ILLEGAL, f"{card} in {name}'s row: {exc}",
                                      ("fix the card", "dismiss"),
                                      card=str(card), seat=seat))
        why = f"{name} played {card}: {score_play(series + [card]).spoken}"
        if goes:
            who = ", ".join(f"{self.state.players[g.seat]}" for g in goes)
            why = f"go inferred for {who}; " + why
        return self._commit(goes + [Play(seat, card)], why)

    def _read_late(self, seat: int, card: Card) -> list[Decision] | None:
        """``card`` of ``seat``, read after the play that followed a go inferred for ``seat`` at a count the card
        would have fitted. A player who can play must, and a player's cards do not change in the play, so that go
        was wrong: ``seat`` laid this card then, and it was read late (a hand over it, glare) after the next
        player's. The play since is taken back and played again after it, as the table laid it. None (nothing to
        mend) when no such go is among the latest decisions of this hand, when a decision since is anything but
        plays and inferred goes (a go said on the screen, a correction: the players' word stands), when more than
        :data:`LATE_PLAYS` plays came since (the players may have gone on after a go said wrongly at the table: the
        card is played where the game stands, as before), or when the plays since would not follow it cleanly."""
        s = self.state
        if s.phase != Phase.PLAY or card in s.seen or s.cards_left(seat) <= 0:
            return None
        undone = 0
        later: list[tuple[int, Card]] = []  # the plays since the go, in the order applied
        for first in range(len(self.decisions) - 1, -1, -1):
            events = self.decisions[first].events
            if not events or not all(isinstance(e, Play) or (isinstance(e, Go) and e.inferred) for e in events):
                return None
            undone += len(events)
            later[:0] = [(e.seat, e.card) for e in events if isinstance(e, Play)]
            if len(later) > LATE_PLAYS:
                return None  # more has been played since: it may be a go said wrongly at the table, played now
            go = next((k for k, e in enumerate(events) if isinstance(e, Go) and e.seat == seat), None)
            if go is not None:
                break
        else:
            return None
        trial = _rewound(self.game, undone)
        then = trial.state
        for e in events[:go]:
            then = apply(then, e)
        if then.hand != s.hand or then.phase != Phase.PLAY or then.count + card.value > LIMIT:
            return None  # the go could have been said: the card is played where the game stands
        for who, c in [(seat, card), *later]:  # each play must follow the late card as it is, or nothing is mended
            after, goes = infer_goes(trial.state, who, c)
            if after.phase != Phase.PLAY or after.turn != who:
                return None
            try:
                for go_said in goes:
                    trial.apply(go_said)
                trial.apply(Play(who, c))
            except IllegalMove:
                return None
        since = ", ".join(f"{s.players[who]}'s {c}" for who, c in later)
        waiting, self.waiting = self.waiting, []  # nothing is released while the plays are taken back
        why = f"{s.players[seat]}'s {card} was read late: played before {since}"
        out = self._commit([Undo()] * undone, why, record=False)
        out[0] = replace(out[0], note=why)
        self.waiting = waiting
        del self.decisions[first:]
        for who, c in [(seat, card), *later]:
            out += self.play(who, c, mend=False)
        return out

    def row_face_down(self, zone: str) -> list[Decision]:
        """A seat's row turned face down in the play: the series is over, so everyone who had not played said go."""
        s = self.state
        if s.phase != Phase.PLAY or s.count == 0:
            return []
        _, goes = infer_goes(s)
        if not goes:
            return []
        return self._try(goes, f"{self.zone_words(zone)} was turned down: go")

    def _try(self, events: Sequence, reason: str) -> list[Decision]:
        try:
            return self._commit(events, reason)
        except IllegalMove as exc:
            return self._ask(Question(QuestionKind.ILLEGAL, str(exc), ("dismiss",)))

    # --- cards entered by hand (no camera, or by choice) ----------------------------------------------------------
    def expected_zone(self) -> str | None:
        """Where the next card entered by hand belongs: the starter spot, the row of the player to play or to
        show, or the crib."""
        s = self.state
        if s.phase in (Phase.CUT, Phase.DEAL, Phase.DISCARD):
            return Zone.STARTER
        if s.phase == Phase.PLAY and s.turn is not None:
            return seat_zone(s.turn)
        if s.phase == Phase.SHOW:
            nxt = s.next_show
            return Zone.CRIB if nxt is None else seat_zone(nxt)
        return None

    def entry_title(self) -> str:
        """What the next card entered by hand is, in words for the screen."""
        s = self.state
        zone = self.expected_zone()
        if zone is None:
            return "No card is expected now"
        if s.phase == Phase.CUT:
            return f"Cut for the deal: {s.players[len(self.cut_cards) % len(s.players)]}'s card"
        if zone == Zone.STARTER:
            return "The starter"
        if zone == Zone.CRIB:
            return f"{s.seat_name(s.dealer)}'s crib: card {len(self.crib_cards) + 1}"
        seat = zone_seat(zone)
        if seat is None:
            return "No card is expected now"
        if s.phase == Phase.PLAY:
            return f"{s.players[seat]} plays (count {s.count})"
        known = len(s.played[seat]) + len(self.show_cards.get(seat, []))
        return f"{s.players[seat]}'s hand: card {known + 1}"

    def enter_card(self, card: Card | str) -> list[Decision]:
        """A card entered with the buttons, keys or touch, placed where the game expects the next card."""
        zone = self.expected_zone()
        if zone is None:
            return self._ask(Question(QuestionKind.ILLEGAL, "No card is expected now", ("dismiss",)))
        return self.card_laid(zone, str(card))

    # --- the show --------------------------------------------------------------------------------------------------
    def _count_show(self) -> list[Decision]:
        out: list[Decision] = []
        while self.state.phase == Phase.SHOW and not self.paused:
            s = self.state
            v = s.variant
            if s.hand != self._hand or v is None:
                break
            nxt = s.next_show
            cards = self.cards_to_count()
            event: Crib | Show
            if nxt is None:
                if len(cards) < v.crib_size:
                    break
                event = Crib(tuple(cards[:v.crib_size]), self.claims.get(None))
                who = f"{s.seat_name(s.dealer)}'s crib"
            else:
                if len(cards) < v.hand_size:
                    break
                event = Show(nxt, tuple(cards[:v.hand_size]), self.claims.get(nxt))
                who = f"{s.players[nxt]}'s hand"
            if s.options.muggins and event.claimed is None:
                seat = s.dealer if nxt is None else nxt
                self._ask(Question(QuestionKind.CLAIM, f"How many does {s.seat_name(seat)} claim for {who}?",
                                   seat=seat))
                break
            trial = _fork(self.game)
            try:
                trial.apply(event)
            except IllegalMove as exc:
                self._ask(Question(QuestionKind.ILLEGAL, f"{who}: {exc}", ("fix the card", "dismiss")))
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
                self._ask(Question(QuestionKind.MUGGINS, f"Muggins! {self.state.players[missed_by]} missed {points}: "
                                              f"{self.state.players[takers[0]]} takes them?",
                                   ("take", "let go"), seat=takers[0], points=points))
        if out and self.state.phase == Phase.DEAL:  # the crib is counted: a starter already seen starts the next hand
            out += self._after()
        self.prune_questions()
        return out

    # --- commands ------------------------------------------------------------------------------------------------
    def go(self) -> list[Decision]:
        """The OK/Go button during the play: the player whose turn it is says go."""
        s = self.state
        if s.phase == Phase.SHOW and self.paused:  # OK after an undo in the show: count on
            self.paused = False
            return self._count_show()
        if s.phase != Phase.PLAY:
            return []
        if s.turn is None:
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
            return self._ask(Question(QuestionKind.ILLEGAL, str(exc), ("dismiss",)))
        if self.decisions:
            undone = self.decisions.pop()
            for e in undone.events:  # a card taken back but still lying there waits for the table to say
                zone = seat_zone(e.seat) if isinstance(e, Play) else Zone.STARTER if isinstance(e, Starter) else None
                if zone is not None and e.card in self.table.get(zone, ()):
                    self.taken_back.append((zone, e.card))
                    self._ask(Question(QuestionKind.TAKEN_BACK, f"{e.card} was taken back but still lies in "
                                       f"{self.zone_words(zone)}: pick it up to take it back, or Redo; if play goes "
                                       "on with it there, it stands", ("dismiss",), card=str(e.card)))
                if isinstance(e, Cut):
                    self.cut_taken_back = e.cards
                    self._ask(Question(QuestionKind.TAKEN_BACK, "The cut for the deal was taken back: cut again, "
                                       "or Redo; if play goes on without a new cut, it stands", ("dismiss",)))
        return out

    def redo(self) -> list[Decision]:
        out = self._try([Redo()], "redo")
        if out:
            self.taken_back.clear()
            self.cut_taken_back = None
            self.prune_questions()
            out += self._release_held()
        return out

    def replace_card(self, old: Card | str, new: Card | str) -> list[Decision]:
        """A misread card corrected by a player: every score that depended on it is recomputed."""
        old = old if isinstance(old, Card) else Card.parse(old)
        new = new if isinstance(new, Card) else Card.parse(new)
        self.questions = [q for q in self.questions if q.card != str(old)]
        try:
            return self._commit([ReplaceCard(old, new)], f"{old} corrected to {new}")
        except IllegalMove as exc:  # the game stays as it was; the screen says why
            return self._ask(Question(QuestionKind.ILLEGAL, f"{old} was not corrected to {new}: {exc}",
                                      ("dismiss",), card=str(new)))

    def claim(self, seat: int | None, points: int) -> list[Decision]:
        """Muggins: the count a player claims for their hand (seat None: the crib)."""
        self.claims[self._claim_key(seat)] = points
        self.questions = [q for q in self.questions if q.kind != QuestionKind.CLAIM]
        return self._count_show()

    def correction(self, side: int, points: int, reason: str) -> list[Decision]:
        return self._try([Correction(side, points, reason)], f"correction: {points:+d} for "
                                                              f"{self.state.sides[side].name} ({reason})")

    def answer(self, question: Question, choice: str | int) -> list[Decision]:
        """A player's answer to a question on the screen."""
        if question in self.questions:
            self.questions.remove(question)
        self.prune_questions()
        if question.kind == QuestionKind.WHOSE_CARD and isinstance(choice, int) and question.card is not None:
            return self._seat_row(choice, Card.parse(question.card))
        if question.kind == QuestionKind.MUGGINS and choice == "take" and question.seat is not None \
                and question.points is not None:
            return self._try([Muggins(question.seat, question.points)],
                             f"muggins: {self.state.players[question.seat]} takes {question.points}")
        if question.kind == QuestionKind.CLAIM and isinstance(choice, int):
            return self.claim(question.seat, choice)
        return []

    def dismiss_all(self) -> None:
        self.questions.clear()
