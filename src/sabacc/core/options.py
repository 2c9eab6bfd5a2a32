"""Options: the house rules of a variant, as a frozen, validated dataclass.

Options are frozen dataclasses validated in ``__post_init__``; every field is a documented house
rule a user can set (Python keyword, CLI ``--option name=value``, web table settings). What a UI
needs to draw a field is declared, not coded: ``help`` texts, ``Literal[...]`` annotations for
choices (dropdowns), ``bounds`` for whole numbers; :func:`option_specs` publishes them and
:func:`validate_fields` checks every value against them.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from sabacc.core.errors import OptionError

OptionsT = TypeVar("OptionsT", bound="Options")
_DEFAULTS: dict[type, Options] = {}


def _choice(name: str, value: object, allowed: tuple[Any, ...]) -> None:
    if value not in allowed:
        raise OptionError(
            f"option {name}={value!r}: must be one of {', '.join(str(a) for a in allowed)}"
        )


def _at_least(name: str, value: int | None, low: int) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < low):
        raise OptionError(f"option {name}={value!r}: must be a whole number >= {low}")


@dataclass(frozen=True)
class Options:
    """Options every variant has. See docs/options.md for the meaning of each."""

    help: ClassVar[dict[str, str]] = {
        "buy_in": "starting credits per player (default: 100 x ante)",
        "ante": "ante to the main/hand pot each hand; also the betting unit",
        "sabacc_ante": "ante to the sabacc pot each hand",
        "game_end": "orbit (dealer goes round once) | last_standing | hands:N",
        "max_hands": "safety cap on the number of hands (none = no cap)",
        "final_pot": "what happens to pots left at game end: split (among players left) | house",
    }
    #: Fields of this base class a variant does not have (a game without antes or buy-in):
    #: they keep their defaults, are not listed by :meth:`names` and are refused as options.
    unused: ClassVar[tuple[str, ...]] = ()

    #: Text options with a short list of typical values (a dropdown): each is a whole value,
    #: or ends in ``:N`` for one taking a whole number (``hands:N``: ``hands:12``). A value
    #: outside the list is still accepted where the option's own check allows it.
    presets: ClassVar[dict[str, tuple[str, ...]]] = {
        "game_end": ("orbit", "last_standing", "hands:N"),
    }
    #: Multi-valued text options: the items a comma list of them may hold (checkboxes, any
    #: subset); the option's ``presets`` are its whole values besides a list (``draft``).
    multi: ClassVar[dict[str, tuple[str, ...]]] = {}

    #: Whole-number options: (smallest, largest or None) allowed value.
    bounds: ClassVar[dict[str, tuple[int, int | None]]] = {
        "buy_in": (1, None),
        "ante": (0, None),
        "sabacc_ante": (0, None),
        "max_hands": (1, None),
    }

    buy_in: int | None = None
    ante: int = 1
    sabacc_ante: int = 1
    game_end: str = "orbit"
    max_hands: int | None = None
    final_pot: Literal["split", "house"] = "split"

    def __post_init__(self) -> None:
        validate_fields(self)
        if not (self.game_end in ("orbit", "last_standing") or self.game_end.startswith("hands:")):
            raise OptionError(
                f"option game_end={self.game_end!r}: must be orbit, last_standing or hands:N"
            )
        if self.game_end.startswith("hands:"):
            n = self.game_end[6:]
            if not n.isdigit() or int(n) < 1:
                raise OptionError(
                    f"option game_end={self.game_end!r}: N must be a whole number >= 1"
                )
        if self.ante == 0 and self.sabacc_ante == 0 and self.game_end == "last_standing":
            raise OptionError("game_end=last_standing needs a non-zero ante to be sure to end")

    @property
    def starting_stack(self) -> int:
        """The buy-in in credits."""
        return self.buy_in if self.buy_in is not None else 100 * max(1, self.ante)

    @property
    def hand_limit(self) -> int | None:
        """The hand count that ends the game, if ``game_end`` or ``max_hands`` sets one."""
        limits = [self.max_hands] if self.max_hands else []
        if self.game_end.startswith("hands:"):
            limits.append(int(self.game_end[6:]))
        return min(limits) if limits else None

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls) if f.name not in cls.unused]

    @classmethod
    def specs(cls) -> list[OptionSpec]:
        """The declared facts of every option (see :func:`option_specs`)."""
        return option_specs(cls)  # type: ignore[arg-type]

    @classmethod
    def from_mapping(cls: type[OptionsT], values: Mapping[str, Any]) -> OptionsT:
        """Options from a mapping, converting text values (``"3"``, ``"none"``, ``"true"``)."""
        if not values:
            default = _DEFAULTS.get(cls)
            if default is None:  # options are frozen: one default instance per class will do
                default = _DEFAULTS[cls] = cls()
            return default  # type: ignore[return-value]
        hints = _hints(cls)  # type: ignore[arg-type]
        known = set(cls.names())
        kwargs: dict[str, Any] = {}
        for raw_name, value in values.items():
            name = raw_name.replace("-", "_")
            if name not in known:
                raise OptionError(
                    f"unknown option {raw_name!r} for this variant; known options: "
                    + ", ".join(sorted(known))
                )
            kwargs[name] = _coerce(name, value, hints[name])
        try:
            return cls(**kwargs)
        except TypeError as exc:  # pragma: no cover - guarded by the checks above
            raise OptionError(str(exc)) from None

    def to_dict(self) -> dict[str, Any]:
        unused = self.unused
        return {k: v for k, v in dataclasses.asdict(self).items() if k not in unused}

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from their defaults (for compact histories)."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    def replace(self: OptionsT, **changes: Any) -> OptionsT:
        return type(self).from_mapping({**self.to_dict(), **changes})


@dataclass(frozen=True)
class OptionSpec:
    """What a UI needs to offer one option: a dropdown of ``choices``, a number box between
    ``minimum`` and ``maximum``, a checkbox (``kind="bool"``), a text box with a dropdown of
    its ``presets`` (a preset ending ``:N`` takes a whole number), or (``kind="multi"``) a
    checkbox per item of ``items`` (the value is their comma list) besides its ``presets``."""

    name: str
    kind: str  # "choice" | "int" | "bool" | "text" | "multi"
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    optional: bool = False  # "none" is allowed (the field may be None)
    presets: tuple[str, ...] = ()
    items: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``/api/variants``)."""
        return dataclasses.asdict(self) | {
            "choices": list(self.choices),
            "presets": list(self.presets),
            "items": list(self.items),
        }

    def describe(self) -> str:
        """The values the option takes, in a few words: ``one of a | b``, ``2..8``, ``>= 1``."""
        if self.kind == "multi":
            text = " | ".join([*self.presets, "a comma list of " + ", ".join(self.items)])
        elif self.choices:
            text = "one of " + " | ".join(str(c) for c in self.choices)
        elif self.kind == "bool":
            text = "true | false"
        elif self.minimum is not None and self.maximum is not None:
            text = f"{self.minimum}..{self.maximum}"
        elif self.minimum is not None:
            text = f">= {self.minimum}"
        else:
            text = self.kind
        return f"none or {text}" if self.optional else text


