"""The ``sabacc`` command line (sabacc/apps/cli.py), through Typer's CliRunner and one
subprocess."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

import sabacc
from sabacc.apps.cli import app
from sabacc.core.events import Acted
from sabacc.services.render import render_log
from tests.support import choose_small

runner = CliRunner()


def run(*args: str, input: str | None = None) -> Result:
    return runner.invoke(app, list(args), input=input)


def assert_bad_input(result: Result, *words: str) -> None:
    """Exit status 2, exactly one line on stderr naming the problem, nothing on stdout."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip("\n").split("\n")
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("sabacc: error: ")
    for w in words:
        assert w in lines[0]
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout == ""


# ---------------------------------------------------------------------------- hand
class TestHand:
    def test_yee_haa(self) -> None:
        res = run("hand", "--variant", "spike", "+4", "-4", "0")
        assert res.exit_code == 0, res.stderr
        assert "Yee-Haa" in res.stdout
        assert "rank 4" in res.stdout

    @pytest.mark.parametrize("name", ["spike", "corellian_spike", "corellian-spike"])
    def test_variant_names(self, name: str) -> None:
        res = run("hand", "-v", name, "0", "0")
        assert res.exit_code == 0 and "Pure Sabacc" in res.stdout

    def test_default_variant_is_spike(self) -> None:
        res = run("hand", "+2", "-2")
        assert res.exit_code == 0 and "Sabacc" in res.stdout

    def test_staves_and_one_quoted_argument(self) -> None:
        res = run("hand", "-v", "spike", "+4c -4t,0")
        assert res.exit_code == 0 and "Yee-Haa" in res.stdout
        assert "+4c" in res.stdout and "-4t" in res.stdout

    def test_nulrhek(self) -> None:
        res = run("hand", "-v", "spike", "+9", "+8")
        assert res.exit_code == 0 and "Nulrhek" in res.stdout and "+17" in res.stdout

    def test_json(self) -> None:
        res = run("hand", "--json", "-v", "spike", "+4", "-4", "0")
        assert res.exit_code == 0
        out = json.loads(res.stdout)
        assert out["name"] == "Yee-Haa" and out["rank"] == 4 and out["total"] == 0
        assert out["cards"] == ["+4c", "-4c", "0"]

    @pytest.mark.parametrize(
        ("cards", "word"),
        [
            (["+11"], "'+11'"),
            (["+4x"], "'+4x'"),
            (["16f"], "'16f'"),
            (["nope"], "'nope'"),
            (["+4", "+4", "+4", "+4"], "too many copies"),
            (["0", "0", "0"], "too many copies"),
            (["+4c", "+4c"], "too many copies"),
        ],
    )
    def test_bad_cards(self, cards: list[str], word: str) -> None:
        assert_bad_input(run("hand", "-v", "spike", *cards), word)

    def test_unknown_option(self) -> None:
        assert_bad_input(run("hand", "-o", "nope=1", "+4", "-4"), "unknown option", "nope")

    def test_bad_option_value(self) -> None:
        assert_bad_input(run("hand", "-o", "rounds=0", "+4", "-4"), "rounds")
        assert_bad_input(run("hand", "-o", "rounds", "+4", "-4"), "name=value")

    def test_unknown_variant(self) -> None:
        assert_bad_input(run("hand", "-v", "pazaak", "+4"), "unknown variant", "pazaak")

    def test_no_cards(self) -> None:
        res = run("hand", "-v", "spike")
        assert res.exit_code == 2
        assert "Traceback" not in res.stdout + res.stderr


# ---------------------------------------------------------------------------- showdown
class TestShowdown:
    def test_order_best_first(self) -> None:
        res = run("showdown", "--variant", "spike", "+4 -4 0", "+2 +2 -4 0")
        assert res.exit_code == 0, res.stderr
        lines = [ln for ln in res.stdout.splitlines() if ln.strip()]
        assert len(lines) == 2
        # Both Yee-Haa: the lower pair (2) beats the pair of 4s.
        assert lines[0].startswith("1. hand 2") and "Yee-Haa" in lines[0]
        assert lines[1].startswith("2. hand 1") and "Yee-Haa" in lines[1]
        assert "tie" not in res.stdout

    def test_ties_marked(self) -> None:
        res = run("showdown", "-v", "spike", "+9 +8", "+1 -1", "+1 -1", "+4 -4 0")
        assert res.exit_code == 0, res.stderr
        lines = [ln for ln in res.stdout.splitlines() if ln.strip()]
        assert [ln.split(":")[0] for ln in lines] == [
            "1. hand 4",
            "2. hand 2",
            "2. hand 3",
            "4. hand 1",
        ]
        assert [("(tie)" in ln) for ln in lines] == [False, True, True, False]

    def test_json(self) -> None:
        res = run("showdown", "--json", "-v", "spike", "+1 -1", "0 0", "+1 -1")
        assert res.exit_code == 0
        out = json.loads(res.stdout)
        assert [(r["place"], r["hand"], r["name"]) for r in out] == [
            (1, 2, "Pure Sabacc"),
            (2, 1, "Sabacc"),
            (2, 3, "Sabacc"),
        ]

    def test_copies_are_counted_across_hands(self) -> None:
        assert_bad_input(run("showdown", "-v", "spike", "0 0", "0 +1 -1"), "too many copies")
        assert_bad_input(
            run("showdown", "-v", "spike", "+4 +4", "+4 -4", "+4 -8"), "too many copies"
        )

    def test_bad_hand_named(self) -> None:
        assert_bad_input(run("showdown", "-v", "spike", "+4 -4", "+4 +11"), "hand 2", "'+11'")

    def test_needs_two_hands(self) -> None:
        assert_bad_input(run("showdown", "-v", "spike", "+4 -4"), "two hands")

    def test_unknown_variant_and_option(self) -> None:
        assert_bad_input(run("showdown", "-v", "nope", "+1 -1", "0 0"), "unknown variant")
        assert_bad_input(run("showdown", "-o", "nope=1", "+1 -1", "0 0"), "unknown option")


