"""The referee follows the table, not a memory of cards (issue 15): a card that comes back after its zone was
cleared is a new card; a correction re-derives the goes it implied; questions never outlive what they asked."""

from __future__ import annotations

from companion.cards import Card
from companion.referee import Referee
from companion.rules.events import Cut, Deal, Go, NewGame, Play, Starter
from companion.rules.game import Game
from companion.rules.variants import Options
from companion.table import Change, Phase, QuestionKind
from companion.vision.tracker import TableChange
from test_referee import lay, referee  # the referee over a fresh game, cards laid by "zone CARD"


def seen(ref: Referee, kind: str, zone: str, *cards: str, at: float = 0.0, from_zone: str | None = None):
    """The tracker reports a change of the table."""
    return ref.on_change(TableChange(kind, zone, tuple(cards), at, from_zone=from_zone))


def play_hand_one(ref: Referee) -> None:
    """The issue's hand: starter 5D, the play TH KS 9C 5H 6H 4C 9D 7S, the crib 2S 3D QC 8H."""
    lay(ref, "starter 5D", "seat2 TH", "seat1 KS", "seat2 9C", "seat1 5H", "seat2 6H", "seat1 4C", "seat2 9D",
        "seat1 7S")
    lay(ref, "crib 2S", "crib 3D", "crib QC", "crib 8H")
    assert ref.state.phase == Phase.DEAL


def test_a_starter_played_in_the_last_hand_starts_the_next_hand():
    ref = referee()
    play_hand_one(ref)
    decisions = lay(ref, "starter TH")  # TH was Bob's first card last hand: a new deck, a new card
    assert [d.reason for d in decisions] == ["new hand: Bob deals; the starter is TH"]
    assert ref.state.starter.code == "TH" and ref.state.phase == Phase.DISCARD or ref.state.phase == Phase.PLAY


def test_a_cut_card_turned_as_the_starter_is_the_starter():
    ref = Referee(Game([NewGame("six-card", ("Ann", "Bob"), Options(), None)]))
    seen(ref, Change.LAID, "starter", "3C", at=1.0)
    seen(ref, Change.LAID, "starter", "9H", at=2.0)
    assert ref.state.phase == Phase.DEAL and ref.state.dealer == 0  # Ann cut the 3
    seen(ref, Change.CLEARED, "starter", "3C", "9H", at=4.0)
    decisions = seen(ref, Change.LAID, "starter", "3C", at=6.0)
    assert [d.reason for d in decisions] == ["new hand: Ann deals; the starter is 3C"]


def test_a_card_reported_again_where_it_still_lies_is_not_played_twice():
    ref = referee()
    seen(ref, Change.LAID, "starter", "5D", at=1.0)
    assert len(seen(ref, Change.LAID, "seat2", "TH", at=2.0)) == 1
    assert seen(ref, Change.LAID, "seat2", "TH", at=2.5) == []  # the same report again
    assert [str(c) for c in ref.state.played[1]] == ["TH"]


def test_a_card_picked_up_and_laid_back_in_the_play_is_the_same_card():
    ref = referee()
    seen(ref, Change.LAID, "starter", "5D", at=1.0)
    seen(ref, Change.LAID, "seat2", "TH", at=2.0)
    seen(ref, Change.REMOVED, "seat2", "TH", at=3.0)  # a hand lifted it
    assert seen(ref, Change.LAID, "seat2", "TH", at=4.0) == []
    assert ref.state.count == 10


def test_a_card_slid_from_one_row_into_another_is_not_a_new_play():
    ref = referee()
    seen(ref, Change.LAID, "starter", "5D", at=1.0)
    seen(ref, Change.LAID, "seat2", "TH", at=2.0)
    assert seen(ref, Change.MOVED, "crib", "TH", at=3.0, from_zone="seat2") == []
    assert ref.state.count == 10


