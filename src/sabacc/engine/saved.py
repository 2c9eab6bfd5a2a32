"""A game's whole state as plain JSON-able data, and back: :meth:`Game.save` / :meth:`Game.restore`.

Every variant's reference game is saved the same way: its attributes (stacks, pots, hands,
piles, the variant's own state, the action log, the finished hands' results, the seat changes)
encoded by type, the options as the history writes them, and the exact RNG state. A restored
game goes on exactly as the original would: the same legal actions, the same cards to come,
the same history. The event log is not kept (the restored game's starts empty).

The encoding is unambiguous JSON: numbers, text, true/false, null and lists stand for
themselves; every JSON object is a tag: ``{"tuple": [...]}``, ``{"set": [...]}``,
``{"frozenset": [...]}``, ``{"dict": [[key, value], ...]}``, ``{"card": id}`` (a card of the
game's deck) and ``{"object": name, "fields": {...}}`` (one of the dataclasses a game may hold:
:attr:`Game.saved_types <sabacc.engine.game.Game.saved_types>`). Nothing else is read back, so a
save cannot name arbitrary code.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from sabacc.core.cards import Card
from sabacc.core.errors import SaveError

if TYPE_CHECKING:
    from sabacc.engine.game import Game

SAVE_FORMAT = "sabacc-game"
SAVE_VERSION = 1
#: Attributes not saved: the event log (a restored game's starts empty), caches, and what the
#: save keeps in its own fields (options, RNG, logging switch).
SKIPPED = frozenset(
    {"events", "_pending", "_legal", "rng", "options", "log", "_subdeck", "_hand_rounds"}
)


def dump(game: Game, types: Iterable[type]) -> dict[str, Any]:
    """The save document of ``game`` (see the module docstring); ``types``: the dataclasses
    its state may hold."""
    rng = game.rng
    if type(rng) is not random.Random:
        raise SaveError("only a game drawing from its own seeded RNG can be saved (not chance)")
    version, internal, gauss = rng.getstate()
    names = {cls: cls.__qualname__ for cls in types}
    state = {
        key: _encode(value, names, key)
        for key, value in game.__dict__.items()
        if key not in SKIPPED
    }
    sub = game.__dict__.get("_subdeck")
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "variant": game.variant,
        "options": game.options.changed(),
        "cards": None if sub is None else [c.id for c in sub.cards],
        "rng": {"version": version, "state": list(internal), "gauss": gauss},
        "state": state,
    }


def _encode(value: Any, names: Mapping[type, str], where: str) -> Any:
    t = type(value)
    if value is None or t is bool or t is int or t is str or t is float:
        return value
    if t is list:
        return [_encode(v, names, where) for v in value]
    if t is tuple:
        return {"tuple": [_encode(v, names, where) for v in value]}
    if t is set or t is frozenset:
        items = sorted(value, key=repr)
        return {t.__name__: [_encode(v, names, where) for v in items]}
    if t is dict:
        pairs = [[_encode(k, names, where), _encode(v, names, where)] for k, v in value.items()]
        return {"dict": pairs}
    if t is Card:
        return {"card": value.id}
    name = names.get(t)
    if name is not None:
        return {
            "object": name,
            "fields": {
                f.name: _encode(getattr(value, f.name), names, where)
                for f in dataclasses.fields(value)
            },
        }
    raise SaveError(f"cannot save {where}: a {t.__name__} is not plain game data")


def load(cls: type[Game], doc: Mapping[str, Any], types: Iterable[type], *, log: bool) -> Game:
    """The game ``doc`` (a :func:`dump` document) describes, as an instance of ``cls``."""
    if not isinstance(doc, Mapping) or doc.get("format") != SAVE_FORMAT:
        raise SaveError(f"not a saved sabacc game (format must be {SAVE_FORMAT!r})")
    if doc.get("version") != SAVE_VERSION:
        raise SaveError(
            f"unsupported saved-game version {doc.get('version')!r} (this sabacc reads "
            f"version {SAVE_VERSION})"
        )
    info = cls.info
    if doc.get("variant") != info.name:
        raise SaveError(f"a saved {doc.get('variant')!r} game is not {info.title}")
    try:
        options = info.options_type.from_mapping(dict(doc.get("options") or {}))
        rng_doc = doc["rng"]
        rng = random.Random()
        rng.setstate(
            (int(rng_doc["version"]), tuple(int(w) for w in rng_doc["state"]), rng_doc["gauss"])
        )
        game = object.__new__(cls)
        game.options = options
        full = {c.id: c for c in game.deck.cards}
        if doc.get("cards") is not None:
            game._subdeck = game._deck_subset([full[int(i)] for i in doc["cards"]])
        by_name = {t.__qualname__: t for t in types}
        state = doc["state"]
        if not isinstance(state, Mapping):
            raise SaveError("a saved game's state must be an object")
        for key, value in state.items():
            if key in SKIPPED or not isinstance(key, str):
                raise SaveError(f"a saved game's state has no field {key!r}")
            game.__dict__[key] = _decode(value, full, by_name)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SaveError(f"malformed saved game: {exc!r}") from None
    game.rng = rng
    game.log = log
    game.events = []
    game._pending = []
    game._legal = None
    return game


def _decode(value: Any, cards: Mapping[int, Card], types: Mapping[str, type]) -> Any:
    if value is None or type(value) in (bool, int, str, float):
        return value
    if type(value) is list:
        return [_decode(v, cards, types) for v in value]
    if not isinstance(value, Mapping) or len(value) not in (1, 2):
        raise SaveError(f"malformed saved value {value!r}")
    if "tuple" in value:
        return tuple(_decode(v, cards, types) for v in value["tuple"])
    if "set" in value:
        return {_decode(v, cards, types) for v in value["set"]}
    if "frozenset" in value:
        return frozenset(_decode(v, cards, types) for v in value["frozenset"])
    if "dict" in value:
        return {_decode(k, cards, types): _decode(v, cards, types) for k, v in value["dict"]}
    if "card" in value:
        return cards[int(value["card"])]
    if "object" in value:
        cls = types.get(value["object"])
        if cls is None:
            raise SaveError(f"a saved game holds no {value['object']!r}")
        fields = {k: _decode(v, cards, types) for k, v in value["fields"].items()}
        return cls(**fields)
    raise SaveError(f"malformed saved value {value!r}")
