"""The game as an event log: scripted hands for every rule a table argues about."""

from __future__ import annotations

import pytest

from companion.cards import Card, parse_cards
from companion.errors import IllegalMove
from companion.rules.events import (Correction, Crib, Cut, Deal, Discard, Go, Muggins, NewGame, Play, Redo,
                                    ReplaceCard, Show, Starter, Undo)
from companion.rules.game import Game, replay
from companion.rules.variants import Options

C = Card.parse


def cards(text: str) -> tuple[Card, ...]:
    return tuple(parse_cards(text))


def new(variant="six-card", players=("Ann", "Bob"), dealer=0, **options) -> Game:
    return Game([NewGame(variant, players, Options(**options), dealer)])


def plays(game: Game, *moves: str) -> None:
    """'1 TH' plays TH for seat 1; '0 go' says go for seat 0."""
    for move in moves:
        seat, what = move.split()
        game.apply(Go(int(seat)) if what == "go" else Play(int(seat), C(what)))


def fronts(game: Game) -> list[int]:
    return [s.front for s in game.state.sides]


def test_his_heels_pegs_two_for_the_dealer_at_once():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("JC")))
    assert fronts(g) == [2, 0]
    assert g.state.scores[-1].reason == "heels" and g.state.scores[-1].spoken == "Two for his heels"


def test_two_player_go_the_count_restarts_and_the_player_who_said_go_leads():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 KS", "1 9C")  # 29
    assert (g.state.count, g.state.turn) == (29, 0)
    plays(g, "0 go")
    assert g.state.turn == 1  # Bob must play on if he can
    plays(g, "1 AS")  # 30
    plays(g, "1 go")
    # Bob laid the last card: one for the go; Ann said go first and leads the next series
    assert fronts(g) == [0, 1]
    assert g.state.scores[-1].reason == "go" and g.state.scores[-1].seat == 1
    assert (g.state.count, g.state.series, g.state.turn) == (0, (), 0)


def test_thirty_one_scores_two_never_three():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 KS", "1 AS")
    assert (g.state.count, g.state.turn) == (21, 0)
    plays(g, "0 QD")  # 31
    assert fronts(g) == [2, 0]
    assert [e.reason for e in g.state.scores] == ["play"]
    assert (g.state.count, g.state.turn) == (0, 1)  # the next player after the one who made 31 leads


def test_last_card_scores_one_unless_it_made_thirty_one():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("5D")))
    plays(g, "1 4H", "0 4S", "1 9C", "0 9D", "1 2H", "0 3C")  # pairs at 8 and 26, then 31 for Ann
    assert [(e.seat, e.points) for e in g.state.scores] == [(0, 2), (0, 2), (0, 2)]
    assert (g.state.count, g.state.turn) == (0, 1)
    plays(g, "1 AH", "0 AD")  # a pair for Ann, and the last card of the play
    assert [(e.seat, e.reason, e.points) for e in g.state.scores[3:]] == [(0, "play", 2), (0, "last card", 1)]

    g = new()
    g.apply(Deal())
    g.apply(Starter(C("5D")))
    plays(g, "1 TH", "0 TS", "1 9C", "0 2C", "1 KH", "0 KS", "1 AH", "0 QS")  # the very last card makes 31
    assert g.state.phase == "show"
    assert [(e.reason, e.points) for e in g.state.scores] == [("play", 2)] * 4  # never 31 and a go point


def test_last_card_point_after_a_full_play():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 TS", "1 9C", "0 go", "1 go")  # pair for Ann; Bob 29 then go point to Bob
    assert [(e.seat, e.reason, e.points) for e in g.state.scores] == [(0, "play", 2), (1, "go", 1)]
    plays(g, "0 5H", "1 6H", "0 4C", "1 3D", "0 2C")
    # 5, 11, 15 (fifteen and run 4-5-6: Ann 2+3), 18 (run 3-4-5-6: Bob 4), 20 (run of five: Ann 5), last card Ann
    assert [(e.seat, e.points) for e in g.state.scores[2:]] == [(0, 5), (1, 4), (0, 5), (0, 1)]
    assert g.state.scores[-1].reason == "last card"
    assert g.state.phase == "show"


