"""The sabacc hand-history format (``sabacc-history``, version 1): read, write and validate.

A hand history is one game of any variant as a JSON document: the variant, its house rules, the
seed, the players and every action in order, enough for :func:`sabacc.replay` to rebuild the
game exactly; a file holds one document or a JSON array of them (a session's games).
``docs/history-format.md`` is the specification and ``history.schema.json`` (shipped beside this
module, :func:`schema`) its JSON Schema.

A document is checked in two steps: :func:`check` tests its shape against the schema (with a
small interpreter of the schema's keywords, so no third-party package is needed), and
:func:`validate` also replays it (every action must be legal for the seat that played it, and a
recorded result must be the replay's). :func:`from_record` converts a game stored by the web
server into a document (the server's history export).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import sabacc
from sabacc.core.errors import HistoryError, SabaccError
from sabacc.engine.game import HISTORY_FORMAT, HISTORY_VERSION

if TYPE_CHECKING:
    from sabacc.services.store import GameRecord

__all__ = [
    "FORMAT",
    "SCHEMA_FILE",
    "VERSION",
    "Problem",
    "check",
    "dumps",
    "from_record",
    "loads",
    "read",
    "schema",
    "validate",
    "write",
]

FORMAT = HISTORY_FORMAT
VERSION = HISTORY_VERSION
#: The JSON Schema's file name inside this package.
SCHEMA_FILE = "history.schema.json"


class _HasHistory(Protocol):
    def history(self) -> dict[str, Any]: ...


@dataclass(frozen=True, slots=True)
class Problem:
    """One reason a document is not a valid hand history, at a JSON Pointer (``/actions/3``)."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path or '/'}: {self.message}"


@cache
def _schema_text() -> str:
    return resources.files(__package__).joinpath(SCHEMA_FILE).read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The format's JSON Schema (draft 2020-12), a fresh copy."""
    out: dict[str, Any] = json.loads(_schema_text())
    return out


# ---------------------------------------------------------------------- the shape (schema)
_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, Mapping),
    "array": lambda v: isinstance(v, list | tuple),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class _Checker:
    """The subset of JSON Schema the format's schema uses, interpreted over a document."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def run(self, node: Any, value: Any, path: str) -> list[Problem]:
        if node is True:
            return []
        ref = node.get("$ref")
        if ref is not None:
            return self.run(self.root["$defs"][ref.rsplit("/", 1)[1]], value, path)
        if "const" in node and (value != node["const"] or type(value) is not type(node["const"])):
            return [Problem(path, f"must be {json.dumps(node['const'])}")]
        if "enum" in node and value not in node["enum"]:
            return [Problem(path, f"must be one of {', '.join(map(str, node['enum']))}")]
        kinds = node.get("type")
        if kinds is not None:
            kinds = [kinds] if isinstance(kinds, str) else kinds
            if not any(_TYPES[k](value) for k in kinds):
                return [Problem(path, f"must be {' or '.join(kinds)}")]
        out = self._one_of(node, value, path) if "oneOf" in node else []
        if isinstance(value, str):
            out += self._string(node, value, path)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            out += self._number(node, value, path)
        elif isinstance(value, list | tuple):
            out += self._array(node, value, path)
        elif isinstance(value, Mapping):
            out += self._object(node, value, path)
        return out

    def _one_of(self, node: Mapping[str, Any], value: Any, path: str) -> list[Problem]:
        tries = [self.run(branch, value, path) for branch in node["oneOf"]]
        fits = sum(1 for t in tries if not t)
        if fits == 1:
            return []
        if fits > 1:
            return [Problem(path, "matches more than one of its forms")]
        # The closest form: one of the value's JSON type, then one whose constants hold (an
        # "op" names its form), then the one whose problems lie deepest, then the fewest.
        return min(
            tries,
            key=lambda t: (
                t[0].path == path and t[0].message.startswith("must be "),
                any(p.message.startswith('must be "') for p in t),
                -min(len(p.path) for p in t),
                len(t),
            ),
        )

    def _string(self, node: Mapping[str, Any], value: str, path: str) -> list[Problem]:
        if len(value) < node.get("minLength", 0):
            return [Problem(path, "must not be empty")]
        pattern = node.get("pattern")
        if pattern is not None and not re.search(pattern, value):
            return [Problem(path, f"{value!r} is not of the form {pattern}")]
        return []

    def _number(self, node: Mapping[str, Any], value: float, path: str) -> list[Problem]:
        if "minimum" in node and value < node["minimum"]:
            return [Problem(path, f"must be at least {node['minimum']}")]
        if "maximum" in node and value > node["maximum"]:
            return [Problem(path, f"must be at most {node['maximum']}")]
        return []

    def _array(self, node: Mapping[str, Any], value: Sequence[Any], path: str) -> list[Problem]:
        if len(value) < node.get("minItems", 0):
            return [Problem(path, f"needs at least {node['minItems']} items")]
        if "maxItems" in node and len(value) > node["maxItems"]:
            return [Problem(path, f"has more than {node['maxItems']} items")]
        items = node.get("items")
        if items is None:
            return []
        return [p for i, v in enumerate(value) for p in self.run(items, v, f"{path}/{i}")]

    def _object(
        self, node: Mapping[str, Any], value: Mapping[str, Any], path: str
    ) -> list[Problem]:
        out = [Problem(path, f"needs {k!r}") for k in node.get("required", ()) if k not in value]
        props = node.get("properties", {})
        extra = node.get("additionalProperties", True)
        names = node.get("propertyNames")
        for key, item in value.items():
            where = f"{path}/{key}"
            if names is not None and self.run(names, key, where):
                out.append(Problem(where, "is not a valid name"))
            elif key in props:
                out += self.run(props[key], item, where)
            elif extra is False:
                out.append(Problem(where, "is not a field of a hand history here"))
            elif extra is not True:
                out += self.run(extra, item, where)
        return out


def check(doc: Any) -> list[Problem]:
    """Every way ``doc`` (one document, or a list of them) departs from the format's schema;
    empty if it has the shape of a hand history. The actions are not replayed (:func:`validate`
    does)."""
    many = isinstance(doc, list)
    for i, one in enumerate(doc if many else [doc]):
        alien = _alien(one)
        if alien is not None:
            return [Problem(f"/{i}" if many else "", alien)]
    root = json.loads(_schema_text())
    return _Checker(root).run(root, doc, "")


def _alien(doc: Any) -> str | None:
    """Why ``doc`` is not a hand history of this version at all (then nothing else is said)."""
    if not isinstance(doc, Mapping):
        return None
    if doc.get("format") != FORMAT:
        return f"not a sabacc hand history (its format must be {FORMAT!r})"
    if doc.get("version") != VERSION or isinstance(doc.get("version"), bool):
        return (
            f"unsupported hand-history version {doc.get('version')!r} "
            f"(this sabacc reads version {VERSION})"
        )
    return None


# ---------------------------------------------------------------------- meaning (replay)
def validate(doc: Any, *, replay: bool = True) -> list[Problem]:
    """:func:`check`, then (``replay``) replay each document: its variant and options must be
    known, every action legal for the seat that played it, every table change possible, and a
    recorded ``result`` must be the replayed game's outcome. Empty if ``doc`` is valid."""
    problems = check(doc)
    if problems or not replay:
        return problems
    many = isinstance(doc, list)
    for i, one in enumerate(doc if many else [doc]):
        problems += _replayed(one, f"/{i}" if many else "")
    return problems