# ---------------------------------------------------------------------------- info commands
class TestInfo:
    def test_rules(self) -> None:
        res = run("rules", "-v", "spike")
        assert res.exit_code == 0
        assert "Corellian Spike" in res.stdout and "62 cards" in res.stdout
        assert "Sabacc Shift" in res.stdout.replace("\n", " ")

    def test_options(self) -> None:
        res = run("options", "-v", "spike")
        assert res.exit_code == 0
        names = [ln.split(" = ")[0] for ln in res.stdout.splitlines() if " = " in ln]
        assert set(names) == set(sabacc.variant("spike").options.names())
        assert "rounds = 3" in res.stdout
        assert "true_tie = 'blind_draw'" in res.stdout

    def test_variants(self) -> None:
        res = run("variants")
        assert res.exit_code == 0
        for name in sabacc.variant_names():
            assert name in res.stdout
        assert "spike" in res.stdout

    @pytest.mark.parametrize("cmd", ["rules", "options"])
    def test_unknown_variant(self, cmd: str) -> None:
        assert_bad_input(run(cmd, "-v", "pazaak"), "unknown variant")


# ---------------------------------------------------------------------------- replay
def finished_history(seed: int = 3) -> dict:  # type: ignore[type-arg]
    g = sabacc.new_game("spike", players=["Han", "Lando", "Chewie"], seed=seed)
    rng = random.Random(seed)
    while not g.is_over:
        g.apply(choose_small(rng, g))
    return g.history()


class TestReplay:
    def test_tells_the_game_move_by_move(self, tmp_path: Path) -> None:
        h = finished_history()
        f = tmp_path / "game.json"
        f.write_text(json.dumps(h))
        res = run("replay", str(f))
        assert res.exit_code == 0, res.stderr
        out = res.stdout.splitlines()
        assert "Han, Lando, Chewie" in out[0] and "seed 3" in out[0]
        assert "── Hand 1: Han deals ──" in out
        assert any(ln.startswith("── Game over: ") for ln in out)
        # Every action is told, in order, with the renderer's line for it.
        game = sabacc.replay(h)
        lines = render_log(game.events, game.names, variant=game.info)
        expected = [
            line
            for e, line in zip(game.events, lines, strict=True)
            if isinstance(e, Acted) and line is not None
        ]
        assert len(expected) == len(h["actions"])
        told = [ln for ln in out if ln in expected]
        assert told == expected
        assert any(" shows " in ln for ln in out) or any(" junks" in ln for ln in out)
        assert any(" is dealt: " in ln for ln in out)

    def test_seat_view_hides_other_cards(self, tmp_path: Path) -> None:
        g = sabacc.new_game("spike", players=["Han", "Lando"], seed=1, game_end="hands:1")
        f = tmp_path / "g.json"
        f.write_text(json.dumps(g.history()))
        full = run("replay", str(f)).stdout
        mine = run("replay", "--seat", "0", str(f)).stdout
        lando = " ".join(c.code for c in g.hands[1])
        han = " ".join(c.code for c in g.hands[0])
        assert f"Lando is dealt: {lando}" in full
        assert "Lando is dealt: 2 cards" in mine
        assert f"You are dealt: {han}" in mine  # told to Han, in the second person

    def test_bad_files(self, tmp_path: Path) -> None:
        assert_bad_input(run("replay", str(tmp_path / "missing.json")), "cannot read")
        bad = tmp_path / "bad.json"
        bad.write_text("{not json")
        assert_bad_input(run("replay", str(bad)), "not JSON")
        h = finished_history()
        h["version"] = 99
        old = tmp_path / "old.json"
        old.write_text(json.dumps(h))
        assert_bad_input(run("replay", str(old)), "version")


