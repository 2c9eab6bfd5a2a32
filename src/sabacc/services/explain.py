"""Why a hand ended as it did: the showdown explanation every table shows (EN and JA).

:func:`explain_hand` turns a finished hand (its typed :class:`~sabacc.engine.game.HandResult`
and the events of that hand as the viewer saw them) into lines a newcomer can learn from:

- each pot's winner, the hand it won with, and what decided: the rank ("Yee-Haa outranks
  Nulrhek") or the tie-break at the first position where the two hands' keys differ
  (:attr:`~sabacc.engine.variant.VariantInfo.tiebreaks`: lower pair, closer to zero, positive
  beats negative, more cards, higher positive sum...), a true tie's blind draw or split;
- pots nobody contested (everyone else folded or junked), splits with each share;
- every penalty paid in the hand (bombing out, a called hand not won, fold fees; the variant's
  own penalty events, :attr:`~sabacc.engine.variant.VariantInfo.penalty_events`: Kessel's lost
  pot and penalty) with its reason;
- what carries over to the next hand, or, after the last hand, how the pots left were split;
- who is out of chips and leaves the game;
- each player's net for the hand.

Lines are phrased by the variant's vocabulary (:func:`sabacc.services.render.vocabulary`:
classic folds, Spike junks) for a viewer (their seat is "You"). The terminal table and the web
table both call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sabacc.core import events as ev
from sabacc.core.hands import HandValue
from sabacc.engine.game import HandResult, PotResult
from sabacc.engine.variant import VariantInfo
from sabacc.services.render import (
    Vocabulary,
    award_reason,
    describe_event,
    pot_name,
    vocabulary,
)

__all__ = ["PENALTY_REASONS", "deciding_tiebreak", "explain_hand"]

#: Payment reasons (``Paid.reason``) that are penalties rather than bets, antes or fees.
PENALTY_REASONS = frozenset({"bomb out", "caller did not win", "fold fee"})


def deciding_tiebreak(info: VariantInfo, winner: HandValue, other: HandValue) -> str | None:
    """What put ``winner`` ahead of ``other``: ``"rank"`` or a tie-break name from the variant's
    :attr:`~VariantInfo.tiebreaks`; ``None`` when the two hands are a true tie."""
    if winner.rank != other.rank:  # a better kind of hand, whatever its key's first place
        return "rank"
    for i, (a, b) in enumerate(zip(winner.key, other.key, strict=False)):
        if a != b:
            names = info.tiebreaks
            return names[i] if i < len(names) else names[-1]
    return None


class _Explainer:
    def __init__(
        self, info: VariantInfo, names: Sequence[str], viewer: int | None, lang: str
    ) -> None:
        self.info = info
        self.names = names
        self.viewer = viewer
        self.v: Vocabulary = vocabulary(info, lang)
        self.lang = lang

    def who(self, seat: int, *, subject: bool = True) -> str:
        if seat == self.viewer:
            return self.v.text("you" if subject else "you.object")
        return self.names[seat] if 0 <= seat < len(self.names) else self.v.text("seat", n=seat)

    def whose(self, seat: int) -> str:
        """``Bot 1's`` / ``your``."""
        if seat == self.viewer:
            return self.v.text("explain.your")
        return self.v.text("explain.possessive", who=self.who(seat))

    def say(self, key: str, seat: int, **params: Any) -> str:
        if seat == self.viewer and self.v.has_own(f"{key}.you"):
            key = f"{key}.you"
        return self.v.text(key, who=self.who(seat), **params)

    def pot(self, pot: str) -> str:
        return pot_name(self.v, pot, lambda seat: self.who(seat, subject=False))

    def hand(self, value: HandValue) -> str:
        name = self.v.hand(value.name)
        if value.name == str(value.total):  # classic's ordinary hands are named by their total
            return name
        return self.v.text("explain.hand", hand=name, total=f"{value.total:+d}")

    def reason(self, reason: str) -> str:
        found = award_reason(reason)
        if found is None:
            return reason
        key, fields = found
        return self.v.text(key, **{k: self.v.hand(val) for k, val in fields.items()})

    # ------------------------------------------------------------------ pots
    def pot_line(
        self, result: HandResult, pot: PotResult, played: Sequence[str] = ()
    ) -> str | None:
        """How ``pot`` was won; None for a pot nobody takes (a Kessel loser's own pot: its
        penalty event says it). ``played``: the words the hand's events name (a token played),
        by which a tie-break's words may go (Kessel's Cook the Books reverses the pairs)."""
        if not pot.winners:
            return None
        name, amount = self.pot(pot.pot), pot.amount
        if len(pot.winners) > 1:
            shares = self.v.text("list.sep").join(
                self.v.text("share", who=self.who(s, subject=False), amount=share)
                for s, share in zip(pot.winners, pot.shares, strict=True)
            )
            return self.v.text(
                "explain.split", pot=name, amount=amount, shares=shares,
                reason=self.reason(pot.reason),
            )  # fmt: skip
        seat = pot.winners[0]
        mine = result.hands.get(seat, ((), None))[1]
        # The hands this pot's winner beat: not those that won a pot of their own with a hand
        # as good (a side pot's better main-pot winner; Kessel's tied best hands).
        won_elsewhere = {s for p in result.pots if p is not pot for s in p.winners}
        others = [
            (s, value)
            for s, (_, value) in result.hands.items()
            if s not in pot.winners
            and value is not None
            and not (s in won_elsewhere and mine is not None and value >= mine)
        ]
        if mine is None or not others:
            return self.say(
                "explain.uncontested", seat, pot=name, amount=amount,
                reason=self.reason(pot.reason),
            )  # fmt: skip
        runner, best_other = max(others, key=lambda item: item[1])
        why = deciding_tiebreak(self.info, mine, best_other)
        params = {
            "pot": name,
            "amount": amount,
            "hand": self.hand(mine),
            "other": self.whose(runner),
            "other_hand": self.hand(best_other),
        }
        if why is None:  # a true tie broken by the engine (blind draw, sudden demise)
            return self.say("explain.tie_broken", seat, reason=self.reason(pot.reason), **params)
        if why == "rank":
            return self.say("explain.by_rank", seat, **params)
        # A variant may word a tie-break per kind of hand (Kessel: the same place of the key
        # is the pair of a Sabacc and the difference of other hands): tiebreak.<name>.<rank>.
        # A token played in the hand may change what decides (tiebreak.<name>.<rank>.<token>).
        keys = [f"tiebreak.{why}.{mine.rank}.{token}" for token in played]
        keys += [f"tiebreak.{why}.{mine.rank}", f"tiebreak.{why}"]
        tiebreak = self.v.text(next((k for k in keys if self.v.has(k)), keys[-1]))
        return self.say("explain.by_tiebreak", seat, tiebreak=tiebreak, **params)

    # ------------------------------------------------------------------ lines
    def lines(self, result: HandResult, events: Sequence[ev.Event]) -> list[str]:
        hand_events, after = _split_at_end(events, result.hand)
        # What the hand's events name (a token played, a reason...): the variant's text may
        # word a tie-break by one of them (Kessel: tiebreak.pair_or_difference.3.cook_the_books).
        played = [
            value
            for e in hand_events
            for key, value in e.to_dict().items()
            if key != "type" and isinstance(value, str)
        ]
        out = [
            line for pot in result.pots if (line := self.pot_line(result, pot, played)) is not None
        ]
        for event in hand_events:
            penalty = isinstance(event, ev.Paid) and event.reason in PENALTY_REASONS
            if penalty or isinstance(event, self.info.penalty_events):
                out.append(self.describe(event))
        final = [e for e in after if isinstance(e, ev.PotAwarded | ev.PotCarried)]
        if final:  # the last hand: what would have carried over is settled now
            out.append(self.v.text("explain.final_hand"))
            out.extend(self.describe(e) for e in final)
        else:
            for pot, amount in result.carried.items():
                if amount:
                    out.append(self.v.text("carried", pot=self.pot(pot), amount=amount))
        out.extend(self.describe(e) for e in [*hand_events, *after] if isinstance(e, ev.Eliminated))
        out.append(self.net_line(result))
        return out

    def describe(self, event: ev.Event) -> str:
        return describe_event(
            event, self.names, viewer=self.viewer, lang=self.lang, variant=self.info
        )

    def net_line(self, result: HandResult) -> str:
        seats = sorted(result.hands) or [s for s, n in enumerate(result.net) if n]
        seen = set(seats)
        seats += [s for s, n in enumerate(result.net) if n and s not in seen]
        nets = self.v.text("list.sep").join(
            self.v.text("share", who=self.who(s, subject=False), amount=f"{result.net[s]:+d}")
            for s in seats
            if s < len(result.net)
        )
        return self.v.text("explain.net", net=nets)