def literal_choices(hint: Any) -> tuple[Any, ...]:
    """The values of a ``Literal[...]`` (or ``Literal[...] | None``) annotation, else ``()``."""
    if typing.get_origin(hint) is Literal:
        return typing.get_args(hint)
    for arg in typing.get_args(hint):
        if typing.get_origin(arg) is Literal:
            return typing.get_args(arg)
    return ()


def _base_type(hint: Any) -> tuple[Any, bool]:
    """(the non-None type of a field annotation, whether None is allowed)."""
    if typing.get_origin(hint) is Literal:
        return hint, False
    args = typing.get_args(hint)
    optional = type(None) in args
    base = next((a for a in args if a is not type(None)), hint) if args else hint
    return base, optional


@functools.cache
def option_specs(cls: type[Options]) -> list[OptionSpec]:
    """The :class:`OptionSpec` of every field of an options class, derived from its
    annotations, ``help``, ``bounds`` and defaults (cached per class)."""
    default = cls()
    out = []
    for name, hint in _hints(cls).items():  # type: ignore[arg-type]
        if name in cls.unused:
            continue
        base, optional = _base_type(hint)
        choices = literal_choices(hint)
        low, high = cls.bounds.get(name, (None, None))
        items = cls.multi.get(name, ())
        if choices:
            kind = "choice"
        elif items:
            kind = "multi"
        elif base is bool:
            kind = "bool"
        elif base is int:
            kind = "int"
        else:
            kind = "text"
        out.append(
            OptionSpec(
                name,
                kind,
                getattr(default, name),
                cls.help.get(name, ""),
                choices,
                low,
                high,
                optional,
                cls.presets.get(name, ()),
                items,
            )
        )
    return out


def validate_fields(options: Options) -> None:
    """Check each field against its declaration: ``Literal`` choices, ``bounds``, booleans.

    Raises :class:`OptionError` naming the first bad option.
    """
    for name, choices, is_bool, optional, bounds in _checks(type(options)):  # type: ignore[arg-type]
        value = getattr(options, name)
        if value is None and optional:
            continue
        if choices:
            _choice(name, value, choices)
        elif is_bool and not isinstance(value, bool):
            raise OptionError(f"option {name}={value!r}: must be true or false")
        if bounds is not None:
            low, high = bounds
            _at_least(name, value, low)
            if high is not None and value > high:
                raise OptionError(f"option {name}={value}: must be {high} or less")


_Check = tuple[str, tuple[Any, ...], bool, bool, "tuple[int, int | None] | None"]


@functools.cache
def _checks(cls: type[Options]) -> list[_Check]:
    """What :func:`validate_fields` checks for each field of ``cls`` (derived once per class)."""
    out: list[_Check] = []
    for name, hint in _hints(cls).items():  # type: ignore[arg-type]
        base, optional = _base_type(hint)
        out.append((name, literal_choices(hint), base is bool, optional, cls.bounds.get(name)))
    return out


@functools.cache
def _hints(cls: type[Options]) -> dict[str, Any]:
    """Field name -> type of an options class (cached: get_type_hints is slow)."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Convert a CLI/JSON value to the field's type; raise OptionError on failure."""
    base, optional = _base_type(hint)
    if literal_choices(hint):  # a choice: text as given, checked by validate_fields
        if isinstance(value, str):
            text = value.strip()
            return None if optional and text.lower() in ("none", "null", "") else text
        return value
    if isinstance(value, str):
        text = value.strip()
        if optional and text.lower() in ("none", "null", ""):
            return None
        if base is bool:
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise OptionError(f"option {name}={value!r}: must be true or false")
        if base is int:
            try:
                return int(text)
            except ValueError:
                raise OptionError(f"option {name}={value!r}: must be a whole number") from None
        if base is float:
            try:
                return float(text)
            except ValueError:
                raise OptionError(f"option {name}={value!r}: must be a number") from None
        return text
    if value is None and optional:
        return None
    if base is int and (not isinstance(value, int) or isinstance(value, bool)):
        raise OptionError(f"option {name}={value!r}: must be a whole number")
    if base is bool and not isinstance(value, bool):
        raise OptionError(f"option {name}={value!r}: must be true or false")
    if base is float and isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if base is str and not isinstance(value, str):
        raise OptionError(f"option {name}={value!r}: must be text")
    return value