# ---------------------------------------------------------------------------- play
class TestPlay:
    def test_plays_to_the_end(self, tmp_path: Path) -> None:
        save = tmp_path / "saved.json"
        res = run(
            "play",
            "--bots",
            "heuristic",
            "--seed",
            "3",
            "--players",
            "3",
            "--save",
            str(save),
            input="1\n" * 600,
        )
        assert res.exit_code == 0, res.stdout[-2000:]
        assert res.exception is None
        assert "Final standings" in res.stdout
        assert "Traceback" not in res.stdout
        h = json.loads(save.read_text())
        g = sabacc.replay(h)
        assert g.is_over
        assert h["players"][0] == "You"
        assert h["result"]["payoffs"] == g.payoffs
        for name in ("You", "Bot 1", "Bot 2"):
            assert name in res.stdout

    def test_same_seed_same_session(self) -> None:
        a = run("play", "--bots", "heuristic", "--seed", "5", "--players", "2", input="1\n" * 600)
        b = run("play", "--bots", "heuristic", "--seed", "5", "--players", "2", input="1\n" * 600)
        assert a.exit_code == b.exit_code == 0
        assert a.stdout == b.stdout

    def test_input_runs_out(self, tmp_path: Path) -> None:
        save = tmp_path / "partial.json"
        res = run(
            "play", "--bots", "heuristic", "--seed", "3", "--save", str(save), input="1\n" * 3
        )
        assert res.exit_code == 0
        assert "Game abandoned" in res.stdout
        assert "Traceback" not in res.stdout
        g = sabacc.replay(json.loads(save.read_text()))
        assert not g.is_over

    def test_text_actions_and_bad_input_are_reprompted(self) -> None:
        res = run(
            "play",
            "--bots",
            "heuristic",
            "--seed",
            "4",
            "--players",
            "2",
            input="dance\n99\nstand\n" + "1\n" * 400,
        )
        assert res.exit_code == 0
        assert "unknown action 'dance'" in res.stdout
        assert "Traceback" not in res.stdout

    def test_bet_amount_prompt(self) -> None:
        # Option 3 in a betting phase is "bet lo-hi": the amount is asked for.
        res = run(
            "play",
            "--bots",
            "heuristic",
            "--seed",
            "4",
            "--players",
            "2",
            input="1\n3\n2\n" + "1\n" * 400,
        )
        assert res.exit_code == 0
        assert "How much?" in res.stdout
        assert "You bet 2" in res.stdout or "You raise by 2" in res.stdout
        assert "Traceback" not in res.stdout

    def test_quit(self) -> None:
        res = run("play", "--bots", "heuristic", "--seed", "4", "--players", "2", input="q\n")
        assert res.exit_code == 0 and "Game abandoned" in res.stdout

    def test_bad_setup(self) -> None:
        assert_bad_input(run("play", "--players", "9", "--seed", "1"), "2-8")
        assert_bad_input(run("play", "-v", "pazaak"), "unknown variant")
        assert_bad_input(run("play", "-o", "nope=1"), "unknown option")
        assert_bad_input(run("play", "--bots", "nobody", "--seed", "1"), "unknown bot")

    def test_the_bots_help_offers_the_levels_and_random_only(self) -> None:
        """`--bots`' help and the answer to a wrong name offer what players pick: the levels
        and random, never a level's private bot or an experiment of the lab."""
        from sabacc.services.bots import LEVELS, offered_bots

        assert offered_bots() == [*LEVELS, "random"]
        res = run("play", "--bots", "nobody", "--seed", "1")
        assert_bad_input(res, "unknown bot", *offered_bots())
        help_text = " ".join(run("play", "--help").stdout.replace("│", " ").split())
        hidden = ("heuristic", "ismcts", "wily", "sharp", "shrewd", "canny", "ref-")
        for text in (res.stderr, help_text, run("simulate", "--help").stdout):
            assert not [name for name in hidden if name in text], text
        assert "easy, normal, hard, expert" in help_text and "random" in help_text

    def test_play_says_when_the_variants_levels_play_the_same_bot(self) -> None:
        res = run(
            "play", "-v", "kessel", "--bots", "expert", "--seed", "2", "-p", "2", "--plain",
            input="q\n",
        )  # fmt: skip
        assert "Kessel Sabacc has 3 bot strengths: hard and expert play the same bot." in (
            " ".join(res.stdout.split())
        )
        spike = run("play", "--bots", "expert", "--seed", "2", "-p", "2", "--plain", input="q\n")
        assert "bot strength" not in spike.stdout

    @pytest.mark.parametrize("bots", ["random", "heuristic", "random,heuristic"])
    def test_bots(self, bots: str) -> None:
        res = run(
            "play",
            "--bots",
            "heuristic",
            "--seed",
            "2",
            "--players",
            "3",
            "--bots",
            bots,
            input="1\n" * 600,
        )
        assert res.exit_code == 0 and "Final standings" in res.stdout


def test_real_subprocess() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "sabacc", "hand", "--variant", "spike", "+4", "-4", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Yee-Haa" in proc.stdout
    assert proc.stderr == ""


def test_version() -> None:
    import platform

    from sabacc.variants import compiled

    res = run("--version")
    assert res.exit_code == 0, res.stderr
    line = res.stdout.strip()
    assert line.startswith(f"sabacc {sabacc.__version__} (Python {platform.python_version()}, ")
    built = sum(compiled.available(v) for v in sabacc.variant_names())
    expected = f"compiled cores for {built} of 5 variants)" if built else "pure Python)"
    assert line.endswith(expected) and len(line.splitlines()) == 1
