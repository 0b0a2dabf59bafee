"""The referee: what the table does becomes the right game events, and what it is unsure of becomes a question."""

from __future__ import annotations

from companion.rules.events import NewGame
from companion.rules.game import Game, replay
from companion.rules.variants import Options
from companion.referee import Referee
from companion.table import Change
from companion.vision.sightings import TableChange


def referee(variant="six-card", players=("Ann", "Bob"), dealer=0, **options) -> Referee:
    return Referee(Game([NewGame(variant, players, Options(**options), dealer)]))


def lay(ref: Referee, *moves: str):
    """'seat2 TH' lays TH in seat 2's row (Bob, game seat 1)."""
    out = []
    for move in moves:
        zone, card = move.split()
        out += ref.card_laid(zone, card)
    return out


def play_the_29_hand(ref: Referee) -> None:
    """Ann deals, the starter is 5D; Bob (29 in hand) and Ann play out every card; the show is next."""
    lay(ref, "starter 5D", "seat2 JD", "seat1 4H", "seat2 5H", "seat1 4S", "seat2 5C")
    ref.go()  # Ann cannot play at 28
    ref.go()  # nor Bob: one for the go to Bob
    lay(ref, "seat1 6C", "seat2 5S", "seat1 6D")  # last card to Ann


def fronts(ref):
    return [s.front for s in ref.state.sides]


def test_a_jack_starter_pegs_heels_and_the_play_follows_the_rows():
    ref = referee()
    lay(ref, "starter JH")
    assert fronts(ref) == [2, 0] and ref.state.phase == "play"
    decisions = lay(ref, "seat2 TH", "seat1 5S")
    assert decisions[-1].reason == "Ann played 5S: Fifteen two"
    assert fronts(ref) == [4, 0]


def test_go_inferred_when_the_next_player_lays_a_card():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 5C")  # 25, Ann's turn
    decisions = lay(ref, "seat2 4C")  # Bob lays again: Ann must have said go
    assert decisions[0].reason.startswith("go inferred for Ann")
    assert [type(e).__name__ for e in decisions[0].events] == ["Go", "Play"]
    assert ref.state.count == 29


def test_go_inferred_from_a_card_the_count_could_only_take_after_a_restart():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 9C")  # 29, Ann's turn
    decisions = lay(ref, "seat1 5H")  # 34 would be over 31: both said go, Bob took the point, Ann leads again
    assert [type(e).__name__ for e in decisions[0].events] == ["Go", "Go", "Play"]
    assert fronts(ref) == [0, 1] and ref.state.count == 5


def test_a_row_turned_face_down_ends_the_series():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 9C")
    ref.row_face_down("seat1")
    assert ref.state.count == 0 and fronts(ref) == [0, 1]


def test_one_press_of_undo_takes_back_a_whole_inferred_decision():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 9C")
    state = ref.state
    lay(ref, "seat1 5H")  # go, go, play
    ref.undo()
    assert ref.state == state


def test_a_card_laid_out_of_turn_waits_for_the_turn_before_it():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH")
    state = ref.state
    assert lay(ref, "seat2 5C") == []  # Bob again at 10: Ann could have played anything, so nothing is guessed
    assert ref.state == state
    (q,) = ref.questions
    assert q.kind == "out-of-turn" and q.text.startswith("Bob's 5C waits for Ann's card") and q.card == "5C"
    lay(ref, "seat1 3S")  # Ann's card: now it is Bob's turn, and his card lies there
    assert [str(c) for _, c in ref.state.series] == ["TH", "3S", "5C"] and ref.state.count == 18
    assert ref.questions == []


