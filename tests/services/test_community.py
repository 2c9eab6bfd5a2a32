"""The community layer's rules without a server: usernames and passwords, game summaries and
ratings (Hypothesis for the invariants), and the EN/JA words of the community pages."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sabacc
from sabacc.services.bots.levels import LEVELS
from sabacc.services.community import accounts, ratings
from sabacc.services.community.stats import places, summarise
from sabacc.variants.registry import variant_names

WEB = Path(__file__).resolve().parents[2] / "src" / "sabacc" / "apps" / "web"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "bad_username"),
        ("a" * 21, "bad_username"),
        ("_lead", "bad_username"),
        ("héllo", "bad_username"),
        ("two words", "bad_username"),
        ("ADMIN", "reserved_username"),
        ("Admin_2", "reserved_username"),
        ("deleted-player", "reserved_username"),
        ("K2SO", "reserved_username"),
        ("Normal", "reserved_username"),
    ],
)
def test_usernames_refused(name: str, code: str) -> None:
    with pytest.raises(accounts.AccountError) as caught:
        accounts.check_username(name, frozenset({"K-2SO", "normal"}))
    assert caught.value.code == code and caught.value.message


def test_usernames_kept_and_compared_without_case() -> None:
    assert accounts.check_username("  Han_Solo-77 ") == "Han_Solo-77"
    assert accounts.name_key("Han_Solo") == accounts.name_key("han_solo")


def test_passwords() -> None:
    for weak in ("short", "aaaaaaaaaaaa", "ababababab", "Han_Solo77"):
        with pytest.raises(accounts.AccountError):
            accounts.check_password(weak, "han_solo77")
    with pytest.raises(accounts.AccountError) as caught:
        accounts.check_password("x" * 129 + "abcd")
    assert caught.value.code == "bad_password"
    accounts.check_password("correct horse battery")
    stored = accounts.hash_password("correct horse battery")
    assert stored.startswith("$argon2id$") and "correct" not in stored
    assert accounts.verify_password(stored, "correct horse battery")
    assert not accounts.verify_password(stored, "correct horse batter")
    assert not accounts.verify_password("not a hash", "x")
    assert stored != accounts.hash_password("correct horse battery")  # salted


@given(st.lists(st.integers(0, 300), min_size=2, max_size=8))
def test_places(stacks: list[int]) -> None:
    got = places(stacks)
    assert min(got) == 1
    for i, a in enumerate(stacks):
        for j, b in enumerate(stacks):
            assert (a > b) == (got[i] < got[j])


@settings(max_examples=25, deadline=None)
@given(
    st.sampled_from(variant_names()), st.integers(0, 2**32), st.integers(2, 4), st.integers(0, 99)
)
def test_summaries_of_any_finished_game(variant: str, seed: int, n: int, moves: int) -> None:
    game = sabacc.new_game(variant, players=[f"p{i}" for i in range(n)], seed=seed)
    rng = random.Random(moves)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()), seat=game.current_player)
    rows = summarise(game)
    assert [r.seat for r in rows] == list(range(n))
    # (not zero-sum everywhere: Kessel's lost pots leave the game)
    assert game.outcome is not None
    assert [r.net for r in rows] == list(game.outcome.payoffs)
    assert all(0 <= r.hands <= len(game.hand_results) for r in rows)
    assert all(0 <= r.sabacc_pots <= r.hands for r in rows)
    sabacc_pots = {p.pot for p in game.info.pots if p.sabacc}
    won = sum(len(p.winners) for h in game.hand_results for p in h.pots if p.pot in sabacc_pots)
    assert sum(r.sabacc_pots for r in rows) == won
    for r in rows:
        if r.best_hand is not None:
            assert set(r.best_hand) >= {"name", "rank", "key"}


def test_an_unfinished_game_has_no_summary() -> None:
    with pytest.raises(ValueError):
        summarise(sabacc.new_game("spike", players=["a", "b"], seed=1))


def test_ratings_move_winners_up_and_leave_bots_fixed() -> None:
    new = ratings.Rating(ratings.MU, ratings.SIGMA)
    after = ratings.update([new, new, None], [None, None, "hard"], [1, 3, 2])
    winner, loser, bot = after
    assert winner is not None and loser is not None and bot is None
    assert winner.mu > ratings.MU > loser.mu
    assert winner.sigma < ratings.SIGMA and loser.sigma < ratings.SIGMA
    # equal places: equal ratings
    a, b = ratings.update([new, new], [None, None], [1, 1])
    assert a is not None and b is not None and abs(a.mu - b.mu) < 1e-9
    # One scale: every bot shows its level's published rating; a new account starts below easy.
    for name, level in LEVELS.items():
        assert ratings.display(ratings.bot_rating(name)) == level.rating
        assert ratings.bot_rating(level.bot) == ratings.bot_rating(name)
    assert ratings.display(ratings.bot_rating("random")) == ratings.RANDOM_RATING
    assert ratings.display(new) < ratings.display(ratings.bot_rating("random"))
    assert ratings.display(ratings.Rating(ratings.MU, ratings.BOT_SIGMA)) == LEVELS["easy"].rating
    assert ratings.bot_rating("ismcts:200") == ratings.bot_rating("normal")


def test_which_games_are_rated() -> None:
    assert ratings.rated([1, 2, None])
    assert not ratings.rated([1, None, None])  # one account
    assert not ratings.rated([None, None])  # guests and bots
    assert not ratings.rated([1, 1, 2])  # one account in two seats


def _keys(source: str, lang: str) -> set[str]:
    block = re.search(rf"\n  {lang}: \{{\n(.*?)\n  \}},", source, re.S)
    assert block is not None, lang
    return set(re.findall(r"^\s{4}(\w+):", block.group(1), re.M))


def test_every_community_word_is_in_english_and_japanese() -> None:
    source = (WEB / "community_i18n.js").read_text(encoding="utf-8")
    en, ja = _keys(source, "en"), _keys(source, "ja")
    assert en and en == ja
    used = set(re.findall(r"\bt\(\"(\w+)\"", (WEB / "community.js").read_text(encoding="utf-8")))
    base = (WEB / "i18n.js").read_text(encoding="utf-8")
    missing = {k for k in used if k not in en and not re.search(rf"\n\s{{4}}{k}:", base)}
    assert not missing