def test_three_players_after_a_go_each_later_player_who_can_must_play():
    g = new("three-hand", ("Ann", "Bob", "Cy"), dealer=2)
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "0 TH", "1 TS", "2 5C")  # 25: pair for Bob, nothing for Cy (10 10 5)
    plays(g, "0 go")  # Ann cannot play; Bob and Cy go on
    assert g.state.turn == 1
    plays(g, "1 4C", "2 AH")  # 29, 30: run? 5-4-A no
    plays(g, "1 go", "2 go")
    last = g.state.scores[-1]
    assert (last.seat, last.reason, last.points) == (2, "go", 1)
    assert g.state.turn == 0  # the next player after the one who played the last card leads


def test_four_hand_partners_share_one_score():
    g = new("four-hand", ("Ann", "Bob", "Cy", "Di"), dealer=3)
    assert [s.name for s in g.state.sides] == ["Ann & Cy", "Bob & Di"]
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "0 7H", "1 8H", "2 KS")  # Bob's fifteen scores for his side
    assert fronts(g) == [0, 2]
    plays(g, "3 6C")  # 31 for Di, Bob's partner
    assert fronts(g) == [0, 4]
    assert g.state.turn == 0  # the player after Di leads the next series


def test_five_card_game_three_for_last_and_the_play_stops_at_the_first_go():
    g = new("five-card")
    g.apply(Deal())
    assert fronts(g) == [0, 3]  # the first non-dealer starts with three
    with pytest.raises(IllegalMove, match="2 cards"):
        g.apply(Discard(0, cards("KH")))  # regression: discarding one card instead of two
    g.apply(Discard(0, cards("KH QH")))
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 TS", "1 9C", "0 go", "1 go")
    assert g.state.phase == "show"
    assert g.state.next_show == 1


def test_the_show_counts_in_order_and_the_game_ends_the_instant_a_side_reaches_the_target():
    g = new(dealer=0)
    g.apply(Correction(1, 110, "carried over from paper"))
    g.apply(Correction(0, 115, "carried over from paper"))
    g.apply(Deal())
    g.apply(Starter(C("5D")))
    plays(g, "1 JD", "0 4H", "1 5H", "0 4S", "1 5C", "0 go", "1 go", "0 6C", "1 5S", "0 6D")
    assert fronts(g) == [116, 111] and g.state.phase == "show"
    with pytest.raises(IllegalMove, match="Bob counts next"):
        g.apply(Show(0, cards("4H 4S 6C 6D")))
    g.apply(Show(1, cards("5H 5C 5S JD")))  # 29 for Bob: the pone counts first and counts out
    state = g.state
    assert state.phase == "over" and state.winner == 1
    with pytest.raises(IllegalMove, match="game is over"):
        g.apply(Show(0, cards("4H 4S 6C 6D")))


@pytest.mark.parametrize("loser,skunk", [(100, None), (91, None), (90, "skunk"), (61, "skunk"), (60, "double skunk"),
                                         (20, "double skunk")])
def test_skunk_lines(loser, skunk):
    # regression: the double-skunk test reversed (a loser below 61 is double skunked, not above)
    g = new()
    g.apply(Correction(1, loser, "set up"))
    g.apply(Correction(0, 121, "set up"))
    assert g.state.winner == 0 and g.state.skunk == skunk
    assert g.state.games_won == {None: 1, "skunk": 2, "double skunk": 4}[skunk]


def test_a_sixty_one_game_has_a_skunk_line_at_thirty():
    g = Game([NewGame("six-card", ("Ann", "Bob"), Options(), 0, target=61)])
    g.apply(Correction(1, 30, "set up"))
    g.apply(Correction(0, 61, "set up"))
    assert g.state.skunk == "skunk"


def test_lowball_the_first_side_to_reach_the_target_loses():
    g = new(lowball=True)
    g.apply(Correction(0, 121, "set up"))
    assert (g.state.phase, g.state.winner, g.state.loser) == ("over", 1, 0)


def test_stinkhole_no_pegging_out_on_heels():
    g = new(stinkhole=True)
    g.apply(Correction(0, 120, "set up"))
    g.apply(Deal())
    g.apply(Starter(C("JC")))
    assert fronts(g) == [120, 0] and g.state.winner is None


def test_no_go_point_past_115():
    g = new(no_go_past=115)
    g.apply(Correction(1, 116, "set up"))
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 KS", "1 9C", "0 go", "1 go")
    assert fronts(g) == [0, 116]  # Bob laid the last card but is past 115