def test_cards_laid_after_a_card_read_late_are_played_in_the_order_laid():
    """The three-hand game of seed 1, hand 5: Ann leads JH, but a hand over it (or glare) keeps it from being read
    until Bob's 2S and Cat's 4H lie in their rows. They wait, and the play is the table's, scores and all."""
    ref = referee("three-hand", ("Ann", "Bob", "Cat"), dealer=2)
    lay(ref, "starter KS")
    assert lay(ref, "seat2 2S", "seat3 4H") == []
    assert ref.state.count == 0 and [q.card for q in ref.questions] == ["2S", "4H"]
    done = lay(ref, "seat1 JH")
    assert [d.reason for d in done] == ["Ann played JH: Ten", "Bob played 2S: Twelve", "Cat played 4H: Sixteen"]
    assert ref.questions == []
    (d,) = lay(ref, "seat1 4D")
    assert d.reason == "Ann played 4D: Twenty for two" and fronts(ref) == [2, 0, 0]


def test_a_card_read_late_past_21_is_played_where_it_was_laid():
    """At 25 Ann lays 5H, but a hand over it keeps it from being read until Bob's AD is: the AD first looks like
    Bob playing on after Ann's go. Ann held the 5H, which fitted at 25, so she could not have said go: her card was
    read late. It is played where it was laid, and the AD after it, as the table shows: 30 and a pair for Ann, 31
    for Bob."""
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 5C")  # 25, Ann's turn
    assert lay(ref, "seat2 AD")[0].reason == "go inferred for Ann; Bob played AD: Twenty-six"
    done = lay(ref, "seat1 5H")
    assert [d.reason for d in done] == ["Ann's 5H was read late: played before Bob's AD",
                                        "Ann played 5H: Thirty for two", "Bob played AD: Thirty-one for two"]
    assert fronts(ref) == [2, 2] and ref.state.count == 0 and ref.questions == []
    assert [d.reason for d in ref.decisions][-2:] == ["Ann played 5H: Thirty for two",
                                                       "Bob played AD: Thirty-one for two"]


def test_plays_after_a_card_read_late_past_21_follow_it_across_a_31():
    """Ann's 9S makes 31 at 22 but is read after Bob's 4H, which then leads the next series, as he laid it."""
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 7S", "seat2 5C")  # 22, Ann's turn
    lay(ref, "seat2 4H")  # read first: a go inferred for Ann, Bob 26
    done = lay(ref, "seat1 9S")
    assert [d.reason for d in done] == ["Ann's 9S was read late: played before Bob's 4H",
                                        "Ann played 9S: Thirty-one for two", "Bob played 4H: Four"]
    (d,) = lay(ref, "seat1 8C")
    assert d.reason == "Ann played 8C: Twelve" and fronts(ref) == [2, 0]


def test_a_go_that_could_have_been_said_stands():
    """Ann at 25 holds only cards over 6: her go is right, and her 7H leads the next series after Bob's 31."""
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 5C", "seat2 6D")  # go for Ann, 31 for Bob
    (d,) = lay(ref, "seat1 7H")
    assert d.reason == "Ann played 7H: Seven" and fronts(ref) == [0, 2]


def test_a_go_said_on_the_screen_is_not_taken_back_by_a_card_read_after_it():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 KS", "seat2 5C")
    ref.go()  # Ann says go herself at 25
    lay(ref, "seat2 AD")
    done = lay(ref, "seat1 5H")
    assert not any("read late" in d.reason for d in done)


def test_a_card_read_late_past_21_in_a_three_hand_game():
    """Cat lays 3D at 25, read after Ann's 3C: Cat's go and Ann's play are taken back, then Cat 28, Ann 31 and a
    pair."""
    ref = referee("three-hand", ("Ann", "Bob", "Cat"), dealer=0)
    lay(ref, "starter KS", "seat2 TH", "seat3 KD")  # Bob, Cat: 20
    lay(ref, "seat1 4S")  # Ann: 24
    lay(ref, "seat2 AH")  # Bob: 25, Cat's turn
    lay(ref, "seat1 3C")  # read before Cat's card: a go inferred for Cat, Ann 28
    done = lay(ref, "seat3 3D")
    assert done[0].reason == "Cat's 3D was read late: played before Ann's 3C"
    assert [d.reason for d in done[1:]] == ["Cat played 3D: Twenty-eight",
                                            "Ann played 3C: Thirty-one for two and a pair is four"]
    assert fronts(ref) == [4, 0, 0]