def test_a_resumed_game_takes_the_table_as_it_lies_then_follows_it():
    game = Game([NewGame("six-card", ("Ann", "Bob"), Options(), 0), Deal(), Starter(Card.parse("5D")),
                 Play(1, Card.parse("TH")), Play(0, Card.parse("KS"))])
    ref = Referee(game)  # after a restart the tracker reports the whole table at once
    for zone, card in (("starter", "5D"), ("seat2", "TH"), ("seat1", "KS")):
        assert seen(ref, Change.LAID, zone, card, at=0.2) == []
    assert ref.state.count == 20
    [decision] = seen(ref, Change.LAID, "seat2", "9C", at=5.0)
    assert decision.reason == "Bob played 9C: Twenty-nine"


def test_three_players_cut_each_in_their_own_row():
    ref = Referee(Game([NewGame("three-hand", ("Ann", "Bob", "Cat"), Options(), None)]))
    seen(ref, Change.LAID, "seat2", "7H", at=1.0)
    seen(ref, Change.LAID, "seat3", "2C", at=1.2)
    [decision] = seen(ref, Change.LAID, "seat1", "9S", at=1.4)
    assert decision.events == (Cut((Card.parse("9S"), Card.parse("7H"), Card.parse("2C"))),)
    assert ref.state.dealer == 2  # Cat cut the lowest


def test_four_players_tie_then_cut_again_in_their_rows():
    ref = Referee(Game([NewGame("four-individual", ("Ann", "Bob", "Cat", "Dan"), Options(), None)]))
    for i, card in enumerate(("2H", "2C", "9D", "KS")):
        seen(ref, Change.LAID, f"seat{i + 1}", card, at=1.0 + i)
    assert ref.state.phase == Phase.CUT
    assert [q.kind for q in ref.questions] == [QuestionKind.CONFLICT]
    for i, card in enumerate(("2H", "2C", "9D", "KS")):
        seen(ref, Change.REMOVED, f"seat{i + 1}", card, at=6.0)
    for i, card in enumerate(("8H", "4C", "2D", "KH")):  # the 2D was cut by Cat this time
        seen(ref, Change.LAID, f"seat{i + 1}", card, at=7.0 + i)
    assert ref.state.phase == Phase.DEAL and ref.state.dealer == 2
    assert ref.questions == [], "the tie's question went with the tie"


def test_a_correction_that_needs_a_go_gets_it_inferred():
    """The count was read lower than it was: Ann's card only fits after a go by both (Bob takes the point)."""
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 5C", "seat1 6H")  # 5C read: 31 for two to Ann
    assert [s.front for s in ref.state.sides] == [2, 0]
    decisions = ref.replace_card("5C", "9C")  # it was a nine: 29, so Ann and Bob said go and Ann led the 6H
    assert decisions and decisions[0].reason == "5C corrected to 9C"
    assert ref.questions == []
    assert [s.front for s in ref.state.sides] == [0, 1] and ref.state.count == 6
    assert [type(e).__name__ for e in ref.game.log[-1:]] == ["ReplaceCard"]


def test_a_correction_that_drops_an_inferred_go_is_re_derived():
    """A go was inferred from the card as read; with the card corrected the go is no longer needed."""
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 9C")  # 29: Ann's turn
    lay(ref, "seat1 5H")  # over 31: both said go, Bob took the point, Ann leads again
    assert [s.front for s in ref.state.sides] == [0, 1]
    ref.replace_card("9C", "AC")  # 21: no go; Ann's 5H makes 26 in the same series
    assert ref.questions == []
    assert ref.state.count == 26 and [s.front for s in ref.state.sides] == [0, 0]
    assert not any(isinstance(e, Go) for e in _effective(ref))


def test_a_correction_that_cannot_stand_says_why_and_changes_nothing():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 5C")  # 25: Ann's turn
    lay(ref, "seat2 4C")  # Bob again: go inferred for Ann
    before = ref.state
    assert ref.replace_card("5C", "AC") == []  # at 21 Ann must have played: Bob cannot have laid the 4C then
    assert ref.state == before
    [question] = ref.questions
    assert question.kind == QuestionKind.ILLEGAL and question.text.startswith("5C was not corrected to AC: ")


def test_the_five_card_play_stops_at_the_first_go_seen_on_the_table():
    ref = referee("five-card")
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 9C")  # 29, Ann's turn; she cannot play the 5H
    decisions = lay(ref, "seat1 5H")  # she lays it for the show: the play is over
    assert decisions[0].reason.startswith("go inferred for Ann") and decisions[0].reason.endswith("play is over")
    assert ref.state.phase == Phase.SHOW


