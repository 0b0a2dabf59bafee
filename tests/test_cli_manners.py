"""Every command is polite to bad input: one line on stderr naming the problem, exit 2, no traceback, and a
command that only reads never creates, changes or moves a file."""

from __future__ import annotations

import argparse
import json
import sqlite3

import pytest

from companion.cli import build_parser, main
from companion.rules.events import Correction, NewGame
from companion.store import EventStore


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse's own exits (usage errors, --help)
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(code, out, err, *words):
    assert code == 2, (code, out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    for w in words:
        assert w in err, (w, err)


def test_bare_companion_prints_the_usage_and_exits_2(capsys):
    code, out, err = run(capsys)
    assert code == 2 and out == ""
    assert err.startswith("usage: companion") and "score" in err and "history" in err


@pytest.mark.parametrize("argv,words", [
    (("score", "", "5C", "5S", "JD", "5D"), ("card 1 is empty",)),
    (("score", "5H", "5C", "", "5D"), ("card 3 is empty",)),
    (("score", "--crib", "5H", "5C", "5S", "5D"), ("crib", "not 4")),
    (("score", "--crib", "5H", "5C", "5S", "JD", "4D", "5D"), ("crib", "not 6")),
])
def test_score_refuses_empty_cards_and_a_crib_of_the_wrong_size(capsys, argv, words):
    refused(*run(capsys, *argv), *words)


def test_a_crib_of_four_and_the_starter_is_counted(capsys):
    code, out, _ = run(capsys, "score", "--crib", "5H", "5C", "5S", "JD", "5D", "--json")
    assert code == 0 and json.loads(out)["total"] == 29


def test_peg_takes_a_go_the_count_restarts_and_the_last_card_scores(capsys):
    code, out, err = run(capsys, "peg", "7H", "8S", "GO", "9C", "TD", "go", "5H", "LAST", "--json")
    assert code == 0, err
    steps = json.loads(out)
    assert [(s["card"], s["count"], s["points"]) for s in steps] == [
        ("7H", 7, 0), ("8S", 15, 2), ("GO", 15, 1), ("9C", 9, 0), ("TD", 19, 0), ("GO", 19, 1), ("5H", 5, 0),
        ("LAST", 5, 1)]
    assert steps[2]["items"] == [{"kind": "go", "cards": ["8S"], "points": 1}]
    assert steps[-1]["spoken"] == "One for the last card"


def test_peg_after_thirty_one_restarts_by_itself_and_pays_no_go(capsys):
    code, out, _ = run(capsys, "peg", "TH", "TD", "TS", "AC", "2C", "LAST", "--json")
    steps = json.loads(out)
    assert [(s["card"], s["count"], s["points"]) for s in steps][3:] == [("AC", 31, 2), ("2C", 2, 0),
                                                                        ("LAST", 2, 1)]
    code, out, _ = run(capsys, "peg", "TH", "5D", "6S", "KD", "LAST")
    assert code == 0 and "LAST count 31   0 points" in out


def test_peg_text_shows_the_go(capsys):
    code, out, _ = run(capsys, "peg", "7H", "8S", "GO", "9C")
    assert out.splitlines()[2].split()[:5] == ["GO", "count", "15", "1", "points"]


@pytest.mark.parametrize("argv,words", [
    (("peg", "GO", "5H"), ("'GO' at position 1",)),
    (("peg", "5H", "GO", "GO"), ("position 3",)),
    (("peg", "5H", "LAST", "6H"), ("'LAST'", "last token")),
    (("peg", "TH", "TD", "TS", "5C"), ("over 31", "GO")),
    (("peg", "5H", "GO", "5H"), ("5H appears twice",)),
    (("peg", "5H", ""), ("card 2 is empty",)),
])
def test_peg_refuses_a_go_out_of_place(capsys, argv, words):
    refused(*run(capsys, *argv), *words)


def test_history_refuses_a_file_that_is_not_a_companion_database_and_leaves_it(capsys, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my shopping list\n" * 50)
    refused(*run(capsys, "history", "--db", str(notes)), "notes.txt", "not a companion game database")
    assert notes.read_text() == "my shopping list\n" * 50
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # nothing moved aside, nothing created


def test_history_refuses_another_programs_sqlite_database_and_does_not_change_it(capsys, tmp_path):
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    before = other.read_bytes()
    refused(*run(capsys, "history", "--db", str(other)), "no games table")
    assert other.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


def test_history_does_not_create_a_missing_database(capsys, tmp_path):
    missing = tmp_path / "sub" / "games.db"
    refused(*run(capsys, "history", "--db", str(missing)), "no such file")
    assert not missing.exists() and not missing.parent.exists()


def test_history_without_db_and_no_games_creates_nothing(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    code, out, _ = run(capsys, "history")
    assert code == 0 and "No finished games yet" in out
    assert not (tmp_path / "data").exists()


def test_history_reads_a_real_database_without_writing_beside_it(capsys, tmp_path):
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        game = store.start(NewGame("six-card", ("Ann", "Bob"), first_dealer=0))
        game.apply(Correction(0, 121, "carried over from a paper board"))
    before = path.read_bytes()
    code, out, err = run(capsys, "history", "--db", str(path))
    assert code == 0 and "Ann won (double skunk): Ann 121, Bob 0" in out, err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.db"]  # no -wal or -shm left behind


def test_history_shows_a_score_past_the_target_as_the_target(capsys, tmp_path):
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        game = store.start(NewGame("six-card", ("Ann", "Bob"), first_dealer=0, target=61))
        game.apply(Correction(1, 40, "carried over"))
        game.apply(Correction(0, 63, "pegged past the end"))
    code, out, _ = run(capsys, "history", "--db", str(path), "--json")
    assert json.loads(out)[0]["scores"] == {"Ann": 61, "Bob": 40}


def test_history_reads_a_database_the_companion_has_open(capsys, tmp_path):
    path = tmp_path / "games.db"
    with EventStore(path) as store:
        game = store.start(NewGame("six-card", ("Ann", "Bob"), first_dealer=0))
        game.apply(Correction(1, 121, "carried over from a paper board"))
        code, out, err = run(capsys, "history", "--db", str(path))
    assert code == 0 and "Bob won" in out, err


def test_history_limit_must_be_positive(capsys, tmp_path):
    refused(*run(capsys, "history", "--limit", "0"), "--limit 0")


def test_mat_refuses_a_missing_folder_and_a_zero_dpi_by_name(capsys, tmp_path):
    refused(*run(capsys, "mat", "-o", str(tmp_path / "nope" / "mat.pdf")), "nope", "does not exist")
    refused(*run(capsys, "mat", "-o", str(tmp_path / "mat.pdf"), "--dpi", "0"), "--dpi 0")
    assert list(tmp_path.iterdir()) == []


def test_read_refuses_a_missing_file_and_a_non_image(capsys, tmp_path):
    refused(*run(capsys, "read", str(tmp_path / "gone.png")), "gone.png", "no such file")
    text = tmp_path / "hand.png"
    text.write_text("5H 5C 5S JD 5D")
    refused(*run(capsys, "read", str(text)), "hand.png", "not an image")
    refused(*run(capsys, "read", str(tmp_path)), "a folder")


def test_read_refuses_an_annotation_into_a_missing_folder(capsys, tmp_path):
    refused(*run(capsys, "read", str(tmp_path / "x.png"), "--annotate", str(tmp_path / "no" / "a.png")),
            "--annotate", "does not exist")


def _every_help(parser: argparse.ArgumentParser, name: str = "companion"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                yield f"{name} {choice.dest}", choice.help
            for sub, subparser in action.choices.items():
                yield from _every_help(subparser, f"{name} {sub}")
        elif action.help != argparse.SUPPRESS:
            yield f"{name} {'/'.join(action.option_strings) or action.dest}", action.help


def test_every_command_and_option_has_a_whole_help_sentence():
    helps = list(_every_help(build_parser()))
    assert len(helps) > 40
    bad = [(where, text) for where, text in helps
           if not text or not text[0].isupper() or not text.rstrip().endswith(".") or len(text.split()) < 3]
    assert bad == []


def test_a_light_theme_is_refused_by_name_rather_than_ignored():
    from companion.config import load_config
    from companion.errors import ConfigError
    assert load_config(text='[display]\ntheme = "dark"').raw["display"]["theme"] == "dark"
    with pytest.raises(ConfigError, match='display.theme: only "dark"'):
        load_config(text='[display]\ntheme = "light"')