def test_a_card_waiting_for_its_turn_and_picked_up_is_forgotten():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat2 5C")
    ref.on_change(TableChange(Change.REMOVED, "seat2", ("5C",), 3.0))
    assert ref.questions == []
    lay(ref, "seat1 3S")
    assert [str(c) for _, c in ref.state.series] == ["TH", "3S"] and ref.state.turn == 1


def test_the_card_a_waiting_card_waits_for_may_be_entered_by_hand():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat2 5C")
    done = ref.enter_card("3S")  # never read: Ann enters it
    assert [d.reason for d in done] == ["Ann played 3S: Thirteen", "Bob played 5C: Eighteen"]


def test_a_play_the_rules_refuse_becomes_a_question_not_a_guess():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 3S", "seat2 5C")
    state = ref.state
    assert lay(ref, "seat1 5C") == []  # 5C is in Bob's row already: a misread
    assert ref.state == state
    (q,) = ref.questions
    assert q.kind == "illegal" and q.card == "5C"


def test_a_card_outside_every_row_asks_whose_it_is():
    ref = referee()
    lay(ref, "starter 2D")
    assert lay(ref, "elsewhere TH") == []
    (q,) = ref.questions
    assert q.kind == "whose-card" and q.choices == ("Ann", "Bob")
    ref.answer(q, 1)
    assert ref.state.series[-1] == (1, ref.state.series[-1][1]) and str(ref.state.series[-1][1]) == "TH"
    assert ref.questions == []


def test_a_misread_card_corrected_recomputes_its_score():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 6S")  # read as 6S, it was 5S
    ref.replace_card("6S", "5S")
    assert fronts(ref) == [2, 0]


def test_the_show_is_counted_from_the_cards_seen_in_the_play_and_the_crib_when_turned_up():
    ref = referee()
    lay(ref, "starter 5D", "seat2 JD", "seat1 4H", "seat2 5H", "seat1 4S", "seat2 5C")
    ref.go()  # Ann cannot play at 28
    ref.go()  # nor Bob: one for the go to Bob
    decisions = lay(ref, "seat1 6C", "seat2 5S", "seat1 6D")  # last card to Ann; then the show counts itself
    shows = [d.reason for d in decisions if "hand" in d.reason]
    assert shows[0].startswith("Bob's hand: 29.") and shows[1].startswith("Ann's hand: 24.")
    assert ref.state.next_show is None  # waiting for the crib to be turned up
    lay(ref, "crib AC", "crib 2C", "crib 3H")
    assert ref.state.phase == "show"
    decisions = lay(ref, "crib KS")
    assert decisions[-1].reason.startswith("Ann's crib: ")
    assert ref.state.phase == "deal" and ref.state.dealer == 1


def test_the_five_card_show_reads_the_cards_it_never_saw():
    ref = referee("five-card")
    lay(ref, "starter 5D", "seat2 TH", "seat1 KS", "seat2 9C")
    ref.go()
    ref.go()  # the old game stops at the first go
    assert ref.state.phase == "show"
    lay(ref, "seat2 2C")  # Bob's third card, never played
    assert ref.state.shows[0].seat == 1 and len(ref.state.shows[0].cards) == 3
    assert ref.state.next_show == 0


def test_counting_out_in_the_show_stops_the_game_at_once():
    ref = referee()
    ref.correction(1, 100, "carried over")
    play_the_29_hand(ref)
    assert ref.state.phase == "over" and ref.state.winner == 1
    assert len(ref.state.shows) == 1  # Ann's hand is never counted


