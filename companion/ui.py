"""What the buttons, keys and touches do: a small controller over the screens, the referee and the menus.

It holds only what the screen is doing (which screen, what is selected, a correction under way); every game change
goes through the :class:`~companion.referee.Referee`. Commands are the screen's :class:`Action` words, whatever
they came from (a gpiozero button, the rotary encoder, a key, a touch).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from .cards import RANKS, SUITS, Card
from .display.input import Action, ScreenCommand
from .display.newgame import GameChoices, abandon_view, new_game_view
from .display.view import CorrectionView, MenuItem, MenuView, Message
from .referee import Question, Referee
from .rules.events import NewGame
from .table import Phase, QuestionKind, Screen

MENU: tuple[tuple[str, str], ...] = (
    ("Enter a card", "enter"), ("Say go", "go"), ("Correct a card", Screen.CORRECT), ("Add points", Screen.POINTS),
    ("History", Screen.HISTORY), ("Scores", Screen.SCOREBOARD), ("New game", Screen.NEW_GAME),
    ("Back to the game", "back"))


@dataclass
class Controller:
    """Turns commands into referee calls and screen changes. ``screen``: ``""`` (the game's own), ``menu``,
    ``history``, ``score`` (one score of the history opened), ``scoreboard``, ``correct``, ``question``,
    ``new-game`` (the players choose the next game's options) and ``abandon`` (confirm leaving a game)."""

    referee: Referee
    screen: Screen = Screen.GAME
    selected: int = 0
    correction: CorrectionView | None = None
    claim_value: int = 0
    points_side: int | None = None
    manual: bool = False  # no camera: OK opens the card entry
    wants_new_game: bool = False
    choices: GameChoices | None = None  # the new-game screen's choices while it is open
    typing: bool = False  # a name being typed on the new-game screen (a keyboard)
    chosen_game: NewGame | None = None  # what the players chose: the app starts it (with ``wants_new_game``)
    notes: list[str] = field(default_factory=list)

    @property
    def state(self):
        return self.referee.state

    # --- views ---------------------------------------------------------------------------------------------------
    def overlay(self, messages: tuple[Message, ...]) -> MenuView | CorrectionView | None:
        """The view to draw instead of the table view, if any."""
        if self.screen == Screen.MENU:
            return MenuView("Menu", tuple(MenuItem(label, key=key) for label, key in MENU), self.selected,
                            messages=messages)
        if self.screen == Screen.NEW_GAME and self.choices is not None:
            return new_game_view(self.choices, self.selected, messages, typing=self.typing)
        if self.screen == Screen.ABANDON and self.choices is not None:
            return abandon_view(self.choices, self.in_progress(), self.selected, messages)
        if self.screen == Screen.CORRECT and self.correction is not None:
            return replace(self.correction, messages=messages)
        if self.screen == Screen.POINTS:
            if self.points_side is None:
                items = tuple(MenuItem(side.name, str(side.front), str(i)) for i, side in enumerate(self.state.sides))
                return MenuView("Add points to which side?", items, self.selected, messages=messages)
            side = self.state.sides[self.points_side]
            return MenuView(f"Points for {side.name}", (MenuItem("Points", f"{self.claim_value:+d}", "points"),), 0,
                            hint="Next/Prev: change   OK: add   Menu: cancel", messages=messages)
        if self.screen == Screen.QUESTION and self.referee.questions:
            q = self.referee.questions[0]
            if q.kind == QuestionKind.CLAIM:
                items = (MenuItem("Claimed count", str(self.claim_value), "claim"),)
                return MenuView(q.text, items, 0, hint="Next/Prev: change   OK: confirm", messages=messages)
            choices = q.choices or ("dismiss",)
            return MenuView(q.text, tuple(MenuItem(str(c), key=str(i)) for i, c in enumerate(choices)),
                            self.selected, messages=messages)
        return None

    def table_screen(self) -> Screen:
        """The table screen to show (``history``, ``score``: one score opened, ``scoreboard``), or ``""``."""
        return self.screen if self.screen in (Screen.HISTORY, Screen.SCORE, Screen.SCOREBOARD) else Screen.GAME

    # --- commands ------------------------------------------------------------------------------------------------
    def handle(self, command: ScreenCommand) -> list:
        """Act on one command; returns the referee's decisions (for the log, the board and the speech)."""
        action = command.action
        if action is Action.UNDO and self.screen in (Screen.GAME, Screen.SCOREBOARD):
            return self.referee.undo()
        if action is Action.REDO and self.screen in (Screen.GAME, Screen.SCOREBOARD):
            return self.referee.redo()
        handlers: dict[Screen, Callable[[ScreenCommand], list]] = {
            Screen.GAME: self._on_game, Screen.MENU: self._on_menu, Screen.QUESTION: self._on_question,
            Screen.CORRECT: self._on_correct, Screen.POINTS: self._on_points, Screen.HISTORY: self._on_history,
            Screen.SCORE: self._on_score, Screen.SCOREBOARD: self._on_scoreboard, Screen.NEW_GAME: self._on_new_game,
            Screen.ABANDON: self._on_abandon}
        return handlers[self.screen](command)  # every screen has its handler: a missing one fails here, loudly

    def _on_game(self, command: ScreenCommand) -> list:
        action = command.action
        if action is Action.MENU:
            self._go(Screen.MENU)
        elif action is Action.OK and self.state.phase == Phase.OVER:  # the game-over screen: "OK: new game"
            self.open_new_game()
        elif action is Action.GO:
            return self.referee.go()
        elif action is Action.OK:
            if self.referee.questions:
                self._go(Screen.QUESTION)
                self.claim_value = 0
            elif self.manual and self.referee.expected_zone() is not None:
                self._start_entry()
            else:
                return self.referee.go()
        elif action is Action.SELECT and command.card is not None:
            self._start_correction(command.card)
        elif action in (Action.NEXT, Action.PREV) and self.referee.questions:
            self._go(Screen.QUESTION)
        return []

    def _on_scoreboard(self, command: ScreenCommand) -> list:
        if command.action in (Action.MENU, Action.OK):
            self._go(Screen.GAME)
            return []
        return self._on_game(command)

    def _on_menu(self, command: ScreenCommand) -> list:
        action = command.action
        if action is Action.MENU:
            self._go(Screen.GAME)
        elif action in (Action.NEXT, Action.PREV):
            self.selected = (self.selected + (1 if action is Action.NEXT else -1)) % len(MENU)
        elif action is Action.SELECT and command.index is not None:
            self.selected = command.index % len(MENU)
            return self._on_menu(ScreenCommand(Action.OK))
        elif action in (Action.OK, Action.GO):
            key = MENU[self.selected][1]
            if key == Screen.CORRECT:
                self._start_correction(None)
            elif key == "enter":
                self._start_entry()
            elif key == "go":
                self._go(Screen.GAME)
                return self.referee.go()
            elif key == Screen.POINTS:
                self.points_side, self.claim_value = None, 0
                self._go(Screen.POINTS)
            elif key == Screen.NEW_GAME:
                self.open_new_game()
            elif key == "back":
                self._go(Screen.GAME)
            else:
                self._go(Screen(key))  # history, scoreboard
        return []

    def _on_history(self, command: ScreenCommand) -> list:
        action = command.action
        scores = self.state.scores
        if action is Action.MENU or (action is Action.OK and not scores):
            self._go(Screen.GAME)
        elif action in (Action.NEXT, Action.PREV) and scores:
            self._step_score(action)
        elif action is Action.SELECT and command.index is not None and scores:  # a touch opens the score
            self.selected = max(0, min(len(scores) - 1, command.index))
            self.screen = Screen.SCORE
        elif action in (Action.OK, Action.GO) and scores:
            self.screen = Screen.SCORE  # the chosen score opened: its cards and breakdown (``selected`` is kept)
        elif action is Action.UNDO and scores:
            return self.undo_score(self.selected)
        return []

    def _on_score(self, command: ScreenCommand) -> list:
        """One score of the history opened: Next/Prev show the scores either side, OK or Menu go back."""
        action = command.action
        if not self.state.scores:
            self._go(Screen.GAME)
        elif action in (Action.MENU, Action.OK, Action.GO) or (action is Action.SELECT and command.target != "text"):
            self.screen = Screen.HISTORY
        elif action in (Action.NEXT, Action.PREV):
            self._step_score(action)
        elif action is Action.UNDO:
            out = self.undo_score(self.selected)
            self.screen = Screen.HISTORY
            return out
        return []

    def _step_score(self, action: Action) -> None:
        """Move the choice along the history (newest first), staying within it."""
        last = min(len(self.state.scores), 30) - 1  # the history screen lists the newest 30
        self.selected = max(0, min(last, self.selected + (1 if action is Action.NEXT else -1)))

    # --- a new game --------------------------------------------------------------------------------------------
    def in_progress(self) -> str:
        """The game being played in a few words ("Ann 34, Bob 28"), or "" if there is nothing to lose by leaving
        it (finished, or nothing happened yet)."""
        if self.state.winner is not None or len(self.referee.game.game.log) <= 1:
            return ""
        return ", ".join(f"{side.name} {side.front}" for side in self.state.sides)

    def open_new_game(self, choices: GameChoices | None = None) -> None:
        """Show the new-game screen, proposing ``choices`` (by default the set-up of the game being played)."""
        self.choices = choices or GameChoices.from_game(self.state)
        self._go(Screen.NEW_GAME)

    def _on_new_game(self, command: ScreenCommand) -> list:
        action = command.action
        items = new_game_view(self.choices).items
        key = items[self.selected % len(items)].key
        if key.startswith("name-") and self._typed(int(key[5:]), command):
            return []
        if action is Action.MENU:
            self._leave_new_game()
        elif action in (Action.NEXT, Action.PREV):
            self.selected = (self.selected + (1 if action is Action.NEXT else -1)) % len(items)
        elif action is Action.SELECT and command.index is not None:
            self.selected = command.index % len(items)
            return self._on_new_game(ScreenCommand(Action.OK))
        elif action in (Action.OK, Action.GO):
            key = items[self.selected].key
            if key == "cancel":
                self._leave_new_game()
            elif key == "start":
                if self.in_progress():
                    self._go(Screen.ABANDON)  # "keep playing" is chosen first
                else:
                    self._start_chosen()
            else:
                self.choices = self.choices.change(key)
        return []

    def _typed(self, seat: int, command: ScreenCommand) -> bool:
        """A keyboard on a name line: a letter starts typing a new name, then letters, digits and spaces add to it,
        Backspace takes one back, Enter (or an arrow, or Menu) ends it. Returns whether the key was used."""
        text = command.text
        if not self.typing:
            if text is None or not text.isalpha():
                return False
            self.typing = True
            self.choices = self.choices.with_name(seat, text.upper())
            return True
        name = self.choices.names[seat] if seat < len(self.choices.names) else ""
        if text == "\b":
            self.choices = self.choices.with_name(seat, name[:-1])
        elif text is not None and (text.isalnum() or text in " -'.") and command.action is not Action.OK or (
                text == " "):
            self.choices = self.choices.with_name(seat, (name + text)[:14])
        else:  # Enter, an arrow, Menu: the name is done (an arrow still moves, Menu stays on the screen)
            self.typing = False
            self.choices = self.choices.with_name(seat, name.strip() or f"Player {seat + 1}")
            return command.action in (Action.OK, Action.MENU)
        return True

    def _on_abandon(self, command: ScreenCommand) -> list:
        action = command.action
        if action is Action.MENU:
            self._leave_new_game()
        elif action in (Action.NEXT, Action.PREV):
            self.selected = 1 - self.selected
        elif action is Action.SELECT and command.index is not None:
            self.selected = command.index % 2
            return self._on_abandon(ScreenCommand(Action.OK))
        elif action in (Action.OK, Action.GO):
            if self.selected == 1:
                self._start_chosen()
            else:
                self._leave_new_game()
        return []

    def _start_chosen(self) -> None:
        self.chosen_game, self.wants_new_game = self.choices.new_game(), True
        self._leave_new_game()

    def _leave_new_game(self) -> None:
        self.choices, self.typing = None, False
        self._go(Screen.GAME)

    def undo_score(self, newest_first_index: int) -> list:
        """Take back the chosen score of the history (newest first) and everything after it."""
        scores = self.state.scores
        if not 0 <= newest_first_index < len(scores):
            return []
        keep = len(scores) - 1 - newest_first_index
        out: list = []
        for _ in range(64):
            if len(self.state.scores) <= keep:
                break
            step = self.referee.undo()
            if not step:
                break
            out += step
        self.selected = 0
        return out

    def _on_points(self, command: ScreenCommand) -> list:
        action = command.action
        if action is Action.MENU:
            self._go(Screen.GAME)
            return []
        step = 1 if action is Action.NEXT else -1
        if self.points_side is None:
            n = len(self.state.sides)
            if action in (Action.NEXT, Action.PREV):
                self.selected = (self.selected + step) % n
            elif action is Action.SELECT and command.index is not None:
                self.points_side = command.index % n
            elif action in (Action.OK, Action.GO):
                self.points_side = self.selected
            return []
        if action in (Action.NEXT, Action.PREV):
            self.claim_value = max(-60, min(60, self.claim_value + step))
            return []
        if action in (Action.OK, Action.GO):
            side, points = self.points_side, self.claim_value
            self._go(Screen.GAME)
            if points:
                return self.referee.correction(side, points, "entered by hand")
        return []

    def _on_question(self, command: ScreenCommand) -> list:
        if not self.referee.questions:
            self._go(Screen.GAME)
            return []
        q: Question = self.referee.questions[0]
        action = command.action
        if action is Action.MENU:
            self.referee.questions.remove(q)
            self._go(Screen.QUESTION if self.referee.questions else Screen.GAME)
            return []
        if q.kind == QuestionKind.CLAIM:
            if action in (Action.NEXT, Action.PREV):
                self.claim_value = max(0, min(29, self.claim_value + (1 if action is Action.NEXT else -1)))
                return []
            if action in (Action.OK, Action.GO):
                value, self.claim_value = self.claim_value, 0
                out = self.referee.answer(q, value)
                self._go(Screen.QUESTION if self.referee.questions else Screen.GAME)
                return out
            return []
        choices = q.choices or ("dismiss",)
        if action in (Action.NEXT, Action.PREV):
            self.selected = (self.selected + (1 if action is Action.NEXT else -1)) % len(choices)
            return []
        if action is Action.SELECT and command.index is not None:
            self.selected = command.index % len(choices)
        elif action not in (Action.OK, Action.GO):
            return []
        choice = choices[self.selected]
        if choice == "fix the card" and q.card:
            self.referee.questions.remove(q)
            self._start_correction(Card.parse(q.card))
            return []
        answer = self.selected if q.kind == QuestionKind.WHOSE_CARD else choice
        out = self.referee.answer(q, answer)
        if q in self.referee.questions:
            self.referee.questions.remove(q)
        self._go(Screen.QUESTION if self.referee.questions else Screen.GAME)
        return out

    # --- corrections -------------------------------------------------------------------------------------------
    def correctable_cards(self) -> tuple[Card, ...]:
        s = self.state
        cards = [c for _, c in s.series] or [c for seat in s.played for c in seat]
        if s.starter is not None:
            cards.append(s.starter)
        for show in s.shows[-1:]:
            cards += [c for c in show.cards if c not in cards]
        return tuple(dict.fromkeys(cards))

    def _start_correction(self, card: Card | None) -> None:
        cards = self.correctable_cards()
        if card is not None and card in cards:
            self.correction = CorrectionView("choose", cards, cards.index(card), card, card.rank, card.suit)
        elif cards:
            self.correction = CorrectionView("pick", cards, 0)
        else:
            self.notes.append("no card to correct yet")
            return
        self._go(Screen.CORRECT)

    def _start_entry(self) -> None:
        last = self.correction.choice if self.correction is not None and self.correction.mode == "enter" else None
        self.correction = CorrectionView("enter", rank=last.rank if last else 1, suit=last.suit if last else "C",
                                         field="rank", title=self.referee.entry_title())
        self._go(Screen.CORRECT)

    def _on_correct(self, command: ScreenCommand) -> list:
        view = self.correction
        action = command.action
        if view is None or action is Action.MENU:
            self.correction = None
            self._go(Screen.GAME)
            return []
        if view.mode == "enter" and action is Action.GO:  # "go" instead of a card during the play
            out = self.referee.go()
            self._start_entry() if self.referee.expected_zone() else self._go(Screen.GAME)
            return out
        if action is Action.SELECT and command.target in ("rank", "suit") and command.index is not None:
            if command.target == "rank":
                self.correction = replace(view, rank=command.index, field="suit")
            else:
                self.correction = replace(view, suit=SUITS[command.index % 4], field="suit")
            return []
        step = 1 if action is Action.NEXT else -1
        if view.mode == "pick":
            if action in (Action.NEXT, Action.PREV):
                self.correction = replace(view, selected=(view.selected + step) % len(view.cards))
            elif action is Action.SELECT and command.card is not None and command.card in view.cards:
                self._start_correction(command.card)
            elif action in (Action.OK, Action.GO):
                card = view.cards[view.selected]
                self.correction = replace(view, mode="choose", card=card, rank=card.rank, suit=card.suit,
                                          field="rank")
            return []
        if action in (Action.NEXT, Action.PREV):
            if view.field == "rank":
                self.correction = replace(view, rank=(view.rank - 1 + step) % 13 + 1)
            else:
                self.correction = replace(view, suit=SUITS[(SUITS.index(view.suit) + step) % 4])
            return []
        if action in (Action.OK, Action.GO):
            if view.field == "rank":
                self.correction = replace(view, field="suit")
                return []
            new = Card(view.rank, view.suit)
            if view.mode == "enter":  # the next card is entered on the same screen; Menu leaves
                out = self.referee.enter_card(new)
                if self.referee.questions or self.referee.expected_zone() is None:
                    self.correction = None
                    self._go(Screen.QUESTION if self.referee.questions else Screen.GAME)
                else:
                    self._start_entry()
                return out
            self.correction = None
            self._go(Screen.GAME)
            if new == view.card:
                return []
            return self.referee.replace_card(view.card, new)
        return []

    def _go(self, screen: Screen) -> None:
        self.screen = screen
        self.selected = 0


__all__ = ["Controller", "MENU", "RANKS"]