def _split_at_end(events: Sequence[ev.Event], hand: int) -> tuple[list[ev.Event], list[ev.Event]]:
    """The events of hand ``hand`` (up to its ``HandEnded``) and those after it (before the next
    hand starts: the game-end settlement)."""
    inside: list[ev.Event] = []
    after: list[ev.Event] = []
    state = "before"
    for event in events:
        if isinstance(event, ev.HandStarted):
            if state != "before":
                break
            state = "inside" if event.hand == hand else "before"
            if state == "inside":
                inside.append(event)
            continue
        if state == "inside":
            inside.append(event)
            if isinstance(event, ev.HandEnded):
                state = "after"
        elif state == "after":
            after.append(event)
    return inside, after


def explain_hand(
    info: VariantInfo,
    result: HandResult,
    names: Sequence[str],
    events: Sequence[ev.Event] = (),
    *,
    viewer: int | None = None,
    lang: str = "en",
) -> list[str]:
    """The lines explaining how hand ``result.hand`` ended, for ``viewer`` in ``lang``.

    ``events`` are the game's events as the viewer may see them (``game.events_for(viewer)``);
    only those of this hand and the game-end settlement right after it are read. Without them
    the penalties and the final settlement are not listed.
    """
    return _Explainer(info, names, viewer, lang).lines(result, events)