def test_muggins_missed_points_go_to_the_opponent():
    g = new(muggins=True)
    g.apply(Deal())
    g.apply(Starter(C("5D")))
    plays(g, "1 JD", "0 4H", "1 5H", "0 4S", "1 5C", "0 go", "1 go", "0 6C", "1 5S", "0 6D")
    before = fronts(g)
    g.apply(Show(1, cards("5H 5C 5S JD"), claimed=20))  # Bob claims 20 of his 29
    assert fronts(g)[1] == before[1] + 20
    with pytest.raises(IllegalMove, match="own side"):
        g.apply(Muggins(1, 9))
    with pytest.raises(IllegalMove, match="only 9"):
        g.apply(Muggins(0, 10))
    g.apply(Muggins(0, 9))
    assert fronts(g)[0] == before[0] + 9
    assert g.state.shows[-1].claimed == 20 and g.state.shows[-1].score.total == 29


def test_illegal_events_are_refused_with_a_reason_and_change_nothing():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 KS", "1 9C")
    state = g.state
    refused = [
        (Play(1, C("5C")), "Ann's turn"),
        (Play(0, C("TH")), "already been seen"),
        (Play(0, C("5C")), "over 31"),
        (Show(0, cards("AH 2H 3H 4H")), "play phase"),
        (Play(7, C("5C")), "no seat 7"),
        (Deal(), "deal now"),
    ]
    for event, words in refused:
        with pytest.raises(IllegalMove, match=words):
            g.apply(event)
        assert g.state == state
    g2 = new()
    g2.apply(Deal())
    g2.apply(Starter(C("2D")))
    with pytest.raises(IllegalMove, match="every card fits"):
        g2.apply(Go(1))


def test_a_fifth_card_for_a_four_card_hand_is_refused():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("KD")))
    plays(g, "1 AH", "0 AS", "1 2H", "0 2S", "1 3H", "0 3S", "1 4H", "0 4S")  # 20 cards so far... all 8 played
    assert g.state.phase == "show"
    with pytest.raises(IllegalMove, match="4 cards"):
        g.apply(Show(1, cards("AH 2H 3H 4H 5H")))


def test_undo_then_redo_changes_nothing_and_a_new_event_clears_redo():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 5S")
    state = g.state
    g.apply(Undo())
    assert (g.state.count, fronts(g)) == (10, [0, 0])
    g.apply(Redo())
    assert g.state == state
    g.apply(Undo())
    plays(g, "0 6S")
    with pytest.raises(IllegalMove, match="nothing to redo"):
        g.apply(Redo())


def test_a_misread_card_is_replaced_and_its_scores_recomputed():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 6S")  # the camera read 6S; it was 5S: fifteen two
    assert fronts(g) == [0, 0]
    g.apply(ReplaceCard(C("6S"), C("5S")))
    assert fronts(g) == [2, 0] and g.state.count == 15
    assert g.state.scores[-1].spoken == "Fifteen two"
    g.apply(Undo())  # the correction itself can be undone
    assert fronts(g) == [0, 0]


def test_a_replacement_that_makes_the_hand_illegal_is_refused():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("2D")))
    plays(g, "1 TH", "0 6S")
    with pytest.raises(IllegalMove, match="already been seen"):
        g.apply(ReplaceCard(C("6S"), C("TH")))


def test_cut_for_the_deal_lowest_deals_and_ties_recut():
    g = Game([NewGame("six-card", ("Ann", "Bob"), Options(), None)])
    assert g.state.phase == "cut"
    g.apply(Cut(cards("5H 5S")))
    assert g.state.phase == "cut"  # a tie: cut again
    g.apply(Cut(cards("KH 3S")))
    assert (g.state.phase, g.state.dealer) == ("deal", 1)


def test_the_deal_alternates_after_the_crib():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("KD")))
    plays(g, "1 AH", "0 AS", "1 2H", "0 2S", "1 3H", "0 3S", "1 4H", "0 4S")
    g.apply(Show(1, cards("AH 2H 3H 4H")))
    g.apply(Show(0, cards("AS 2S 3S 4S")))
    g.apply(Crib(cards("5C 6C 7C 8C")))
    assert (g.state.phase, g.state.dealer) == ("deal", 1)


def test_replay_of_the_log_gives_the_same_state():
    g = new()
    g.apply(Deal())
    g.apply(Starter(C("JD")))
    plays(g, "1 TH", "0 5S")
    g.apply(Undo())
    assert replay(g.log) == g.state
