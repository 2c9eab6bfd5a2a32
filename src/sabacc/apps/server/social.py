"""Limits on friends and invitations (issue 31 S12): how many accounts one account may follow
(``Settings.friends_max``), how many it may add in an hour (``friend_adds_per_hour``), and how
many of its invitations may be pending at once (``invites_pending``, within an invitation's
lifetime, an hour). Past any of them the request is refused with a clear error and nothing
changes, so one account cannot flood others' friend lists or invitation boxes.

The counters of one server live in :class:`SocialLimits` (``app.state.social``); the number of
friends is read from the store.
"""

from __future__ import annotations

import time
from collections import deque

from fastapi import Request

from sabacc.apps.server.errors import ServerError
from sabacc.apps.server.settings import Settings

#: Seconds an invitation stays pending (the community layer's INVITE_TTL) and the window of
#: friend additions.
HOUR = 3600.0


def check_friends(settings: Settings, friends: int) -> None:
    """Refuse one more friend to an account that follows ``friends`` (409 at the most)."""
    if settings.friends_max > 0 and friends >= settings.friends_max:
        raise ServerError(
            "too_many_friends",
            f"you follow {friends} players, the most one account may: remove one first",
            status=409,
        )


def too_many_friend_requests(settings: Settings) -> ServerError:
    n = settings.friend_adds_per_hour
    return ServerError(
        "too_many_friend_requests",
        f"one account may add {n} friends an hour: try again later",
        status=429,
    )


def too_many_invites(settings: Settings) -> ServerError:
    return ServerError(
        "too_many_invites",
        f"you have {settings.invites_pending} invitations pending (each lasts an hour): "
        "try again when one has lapsed",
        status=429,
    )


class SocialLimits:
    """Sliding windows of friend additions and invitations, per account id."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.adds: dict[int, deque[float]] = {}
        self.invites: dict[int, deque[float]] = {}

    @staticmethod
    def _recent(book: dict[int, deque[float]], who: int, now: float) -> deque[float]:
        times = book.setdefault(who, deque())
        while times and times[0] <= now - HOUR:
            times.popleft()
        return times

    def friend_added(self, who: int, friends: int, now: float | None = None) -> None:
        """Count one friend added by ``who`` (who follows ``friends`` accounts now), or refuse."""
        s = self.settings
        check_friends(s, friends)
        now = time.monotonic() if now is None else now
        times = self._recent(self.adds, who, now)
        if s.friend_adds_per_hour > 0 and len(times) >= s.friend_adds_per_hour:
            raise too_many_friend_requests(s)
        times.append(now)

    def invite_sent(self, who: int, now: float | None = None) -> None:
        """Count one invitation sent by ``who``, or refuse past its pending invitations."""
        limit = self.settings.invites_pending
        now = time.monotonic() if now is None else now
        times = self._recent(self.invites, who, now)
        if limit > 0 and len(times) >= limit:
            raise too_many_invites(self.settings)
        times.append(now)

    def sweep(self, now: float | None = None) -> None:
        """Forget the accounts with nothing in their windows."""
        now = time.monotonic() if now is None else now
        for book in (self.adds, self.invites):
            for who in [w for w in book if not self._recent(book, w, now)]:
                del book[who]


def social_limits(request: Request, settings: Settings) -> SocialLimits:
    """The app's :class:`SocialLimits` (made on first use, swept as it is used)."""
    state = request.app.state
    limits: SocialLimits | None = getattr(state, "social", None)
    if limits is None:
        limits = state.social = SocialLimits(settings)
        state.social_swept = time.monotonic()
    if time.monotonic() - state.social_swept > 60.0:
        limits.sweep()
        state.social_swept = time.monotonic()
    return limits