def test_a_question_clears_when_the_next_hand_starts_and_when_the_game_ends():
    ref = referee()
    lay(ref, "starter 5D")
    lay(ref, "elsewhere 2S")  # outside every row: whose is it?
    assert [q.kind for q in ref.questions] == [QuestionKind.WHOSE_CARD]
    lay(ref, "seat2 2S")  # Bob lays it in his row after all: answered by the table
    assert ref.questions == []
    lay(ref, "seat1 KS", "seat2 9C", "seat1 5H")
    ref.card_laid("seat1", "QQ")  # could not be read
    assert [q.kind for q in ref.questions] == [QuestionKind.UNSURE]
    lay(ref, "seat2 6H", "seat1 4C", "seat2 9D", "seat1 7S", "crib 2C", "crib 3D", "crib QC", "crib 8H")
    assert ref.state.phase == Phase.DEAL and ref.questions == [], "no question outlives its hand"


def test_a_starter_turned_before_the_play_is_over_is_kept_for_the_next_hand():
    """After an undo the table and the game disagree by a card: the next hand must not be swallowed."""
    ref = referee()
    for at, (zone, card) in enumerate((("starter", "5D"), ("seat2", "TH"), ("seat1", "KS"))):
        seen(ref, Change.LAID, zone, card, at=float(at))
    ref.undo()  # KS taken back while it still lies there
    assert ref.state.count == 10
    assert any("KS was taken back" in q.text for q in ref.questions)
    seen(ref, Change.LAID, "seat1", "KS", at=3.5)  # reported again: it lies there, it is not played again
    assert ref.state.count == 10
    # the next hand began on the table with KS still there: KS stands, the new starter waits for the next hand
    assert [d.reason for d in seen(ref, Change.LAID, "starter", "8C", at=9.0)] == ["Ann played KS: Twenty"]
    assert ref.state.starter.code == "5D" and ref.state.phase == Phase.PLAY
    assert seen(ref, Change.LAID, "seat2", "4H", at=10.0) == []  # held for the next hand, not played in this one
    assert [q.text[:18] for q in ref.questions if q.kind == QuestionKind.UNFINISHED] == ["A new starter (8C)"]
    seen(ref, Change.LAID, "starter", "QS", at=20.0)  # and the hand after it: one question, about the newest
    assert [q.text[:18] for q in ref.questions if q.kind == QuestionKind.UNFINISHED] == ["A new starter (QS)"]


def _effective(ref):
    from companion.rules.game import effective_events

    return effective_events(ref.game.log)





def test_the_log_names_players_and_places_not_zones():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 5C")  # 25
    [decision] = ref.row_face_down("seat1")[:1]
    assert decision.reason.startswith("Ann's row was turned down: go")
    assert ref.zone_words("starter") == "the starter spot" and ref.zone_words("seat2") == "Bob's row"


def test_a_crib_card_not_read_is_asked_for_once_the_next_hand_is_played():
    """The reader missed a crib card: the next hand's starter and first play are held, and the screen says what the
    show waits for instead of sitting silent."""
    ref = referee()
    play_hand_one_without_the_crib = ("starter 5D", "seat2 TH", "seat1 KS", "seat2 9C", "seat1 5H", "seat2 6H",
                                      "seat1 4C", "seat2 9D", "seat1 7S")
    lay(ref, *play_hand_one_without_the_crib)
    lay(ref, "crib 2S", "crib 3D", "crib QC")  # the 8H was never read
    seen(ref, Change.LAID, "starter", "TH", at=50.0)
    assert ref.questions == [], "a starter seen before the crib's last card is usual: nothing to ask yet"
    seen(ref, Change.LAID, "seat1", "4D", at=51.0)  # Bob deals: Ann leads the next hand
    [question] = ref.questions
    assert question.kind == QuestionKind.UNFINISHED
    assert "Ann's crib has 3 of its 4 cards" in question.text
    decisions = ref.enter_card("8H")  # entered on the screen: the crib counts, the held hand goes on
    assert [d.reason for d in decisions][-2:] == ["new hand: Bob deals; the starter is TH", "Ann played 4D: Four"]
    assert ref.questions == []


