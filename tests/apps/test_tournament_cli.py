"""``sabacc tournament simulate``: one event's standings and history, the structure report
over many seeds, JSON, Japanese, and bad input as one line."""

from __future__ import annotations

import json

from typer.testing import CliRunner, Result

from sabacc.apps.cli import app

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, ["tournament", "simulate", *args])


def test_one_event_as_json_has_every_players_place_points_and_bust_hand() -> None:
    result = run(
        "--format",
        "mtt",
        "-p",
        "12",
        "--table-size",
        "5",
        "--seed",
        "3",
        "--json",
        "--hands-per-level",
        "4",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    rows = data["standings"]
    assert rows[0]["place"] == 1 and len(rows) == 12
    assert rows[0]["points"] == 100 and rows[0]["bust_hand"] is None
    assert all(r["bust_hand"] for r in rows[1:])
    assert data["hands"] >= 1 and data["levels"] >= 1
    kinds = {e["type"] for e in data["tables"]}
    assert {"started", "moved", "redraw"} <= kinds
    again = json.loads(
        run(
            "--format",
            "mtt",
            "-p",
            "12",
            "--table-size",
            "5",
            "--seed",
            "3",
            "--json",
            "--hands-per-level",
            "4",
        ).output
    )
    assert again["standings"] == rows and again["tables"] == data["tables"]


def test_the_table_and_the_feed_in_english_and_japanese() -> None:
    result = run("--format", "sng", "-p", "4", "--hands-per-level", "3", "--log")
    assert result.exit_code == 0, result.output
    assert "Sit & Go" in result.output and "Seat draw" in result.output
    assert "Level 2: Ante 2" in result.output and "is out in place" in result.output
    ja = run("--format", "sng", "-p", "4", "--hands-per-level", "3", "--log", "--lang", "ja")
    assert ja.exit_code == 0, ja.output
    assert "シット・アンド・ゴー" in ja.output and "座席抽選" in ja.output and "順位" in ja.output


def test_many_seeds_give_the_structure_report() -> None:
    result = run("--format", "sng", "-p", "4", "--seeds", "3", "--hands-per-level", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    structure = data["structure"]
    assert structure["events"] == 3 and len(data["events"]) == 3
    assert structure["hands"]["p10"] <= structure["hands"]["median"] <= structure["hands"]["max"]
    curve = [p["busted"] for p in structure["bust_curve"]]
    assert curve == sorted(curve) and curve[-1] > 0
    text = run("--format", "sng", "-p", "4", "--seeds", "2", "--hands-per-level", "3")
    assert "Share of entries out" in text.output


def test_series_formats_run() -> None:
    for fmt in ("swiss", "arena", "cantina"):
        result = run(
            "--format", fmt, "-p", "5", "--variant", "kessel", "--duration", "20", "--json"
        )
        assert result.exit_code == 0, (fmt, result.output)
        assert len(json.loads(result.output)["standings"]) == 5


def test_bad_input_is_one_line() -> None:
    for args, words in (
        (("--format", "poker"), "format"),
        (("--bots", "grandmaster"), "--bots"),
        (("-p", "1"), "--players"),
        (("--format", "cantina", "-p", "12"), "cantina"),
        (("--variant", "kessel", "--table-size", "8", "--format", "mtt"), "table_size"),
    ):
        result = run(*args)
        assert result.exit_code == 2, (args, result.output)
        assert words in result.output
