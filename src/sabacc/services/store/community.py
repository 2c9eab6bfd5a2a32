"""The store's community part: accounts, sessions, seat tokens owned by accounts, per-game
player summaries, ratings and friends (mixed into :class:`sabacc.services.store.Store`)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import combinations
from typing import Any

from sqlalchemy import String, case, cast, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased, sessionmaker

from sabacc.services.community.ratings import MU, SIGMA, Rating, display, rated
from sabacc.services.community.ratings import update as rate_game
from sabacc.services.community.stats import SeatSummary
from sabacc.services.store.models import (
    ActionRow,
    FriendRow,
    GameRow,
    PlayerGameRow,
    RatingRow,
    SeatLinkRow,
    SeatRow,
    SessionRow,
    TableRow,
    UserRow,
    utcnow,
)


class UsernameTaken(Exception):
    """Another account has this username (compared case-insensitively)."""


@dataclass(frozen=True)
class UserRecord:
    id: int
    username: str
    password_hash: str
    created_at: datetime


def _user(row: UserRow) -> UserRecord:
    return UserRecord(row.id, row.username, row.password_hash, _aware(row.created_at))


class CommunityStore:
    session: sessionmaker[Session]

    # ------------------------------------------------------------------ accounts
    def create_user(self, username: str, key: str, password_hash: str) -> UserRecord:
        try:
            with self.session.begin() as s:
                row = UserRow(
                    username=username, name_key=key, password_hash=password_hash,
                    created_at=utcnow(),
                )  # fmt: skip
                s.add(row)
                s.flush()
                return _user(row)
        except IntegrityError:
            raise UsernameTaken(username) from None

    def user_by_key(self, key: str) -> UserRecord | None:
        with self.session() as s:
            row = s.scalars(select(UserRow).where(UserRow.name_key == key)).first()
            return None if row is None else _user(row)

    def usernames_after(self, user_id: int, limit: int = 10_000) -> list[tuple[int, str]]:
        """``(id, username)`` of the accounts made after the account ``user_id`` (0: all),
        oldest first, at most ``limit``: the server's index of names to compare look-alikes
        with is kept by reading only the new ones."""
        with self.session() as s:
            rows = s.execute(
                select(UserRow.id, UserRow.username)
                .where(UserRow.id > user_id)
                .order_by(UserRow.id)
                .limit(limit)
            ).all()
        return [(int(i), str(n)) for i, n in rows]

    def user_by_id(self, user_id: int) -> UserRecord | None:
        with self.session() as s:
            row = s.get(UserRow, user_id)
            return None if row is None else _user(row)

    def set_password(self, user_id: int, password_hash: str) -> None:
        with self.session.begin() as s:
            s.execute(
                update(UserRow).where(UserRow.id == user_id).values(password_hash=password_hash)
            )

    def delete_user(self, user_id: int, deleted_name: str) -> set[str]:
        """Delete an account and its personal data: its sessions, seat-token links, ratings,
        friends; its seats and past games keep ``deleted_name`` instead of its name, and its
        game summaries stay (the other players' stats need them) without the account.
        Returns the seat-token hashes the account had (their seats are renamed)."""
        with self.session.begin() as s:
            hashes = set(
                s.scalars(select(SeatLinkRow.token_hash).where(SeatLinkRow.user_id == user_id))
            )
            if hashes:
                s.execute(
                    update(SeatRow).where(SeatRow.token_hash.in_(hashes)).values(name=deleted_name)
                )
                game_ids = s.scalars(
                    select(PlayerGameRow.game_id).where(PlayerGameRow.user_id == user_id)
                ).all()
                # Games where the account sat: rename its seats in the stored players list.
                for game in s.scalars(select(GameRow).where(GameRow.id.in_(set(game_ids)))):
                    players = list(game.players)
                    for i, token in enumerate(game.seat_tokens):
                        if token in hashes and i < len(players):
                            players[i] = deleted_name
                    game.players = players
                s.execute(
                    update(PlayerGameRow)
                    .where(PlayerGameRow.token_hash.in_(hashes))
                    .values(user_id=None)
                )
            s.execute(update(PlayerGameRow).where(PlayerGameRow.user_id == user_id).values(
                user_id=None
            ))  # fmt: skip
            for row in (SessionRow, SeatLinkRow, RatingRow):
                s.execute(delete(row).where(row.user_id == user_id))
            s.execute(
                delete(FriendRow).where(
                    (FriendRow.user_id == user_id) | (FriendRow.friend_id == user_id)
                )
            )
            s.execute(delete(UserRow).where(UserRow.id == user_id))
        return hashes

    # ------------------------------------------------------------------ sessions
    def create_session(self, token_hash: str, user_id: int, expires_at: datetime) -> None:
        with self.session.begin() as s:
            s.add(
                SessionRow(
                    token_hash=token_hash, user_id=user_id, created_at=utcnow(),
                    expires_at=expires_at,
                )
            )  # fmt: skip

    def session_user(self, token_hash: str) -> UserRecord | None:
        """The account a session cookie belongs to, if the session exists and has not expired
        (an expired one is deleted)."""
        with self.session() as s:
            row = s.execute(
                select(UserRow, SessionRow.expires_at)
                .join(SessionRow, SessionRow.user_id == UserRow.id)
                .where(SessionRow.token_hash == token_hash)
            ).first()
        if row is None:
            return None
        user, expires = row
        if _aware(expires) <= utcnow():
            self.delete_session(token_hash)
            return None
        return _user(user)

    def delete_session(self, token_hash: str) -> None:
        with self.session.begin() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == token_hash))

    def delete_sessions(self, user_id: int, keep: str | None = None) -> None:
        """Log an account out everywhere (but the session ``keep``)."""
        with self.session.begin() as s:
            query = delete(SessionRow).where(SessionRow.user_id == user_id)
            if keep is not None:
                query = query.where(SessionRow.token_hash != keep)
            s.execute(query)

    # ------------------------------------------------------------------ seat tokens
    def link_tokens(self, user_id: int, hashes: Iterable[str]) -> int:
        """Make the seat tokens ``hashes`` the account's (a token already owned by another
        account stays theirs); their finished games count for the account from now on.
        Returns how many were linked."""
        wanted = set(hashes)
        if not wanted:
            return 0
        with self.session.begin() as s:
            owned = set(
                s.scalars(select(SeatLinkRow.token_hash).where(SeatLinkRow.token_hash.in_(wanted)))
            )
            new = wanted - owned
            now = utcnow()
            for token_hash in sorted(new):
                s.add(SeatLinkRow(token_hash=token_hash, user_id=user_id, created_at=now))
            s.flush()
            mine = set(
                s.scalars(
                    select(SeatLinkRow.token_hash).where(
                        SeatLinkRow.token_hash.in_(wanted), SeatLinkRow.user_id == user_id
                    )
                )
            )
            if mine:
                s.execute(
                    update(PlayerGameRow)
                    .where(PlayerGameRow.token_hash.in_(mine), PlayerGameRow.user_id.is_(None))
                    .values(user_id=user_id)
                )
        if new:
            self.summarise_old_games(new)
        return len(new)

    def summarise_old_games(self, hashes: Iterable[str], limit: int = 500) -> int:
        """Store the summaries of finished games played with the seat tokens ``hashes`` that
        have none (games finished before summaries were kept: replayed from their actions),
        so that they count in the owner's stats (not in ratings: those are never made up
        afterwards). Returns how many games were summarised."""
        from sabacc import replay
        from sabacc.services.community.stats import summarise

        wanted = set(hashes)
        done = 0
        with self.session() as s:
            summarised = select(PlayerGameRow.game_id).where(PlayerGameRow.game_id == GameRow.id)
            mentions = or_(*(cast(GameRow.seat_tokens, String).contains(h) for h in wanted))
            candidates = s.scalars(
                select(GameRow)
                .where(GameRow.finished_at.is_not(None), ~summarised.exists(), mentions)
                .limit(limit)
            ).all()
            games = [
                (g.id, g.variant, list(g.seat_tokens), list(g.bots), _document(g))
                for g in candidates
                if wanted & {t for t in g.seat_tokens if t}
            ]
            for game_id, _variant, _tokens, _bots, doc in games:
                doc["actions"] = [
                    {"seat": seat, "action": action}
                    for seat, action in s.execute(
                        select(ActionRow.seat, ActionRow.action)
                        .where(ActionRow.game_id == game_id)
                        .order_by(ActionRow.idx)
                    )
                ]
        for game_id, variant, tokens, bots, doc in games:
            try:
                game = replay(doc)
                if not game.is_over:
                    continue
                summaries = summarise(game)
            except Exception:  # a game that no longer replays: left out of the stats
                continue
            self.record_results(game_id, variant, tokens, bots, summaries, rate=False)
            done += 1
        return done

    def token_owners(self, hashes: Iterable[str | None]) -> dict[str, int]:
        wanted = {h for h in hashes if h}
        if not wanted:
            return {}
        with self.session() as s:
            rows = s.execute(
                select(SeatLinkRow.token_hash, SeatLinkRow.user_id).where(
                    SeatLinkRow.token_hash.in_(wanted)
                )
            ).all()
        return {str(h): int(u) for h, u in rows}

    # ------------------------------------------------------------------ results and ratings
    def record_results(
        self,
        game_id: int,
        variant: str,
        tokens: Sequence[str | None],
        bots: Sequence[str | None],
        summaries: Sequence[SeatSummary],
        *,
        rate: bool = True,
        linked: Collection[tuple[int, int]] = (),
        pair_limit: int = 0,
    ) -> bool:
        """Store a finished game's human seats' summaries and, if it is rated (two accounts
        or more), update the ratings of its accounts. Once per game: a second call changes
        nothing. Returns whether the game was rated.

        Rating integrity (issue 31 S5): the game is not rated when two different accounts hold
        seats the server ``linked`` (pairs of seats taken from one address or device), nor when
        a pair of its accounts has had ``pair_limit`` rated games together (0: no limit) in the
        last :data:`PAIR_WINDOW`."""
        with self.session.begin() as s:
            if s.scalar(select(PlayerGameRow.id).where(PlayerGameRow.game_id == game_id)):
                return False
            owners = dict(
                s.execute(
                    select(SeatLinkRow.token_hash, SeatLinkRow.user_id).where(
                        SeatLinkRow.token_hash.in_({t for t in tokens if t})
                    )
                ).all()
            )
            users: list[int | None] = [owners.get(t) if t else None for t in tokens]
            is_rated = rate and rated(users)
            if is_rated and _linked_accounts(users, linked):
                is_rated = False
            if is_rated and pair_limit > 0 and _pair_played_out(s, users, pair_limit):
                is_rated = False
            now = utcnow()
            for summary in summaries:
                seat = summary.seat
                if bots[seat] is not None:
                    continue
                s.add(
                    PlayerGameRow(
                        game_id=game_id, seat=seat, token_hash=tokens[seat],
                        user_id=users[seat], variant=variant, players=len(tokens),
                        place=summary.place, net=summary.net, hands=summary.hands,
                        sabacc_pots=summary.sabacc_pots, best_hand=summary.best_hand,
                        rated=is_rated and users[seat] is not None, finished_at=now,
                    )
                )  # fmt: skip
            if not is_rated:
                return False
            accounts = [u for u in users if u is not None]
            rows = {
                r.user_id: r
                for r in s.scalars(
                    select(RatingRow).where(
                        RatingRow.user_id.in_(accounts), RatingRow.variant == variant
                    )
                )
            }
            before: list[Rating | None] = []
            for u in users:
                if u is None:
                    before.append(None)
                elif u in rows:
                    before.append(Rating(rows[u].mu, rows[u].sigma))
                else:
                    before.append(Rating(MU, SIGMA))
            places = [0] * len(tokens)
            for summary in summaries:
                places[summary.seat] = summary.place
            after = rate_game(before, bots, places)
            for seat, u in enumerate(users):
                new = after[seat]
                if u is None or new is None:
                    continue
                row = rows.get(u)
                if row is None:
                    s.add(RatingRow(
                        user_id=u, variant=variant, mu=new.mu, sigma=new.sigma, games=1,
                        updated_at=now,
                    ))  # fmt: skip
                else:
                    row.mu, row.sigma, row.games, row.updated_at = (
                        new.mu, new.sigma, row.games + 1, now,
                    )  # fmt: skip
            return True

    # ------------------------------------------------------------------ profiles
    def profile(self, user_id: int, recent: int = 10) -> dict[str, Any]:
        """An account's stats per variant, its ratings and its most recent games (the code and
        link of a game at an unlisted table are None: a profile is public)."""
        with self.session() as s:
            rows = s.execute(
                select(
                    PlayerGameRow.variant,
                    func.count(),
                    func.sum(PlayerGameRow.hands),
                    func.sum(PlayerGameRow.net),
                    func.sum(PlayerGameRow.sabacc_pots),
                    func.sum(case((PlayerGameRow.place == 1, 1), else_=0)),
                )
                .where(PlayerGameRow.user_id == user_id)
                .group_by(PlayerGameRow.variant)
            ).all()
            bests: dict[str, dict[str, Any]] = {}
            for variant, best in s.execute(
                select(PlayerGameRow.variant, PlayerGameRow.best_hand).where(
                    PlayerGameRow.user_id == user_id, PlayerGameRow.best_hand.is_not(None)
                )
            ):
                if not isinstance(best, dict):
                    continue
                kept = bests.get(variant)
                if kept is None or list(best.get("key", [])) > list(kept.get("key", [])):
                    bests[variant] = best
            ratings = {
                r.variant: r
                for r in s.scalars(select(RatingRow).where(RatingRow.user_id == user_id))
            }
            games = s.execute(
                select(
                    PlayerGameRow.variant, PlayerGameRow.place, PlayerGameRow.players,
                    PlayerGameRow.net, PlayerGameRow.rated, PlayerGameRow.finished_at,
                    GameRow.number, TableRow.code, TableRow.name, TableRow.listed,
                )
                .join(GameRow, GameRow.id == PlayerGameRow.game_id)
                .join(TableRow, TableRow.id == GameRow.table_id)
                .where(PlayerGameRow.user_id == user_id)
                .order_by(PlayerGameRow.finished_at.desc(), PlayerGameRow.id.desc())
                .limit(recent)
            ).all()  # fmt: skip
        variants = []
        for variant, count, hands, net, pots, wins in rows:
            best = bests.get(variant)
            rating = ratings.get(variant)
            variants.append(
                {
                    "variant": variant,
                    "games": int(count),
                    "hands": int(hands or 0),
                    "net": int(net or 0),
                    "wins": int(wins or 0),
                    "win_rate": round(int(wins or 0) / int(count), 3) if count else 0.0,
                    "sabacc_pots": int(pots or 0),
                    "best_hand": None
                    if best is None
                    else {k: v for k, v in best.items() if k != "key"},
                    "rating": None if rating is None else _rating_json(rating),
                }
            )
        return {
            "variants": variants,
            "recent": [
                {
                    "variant": g.variant, "place": g.place, "players": g.players, "net": g.net,
                    "rated": g.rated, "finished_at": _aware(g.finished_at).isoformat(),
                    "game": g.number, "table_name": g.name,
                    # A profile is public: an unlisted table's code (its only secret) stays out.
                    "table": g.code if g.listed else None,
                    "url": f"/t/{g.code}?game={g.number}" if g.listed else None,
                }
                for g in games
            ],
        }  # fmt: skip

    def leaders(
        self, variant: str, min_games: int, limit: int = 50, *, bots: bool = False
    ) -> list[dict[str, Any]]:
        """The accounts rated in ``variant`` with at least ``min_games`` rated games, best
        first (by the ordinal ``mu - 3 sigma``): the people's, or with ``bots`` the bot
        accounts' (the two never share a leaderboard)."""
        from sabacc.services.store.api_tokens import is_bot_clause

        bot = is_bot_clause()
        with self.session() as s:
            rows = s.execute(
                select(UserRow.username, RatingRow)
                .join(RatingRow, RatingRow.user_id == UserRow.id)
                .where(RatingRow.variant == variant, RatingRow.games >= min_games)
                .where(bot if bots else ~bot)
                .order_by((RatingRow.mu - 3 * RatingRow.sigma).desc(), UserRow.username)
                .limit(limit)
            ).all()
        return [{"username": name, **_rating_json(r)} for name, r in rows]

    # ------------------------------------------------------------------ friends
    def add_friend(self, user_id: int, friend_id: int) -> bool:
        with self.session.begin() as s:
            if s.get(FriendRow, (user_id, friend_id)) is not None:
                return False
            s.add(FriendRow(user_id=user_id, friend_id=friend_id, created_at=utcnow()))
            return True

    def remove_friend(self, user_id: int, friend_id: int) -> None:
        with self.session.begin() as s:
            s.execute(
                delete(FriendRow).where(
                    FriendRow.user_id == user_id, FriendRow.friend_id == friend_id
                )
            )

    def friends(self, user_id: int) -> list[tuple[int, str]]:
        with self.session() as s:
            rows = s.execute(
                select(UserRow.id, UserRow.username)
                .join(FriendRow, FriendRow.friend_id == UserRow.id)
                .where(FriendRow.user_id == user_id)
                .order_by(UserRow.name_key)
            ).all()
        return [(int(i), str(n)) for i, n in rows]