def test_a_cut_card_picked_up_before_the_other_was_read_is_not_a_cut():
    """The reader missed one of two cut cards: the next card in the starter spot (the starter) must not complete
    the cut, and a card in a row is not a two-player cut either; the screen says what happened."""
    ref = Referee(Game([NewGame("six-card", ("Ann", "Bob"), Options(), None)]))
    seen(ref, Change.LAID, "starter", "6D", at=1.0)  # the QC beside it was never read
    seen(ref, Change.REMOVED, "starter", "6D", at=4.0)
    assert [q.text[:36] for q in ref.questions] == ["Only 1 card of the cut was read (6D)"]
    assert seen(ref, Change.LAID, "starter", "8H", at=5.7) == [] and ref.state.phase == Phase.CUT
    assert seen(ref, Change.LAID, "seat1", "9S", at=6.4) == [] and ref.state.phase == Phase.CUT
    assert any("9S in Ann's row before the cut" in q.text for q in ref.questions)


# --- undo of a card that still lies on the table -----------------------------------------------------------------
def taken_back_questions(ref: Referee) -> list[str]:
    return [q.text for q in ref.questions if q.kind == QuestionKind.TAKEN_BACK]


def test_an_undone_play_left_on_the_table_stands_when_play_goes_on():
    ref = referee()
    seen(ref, Change.LAID, "starter", "5D", at=1.0)
    seen(ref, Change.LAID, "seat2", "TH", at=2.0)
    ref.undo()  # pressed by accident: TH still lies in Bob's row
    assert ref.state.count == 0
    assert taken_back_questions(ref) == ["TH was taken back but still lies in Bob's row: pick it up to take it "
                                         "back, or Redo; if play goes on with it there, it stands"]
    decisions = seen(ref, Change.LAID, "seat1", "KS", at=4.0)  # Ann plays on: the table is right
    assert [d.reason for d in decisions] == ["Bob played TH: Ten", "Ann played KS: Twenty"]
    assert ref.questions == []


def test_an_undone_play_picked_up_is_taken_back_for_good():
    ref = referee()
    seen(ref, Change.LAID, "starter", "5D", at=1.0)
    seen(ref, Change.LAID, "seat2", "TH", at=2.0)
    ref.undo()
    seen(ref, Change.REMOVED, "seat2", "TH", at=3.0)
    assert ref.questions == []
    [decision] = seen(ref, Change.LAID, "seat2", "9C", at=4.0)  # Bob plays another card instead
    assert decision.reason == "Bob played 9C: Nine" and ref.state.count == 9


def test_an_undone_starter_left_in_its_spot_stands_when_play_goes_on():
    ref = referee()
    seen(ref, Change.LAID, "starter", "5D", at=1.0)
    ref.undo()
    assert ref.state.phase == Phase.DEAL
    decisions = seen(ref, Change.LAID, "seat2", "TH", at=3.0)
    assert [d.reason for d in decisions] == ["new hand: Ann deals; the starter is 5D", "Bob played TH: Ten"]


def test_an_undone_count_in_the_show_is_made_again_before_the_crib_is_filed():
    ref = referee()
    lay(ref, "starter 5D", "seat2 TH", "seat1 KS", "seat2 9C", "seat1 5H", "seat2 6H", "seat1 4C", "seat2 9D",
        "seat1 7S")
    assert [s.seat for s in ref.state.shows] == [1, 0]  # both hands counted from the play
    ref.undo()  # Ann's count taken back
    assert [s.seat for s in ref.state.shows] == [1]
    lay(ref, "seat1 2S", "seat1 3D", "seat1 QC", "crib 8H")  # Ann turns the crib up in her row
    state = ref.state
    assert state.phase == Phase.DEAL and [s.seat for s in state.shows] == [1, 0, None]
    assert sorted(map(str, state.shows[-1].cards)) == ["2S", "3D", "8H", "QC"]


