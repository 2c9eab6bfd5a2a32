"""Options: the house rules of a variant, as a frozen, validated dataclass.

Options are frozen dataclasses validated in ``__post_init__``; every field is a documented house
rule a user can set (Python keyword, CLI ``--option name=value``, web table settings).
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from sabacc.core.errors import OptionError

OptionsT = TypeVar("OptionsT", bound="Options")
_DEFAULTS: dict[type, Options] = {}


def _choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise OptionError(f"option {name}={value!r}: must be one of {', '.join(allowed)}")


def _at_least(name: str, value: int | None, low: int) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < low):
        raise OptionError(f"option {name}={value!r}: must be a whole number >= {low}")


@dataclass(frozen=True)
class Options:
    """Options every variant has. See the README's options table for the meaning of each."""

    help: ClassVar[dict[str, str]] = {
        "buy_in": "starting credits per player (default: 100 x ante)",
        "ante": "ante to the main/hand pot each hand; also the betting unit",
        "sabacc_ante": "ante to the sabacc pot each hand",
        "game_end": "orbit (dealer goes round once) | last_standing | hands:N",
        "max_hands": "safety cap on the number of hands (none = no cap)",
        "final_pot": "what happens to pots left at game end: split (among players left) | house",
    }

    buy_in: int | None = None
    ante: int = 1
    sabacc_ante: int = 1
    game_end: str = "orbit"
    max_hands: int | None = None
    final_pot: str = "split"

    def __post_init__(self) -> None:
        _at_least("ante", self.ante, 0)
        _at_least("sabacc_ante", self.sabacc_ante, 0)
        _at_least("buy_in", self.buy_in, 1)
        _at_least("max_hands", self.max_hands, 1)
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
        _choice("final_pot", self.final_pot, ("split", "house"))
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
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def from_mapping(cls: type[OptionsT], values: Mapping[str, Any]) -> OptionsT:
        """Options from a mapping, converting text values (``"3"``, ``"none"``, ``"true"``)."""
        if not values:
            default = _DEFAULTS.get(cls)
            if default is None:  # options are frozen: one default instance per class will do
                default = _DEFAULTS[cls] = cls()
            return default  # type: ignore[return-value]
        hints = _hints(cls)  # type: ignore[arg-type]
        known = set(hints)
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
        return dataclasses.asdict(self)

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from their defaults (for compact histories)."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}

    def replace(self: OptionsT, **changes: Any) -> OptionsT:
        return type(self).from_mapping({**self.to_dict(), **changes})


@functools.cache
def _hints(cls: type[Options]) -> dict[str, Any]:
    """Field name -> type of an options class (cached: get_type_hints is slow)."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _coerce(name: str, value: Any, hint: Any) -> Any:
    """Convert a CLI/JSON value to the field's type; raise OptionError on failure."""
    args = typing.get_args(hint)
    optional = type(None) in args
    base = next((a for a in args if a is not type(None)), hint) if args else hint
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