def test_three_players_go_sequence_from_the_table():
    ref = referee("three-hand", ("Ann", "Bob", "Cy"), dealer=2)
    lay(ref, "starter 2D", "seat1 TH", "seat2 TS", "seat3 5C")  # 25
    lay(ref, "seat2 4C")  # Ann could not play: go inferred for her
    lay(ref, "seat3 AH")  # 30
    ref.go()  # Bob
    ref.go()  # Cy: the go point to Cy, who played last
    assert ref.state.scores[-1].reason == "go" and ref.state.scores[-1].seat == 2
    assert ref.state.turn == 0


def test_muggins_asks_for_the_claim_and_offers_missed_points():
    ref = referee(muggins=True)
    play_the_29_hand(ref)
    (q,) = ref.questions
    assert q.kind == "claim" and "Bob" in q.text
    before = fronts(ref)
    ref.answer(q, 20)
    assert fronts(ref)[1] == before[1] + 20
    offer = next(q for q in ref.questions if q.kind == "muggins")
    assert offer.points == 9 and offer.seat == 0
    ref.answer(offer, "take")
    assert fronts(ref)[0] == before[0] + 9


def test_cards_seen_again_after_a_restart_change_nothing():
    ref = referee()
    lay(ref, "starter 2D", "seat2 TH", "seat1 5S")
    state = ref.state
    assert lay(ref, "starter 2D", "seat2 TH", "seat1 5S") == []  # the whole table reported again
    assert ref.state == state and ref.questions == []


def test_a_resumed_game_counts_its_show_from_where_it_stopped():
    ref = referee()
    play_the_29_hand(ref)
    assert ref.state.next_show is None
    resumed = Referee(Game(list(ref.game.log)))  # a restart: the game replayed from its log
    lay(resumed, "seat1 6C", "seat2 5S", "crib AC", "crib 2C", "crib 3H", "crib KS")
    assert resumed.state.phase == "deal" and resumed.state.shows[-1].seat is None


def test_the_dealer_may_spread_the_crib_in_his_own_row():
    ref = referee()
    play_the_29_hand(ref)
    assert ref.state.next_show is None
    lay(ref, "seat1 AC", "seat1 2C", "seat1 3H", "seat1 KS")  # Ann deals: the crib is hers
    assert ref.state.phase == "deal" and ref.state.shows[-1].seat is None
    assert sorted(map(str, ref.state.shows[-1].cards)) == ["2C", "3H", "AC", "KS"]


def test_a_starter_seen_before_the_last_crib_was_counted_starts_the_next_hand():
    ref = referee()
    play_the_29_hand(ref)
    for t, card in ((10.0, "AC"), (11.0, "2C"), (12.0, "3H")):
        ref.card_laid("seat1", card, t)  # Ann spreads the crib in her row
    ref.card_laid("starter", "9H", 15.0)  # the next starter is read before the crib's last card...
    ref.card_laid("seat1", "TH", 16.0)  # ... and so is Ann's lead of the next hand (Bob deals it)
    assert ref.state.phase == "show"
    ref.card_laid("seat1", "KS", 13.0)  # the last crib card, laid before the starter, reported after it
    state = ref.state
    assert state.hand == 2 and str(state.starter) == "9H" and state.phase == "play"
    assert [str(c) for _, c in state.series] == ["TH"]
    crib = replay(ref.game.log[: ref.game.log.index(next(e for e in ref.game.log if type(e).__name__ == "Crib")) + 1])
    assert sorted(map(str, crib.shows[-1].cards)) == ["2C", "3H", "AC", "KS"]


def test_a_card_played_before_the_starter_is_read_is_played_when_it_is():
    ref = referee()
    lay(ref, "seat2 TH")  # the tracker was sure of Bob's lead before the starter
    assert ref.state.phase == "deal" and ref.questions == []
    lay(ref, "starter 2D", "seat1 5S")
    assert [str(c) for _, c in ref.state.series] == ["TH", "5S"] and ref.state.count == 15