def test_an_undone_cut_stands_when_play_goes_on_and_a_new_cut_replaces_it():
    ref = Referee(Game([NewGame("six-card", ("Ann", "Bob"), Options(), None)]))
    seen(ref, Change.LAID, "starter", "3C", at=1.0)
    seen(ref, Change.LAID, "starter", "9H", at=2.0)
    ref.undo()
    assert ref.state.phase == Phase.CUT and len(taken_back_questions(ref)) == 1
    seen(ref, Change.CLEARED, "starter", "3C", "9H", at=3.0)
    seen(ref, Change.LAID, "starter", "5D", at=5.0)  # the starter: one card, not yet a cut
    decisions = seen(ref, Change.LAID, "seat2", "TH", at=6.0)  # play goes on: the cut stood
    assert [d.reason for d in decisions] == ["cut for the deal: 3C 9H", "new hand: Ann deals; the starter is 5D",
                                             "Bob played TH: Ten"]
    assert ref.questions == []

    again = Referee(Game([NewGame("six-card", ("Ann", "Bob"), Options(), None)]))
    seen(again, Change.LAID, "starter", "3C", at=1.0)
    seen(again, Change.LAID, "starter", "9H", at=2.0)
    again.undo()
    seen(again, Change.CLEARED, "starter", "3C", "9H", at=3.0)
    seen(again, Change.LAID, "starter", "KD", at=4.0)  # they cut again
    seen(again, Change.LAID, "starter", "2S", at=5.0)
    assert again.state.dealer == 1 and again.questions == []


def test_an_undone_thirty_one_left_on_the_table_stands_when_the_rows_are_turned_down():
    ref = referee()
    lay(ref, "starter 5D", "seat2 TH", "seat1 KS", "seat2 5H")
    seen(ref, Change.LAID, "seat1", "6H", at=5.0)  # 31 for two
    ref.undo()
    seen(ref, Change.FACE_DOWN, "seat1", "KS", "6H", at=7.0)  # the series was over on the table
    assert ref.state.scores[-1].spoken == "Thirty-one for two" and ref.state.count == 0
    assert ref.questions == []


def test_another_card_laid_in_place_of_an_undone_one_is_played_instead():
    ref = referee()
    seen(ref, Change.LAID, "starter", "5D", at=1.0)
    seen(ref, Change.LAID, "seat2", "TH", at=2.0)
    ref.undo()  # Bob meant to play 9C: he swaps the cards, and the new one is read before TH is reported gone
    assert seen(ref, Change.LAID, "seat2", "9C", at=3.0) == []  # instead of TH, or after it? the table will say
    [decision] = seen(ref, Change.REMOVED, "seat2", "TH", at=2.5)
    assert decision.reason == "Bob played 9C: Nine"
    [decision] = seen(ref, Change.LAID, "seat1", "KS", at=5.0)
    assert decision.reason == "Ann played KS: Nineteen" and ref.questions == []


def test_a_card_laid_after_an_undone_one_in_the_same_row_follows_it_when_play_goes_on():
    ref = referee()
    lay(ref, "starter 5D", "seat2 TH", "seat1 9S")
    seen(ref, Change.LAID, "seat2", "8H", at=3.0)  # 27 for three
    ref.undo()
    assert seen(ref, Change.LAID, "seat2", "3H", at=4.0) == []  # Ann said go; Bob plays on in his row
    decisions = seen(ref, Change.FACE_DOWN, "seat1", "9S", at=6.0)  # the rows are turned down: 8H stood
    assert [d.reason for d in decisions][:2] == ["Bob played 8H: Twenty-seven for three",
                                                 "go inferred for Ann; Bob played 3H: Thirty"]
    assert ref.state.count == 0 and ref.questions == []


def test_an_undone_card_gathered_with_its_row_after_play_went_on_stood():
    ref = referee()
    lay(ref, "starter 5D", "seat2 TH", "seat1 KS")
    seen(ref, Change.LAID, "seat2", "8C", at=3.0)  # Bob: 28
    ref.undo()
    assert seen(ref, Change.LAID, "seat2", "2C", at=5.0) == []  # Bob plays on in his row (Ann said go)
    decisions = seen(ref, Change.REMOVED, "seat2", "8C", at=9.0)  # the row is gathered card by card
    assert [d.reason for d in decisions][:2] == ["Bob played 8C: Twenty-eight",
                                                 "go inferred for Ann; Bob played 2C: Thirty"]