def _replayed(doc: Mapping[str, Any], path: str) -> list[Problem]:
    try:
        game = sabacc.replay(doc, log=False)
    except SabaccError as exc:
        return [Problem(path, f"does not replay: {exc}")]
    if "result" not in doc:
        return []
    outcome = game.outcome
    replayed = outcome.to_dict() if outcome is not None else None
    if doc["result"] == replayed:
        return []
    if doc["result"] is None:
        return [Problem(f"{path}/result", "is null, but the game replays to its end")]
    if replayed is None:
        return [Problem(f"{path}/result", "is recorded, but the game replays unfinished")]
    return [Problem(f"{path}/result", f"is not the replayed outcome {json.dumps(replayed)}")]


# ---------------------------------------------------------------------- read, write
def loads(text: str | bytes) -> Any:
    """The hand history (or list of them) in ``text``; :class:`HistoryError` if it is not JSON
    or not of the format's shape (:func:`check`; not replayed)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise HistoryError(f"not JSON: {exc}") from None
    _raise_first(check(doc))
    return doc


def read(path: str | Path) -> Any:
    """The hand history (or list of them) in the file at ``path`` (see :func:`loads`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise HistoryError(f"cannot read {path}: {exc.strerror}") from None
    return loads(data)


def dumps(doc: _HasHistory | Mapping[str, Any] | Sequence[Any], *, indent: int | None = 1) -> str:
    """``doc`` (a document, a list of them, or a game: its :meth:`~sabacc.Game.history`) as the
    format's JSON text: UTF-8 names kept as they are, fields in the specification's order, a
    final newline. :class:`HistoryError` if it is not of the format's shape."""
    if not isinstance(doc, Mapping | Sequence):
        doc = doc.history()
    _raise_first(check(doc))
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


def write(doc: _HasHistory | Mapping[str, Any] | Sequence[Any], path: str | Path) -> None:
    """Write ``doc`` (see :func:`dumps`) to the file at ``path``, UTF-8."""
    Path(path).write_text(dumps(doc), encoding="utf-8")


def _raise_first(problems: list[Problem]) -> None:
    if problems:
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise HistoryError(f"not a valid sabacc hand history: {problems[0]}{more}")


# ---------------------------------------------------------------------- the server's games
def from_record(
    rec: GameRecord, *, table: str | None = None, source: str = "sabacc-server"
) -> dict[str, Any]:
    """The hand history of a game stored by the web server (a
    :class:`~sabacc.services.store.GameRecord` loaded with its actions): the replayable
    document, the moves its turn timer played marked ``"auto": true``, and a ``meta`` entry
    saying where (``table``: the table's code) and when it was played and which seats were
    bots. A game still in play has a ``null`` result."""
    doc = rec.history()
    for entry, stored in zip(doc["actions"], rec.actions, strict=True):
        if stored.auto:
            entry["auto"] = True
    meta: dict[str, Any] = {"source": source}
    if table is not None:
        meta["table"] = table
    meta["game"] = rec.number
    meta["started_at"] = rec.started_at.isoformat()
    meta["finished_at"] = rec.finished_at.isoformat() if rec.finished_at else None
    if any(rec.bots):
        meta["bots"] = list(rec.bots)
    doc["meta"] = meta
    return doc