def _document(row: GameRow) -> dict[str, Any]:
    """A stored game's hand-history document, its actions still to be added."""
    from sabacc.engine.game import HISTORY_FORMAT, HISTORY_VERSION

    return {
        "format": HISTORY_FORMAT, "version": HISTORY_VERSION, "variant": row.variant,
        "options": dict(row.options or {}), "seed": int(row.seed), "players": list(row.players),
        "actions": [], "result": row.result,
    }  # fmt: skip


def _rating_json(row: RatingRow) -> dict[str, Any]:
    rating = Rating(row.mu, row.sigma)
    return {
        "rating": display(rating),
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "games": row.games,
    }


def _aware(moment: datetime) -> datetime:
    """SQLite gives back naive datetimes (stored as UTC)."""
    from datetime import UTC

    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


#: The window of :meth:`CommunityStore.record_results`'s limit on one pair's rated games.
PAIR_WINDOW = timedelta(days=1)


def _linked_accounts(users: Sequence[int | None], linked: Collection[tuple[int, int]]) -> bool:
    """Whether two different accounts hold a pair of ``linked`` seats."""
    for a, b in linked:
        if 0 <= a < len(users) and 0 <= b < len(users):
            ua, ub = users[a], users[b]
            if ua is not None and ub is not None and ua != ub:
                return True
    return False


def _pair_played_out(s: Session, users: Sequence[int | None], limit: int) -> bool:
    """Whether a pair of the accounts ``users`` had ``limit`` rated games together lately."""
    accounts = sorted({u for u in users if u is not None})
    since = utcnow() - PAIR_WINDOW
    mine, theirs = aliased(PlayerGameRow), aliased(PlayerGameRow)
    for a, b in combinations(accounts, 2):
        together = s.scalar(
            select(func.count(func.distinct(mine.game_id)))
            .join(theirs, theirs.game_id == mine.game_id)
            .where(
                mine.user_id == a, mine.rated.is_(True), mine.finished_at >= since,
                theirs.user_id == b, theirs.rated.is_(True),
            )
        )  # fmt: skip
        if int(together or 0) >= limit:
            return True
    return False
