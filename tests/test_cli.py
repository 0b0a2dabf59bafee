"""The command line: the dispute settler and its answers to bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_score_prints_every_item_and_the_total(capsys):
    code, out, err = run(capsys, "score", "5H", "5C", "5S", "JD", "5D")
    assert code == 0 and err == ""
    assert "29" in out.splitlines()[-2]
    items = [line.split()[0] for line in out.splitlines()[1:-2]]
    assert items == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    assert out.strip().endswith("and one for his nobs is twenty-nine")


def test_score_json(capsys):
    code, out, _ = run(capsys, "score", "4H", "5S", "6D", "6C", "KD", "--json")
    data = json.loads(out)
    assert data["total"] == 14
    assert {"kind": "pair", "cards": ["6D", "6C"], "points": 2} in data["items"]


def test_crib_flag(capsys):
    code, out, _ = run(capsys, "score", "2H", "4H", "6H", "8H", "KS", "--crib", "--json")
    assert json.loads(out)["total"] == 0


def test_peg_scores_each_card_as_laid(capsys):
    code, out, _ = run(capsys, "peg", "7H", "7S", "7D", "--json")
    data = json.loads(out)
    assert [(d["count"], d["points"]) for d in data] == [(7, 0), (14, 2), (21, 6)]
    assert data[-1]["spoken"] == "Twenty-one for six"


@pytest.mark.parametrize("argv,words", [
    (("score", "5H", "5C", "ZZ", "JD", "5D"), "'ZZ'"),
    (("score", "5H", "5C"), "not 2"),
    (("score", "5H", "5H", "5S", "JD", "5D"), "5H appears twice"),
    (("peg", "TH", "TD", "TS", "TC"), "over 31"),
    (("peg", "5H", "5H"), "5H appears twice"),
])
def test_bad_input_is_one_line_on_stderr_and_exit_2(capsys, argv, words):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert words in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_history_with_no_games(capsys, tmp_path):
    from companion.rules.events import NewGame
    from companion.store import EventStore
    with EventStore(tmp_path / "g.db") as store:
        store.start(NewGame("six-card", ("Ann", "Bob")))
    code, out, _ = run(capsys, "history", "--db", str(tmp_path / "g.db"))
    assert code == 0 and "No finished games yet" in out


def test_the_console_script_runs(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "score", "5H", "5C", "5S", "JD", "XX"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and "'XX'" in proc.stderr and "Traceback" not in proc.stderr
