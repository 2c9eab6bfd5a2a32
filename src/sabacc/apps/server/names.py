"""Look-alike names (issue 31 S11): nobody may pass for an account or a bot by a name that
only looks the same (``L\u0430ndo`` with a Cyrillic a for ``Lando``, ``R2\u2010D2`` with a
Unicode hyphen for the bot ``R2-D2``).

Two names are alike when one of their *skeletons* is equal: the name in Unicode NFKC, each
character replaced by one representative of its class of confusable characters (Unicode's
confusables data, as the ``confusable_homoglyphs`` package ships it: two characters it lists
as homoglyphs of each other are in one class), case-folded (or upper-cased), replaced again,
and ``-``, ``_``, ``.`` and spaces dropped. A guest's name is refused if it is like an
account's username (``name_taken``) or a reserved name (``reserved_name``): the bots' seat
names, the bot levels and bot names, the server's roles (``host``, ``admin``, ``dealer``...).
A new username is refused if it is like an existing account's (``username_taken``) or a
reserved name (``reserved_username``).

The accounts' skeletons are kept in memory per store (:class:`NameIndex`), read from the store
incrementally (only accounts made since the last read; all again every few minutes, so deleted
accounts leave and the other servers of a cluster are followed).
"""

from __future__ import annotations

import time
import unicodedata
import weakref
from functools import cache
from typing import TYPE_CHECKING

from sabacc.apps.server.errors import ServerError
from sabacc.services.store import Store

if TYPE_CHECKING:
    from sabacc.apps.server.manager import TableManager

#: Characters a name's skeleton ignores (what separates words in a name).
IGNORED = frozenset("-_. \u00a0")
#: The server's roles no guest may sit as (accounts have more: accounts.RESERVED_WORDS).
ROLES = (
    "host", "admin", "administrator", "root", "system", "server", "sabacc", "moderator",
    "mod", "staff", "support", "official", "dealer", "deleted player",
)  # fmt: skip
#: Seconds between reads of new accounts, and between full rebuilds of the index.
REFRESH = 1.0
REBUILD = 300.0


@cache
def _classes() -> dict[str, str]:
    """Each confusable character's representative: an ASCII member of its class if it has
    one (the smallest), else its smallest member."""
    from confusable_homoglyphs import confusables

    parent: dict[str, str] = {}

    def find(ch: str) -> str:
        root = ch
        while parent.get(root, root) != root:
            root = parent[root]
        while parent.get(ch, ch) != root:
            parent[ch], ch = root, parent[ch]
        return root

    def key(ch: str) -> tuple[bool, str]:
        return (not ch.isascii(), ch)

    for source, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"].strip("\u200e\u200f")
            if len(source) != 1 or len(other) != 1:
                continue  # a sequence ("rn" for "m"): not a one-for-one swap
            a, b = find(source), find(other)
            if a != b:
                low, high = sorted((a, b), key=key)
                parent[high] = low
    return {ch: find(ch) for ch in parent}


def _swap(text: str) -> str:
    classes = _classes()
    return "".join(classes.get(ch, ch) for ch in text)


def skeletons(name: str) -> tuple[str, str]:
    """The forms look-alike names share (see the module's docstring): the name swapped,
    case-folded and swapped again, and the name swapped, upper-cased and swapped again (the
    confusables data are case-sensitive: ``l`` is like ``I``, ``O`` like ``0``, but ``o`` is
    not like ``0``; one of the two forms catches each)."""
    text = _swap(unicodedata.normalize("NFKC", name))
    out = (_swap(text.casefold()), _swap(text.casefold().upper()))
    a, b = ("".join(ch for ch in form if ch not in IGNORED and not ch.isspace()) for form in out)
    return a, b


@cache
def reserved_skeletons() -> frozenset[str]:
    from sabacc.apps.server.community import reserved_names

    return frozenset(k for n in (*reserved_names(), *ROLES) for k in skeletons(n))


def _reserved(name: str) -> bool:
    return any(k in reserved_skeletons() for k in skeletons(name))


class NameIndex:
    """The skeletons of one store's usernames."""

    def __init__(self) -> None:
        self.owners: dict[str, str] = {}
        self.last_id = 0
        self.read_at = -1e9
        self.built_at = -1e9

    def add(self, username: str) -> None:
        for key in skeletons(username):
            self.owners.setdefault(key, username)

    def like(self, name: str) -> str | None:
        """The username ``name`` looks like, if any."""
        for key in skeletons(name):
            if key in self.owners:
                return self.owners[key]
        return None

    def refresh(self, store: Store) -> None:
        """Read the accounts made since the last read (all of them now and then)."""
        now = time.monotonic()
        if now - self.read_at < REFRESH:
            return
        if now - self.built_at >= REBUILD:
            self.owners, self.last_id, self.built_at = {}, 0, now
        while True:
            rows = store.usernames_after(self.last_id)
            for user_id, username in rows:
                self.add(username)
                self.last_id = user_id
            if len(rows) < 10_000:
                break
        self.read_at = now


_INDEXES: weakref.WeakKeyDictionary[Store, NameIndex] = weakref.WeakKeyDictionary()


async def _account_like(manager: TableManager, name: str) -> str | None:
    index = _INDEXES.setdefault(manager.store, NameIndex())
    await manager.read(lambda: index.refresh(manager.store))
    return index.like(name)


async def check_guest_name(manager: TableManager, name: str) -> None:
    """Refuse (409) a guest's name that looks like a reserved name or an account's."""
    if _reserved(name):
        raise ServerError(
            "reserved_name",
            f"{name!r} looks like a bot's or the server's name: choose another name",
            status=409,
        )
    owner = await _account_like(manager, name)
    if owner is not None:
        raise ServerError(
            "name_taken",
            f"{name!r} looks like the account name {owner!r}: log in as them, or choose "
            "another name",
            status=409,
        )


async def check_new_username(manager: TableManager, username: str) -> None:
    """Refuse a new username that looks like a reserved name (400) or an account's (409)."""
    if _reserved(username):
        raise ServerError("reserved_username", f"the name {username!r} is reserved: choose another")
    owner = await _account_like(manager, username)
    if owner is not None:
        raise ServerError(
            "username_taken",
            f"the username {username!r} is taken: it looks like {owner!r}",
            status=409,
        )


def account_made(manager: TableManager, username: str) -> None:
    """A new account of this server: in its index at once."""
    _INDEXES.setdefault(manager.store, NameIndex()).add(username)


def account_deleted(manager: TableManager) -> None:
    """An account of this server was deleted: its name may be taken again, so the index is
    read anew at its next use (another server of a cluster reads it anew within REBUILD)."""
    index = _INDEXES.get(manager.store)
    if index is not None:
        index.built_at = index.read_at = -1e9
