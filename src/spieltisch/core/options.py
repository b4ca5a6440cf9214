"""Declared, validated game options (every rulebook ambiguity is one)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError, short


@dataclass(frozen=True)
class OptionSpec:
    name: str
    default: Any
    help: str
    choices: tuple = ()
    min: int | None = None
    max: int | None = None
    kind: type = field(default=None)  # bool, int or str; derived from default when None

    def type(self) -> type:
        return self.kind or type(self.default)

    def parse(self, value):
        """Validate ``value`` (a Python value or the string form used on the command line)."""
        t = self.type()
        if isinstance(value, str) and t is not str:
            value = _from_text(self.name, value, t)
        if t is bool:
            if not isinstance(value, bool):
                raise OptionError(f"option {self.name!r} takes true or false, got {short(value)}")
        elif t is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {self.name!r} takes a whole number, got {short(value)}")
            if self.min is not None and value < self.min or self.max is not None and value > self.max:
                raise OptionError(f"option {self.name!r} must be between {self.min} and {self.max}, got {value}")
        elif t is str:
            if not isinstance(value, str):
                raise OptionError(f"option {self.name!r} takes a text value, got {short(value)}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"option {self.name!r} must be one of {allowed}; got {short(value)}")
        return value


def _from_text(name: str, text: str, t: type):
    if t is bool:
        low = text.strip().lower()
        if low in ("true", "1", "yes", "on", "ja"):
            return True
        if low in ("false", "0", "no", "off", "nein"):
            return False
        raise OptionError(f"option {short(name)} takes true or false, got {short(text)}")
    if t is int:
        try:
            return int(text.strip())
        except ValueError:
            raise OptionError(f"option {short(name)} takes a whole number, got {short(text)}") from None
    return text


def validate_options(specs: tuple[OptionSpec, ...], given: dict | None, game_id: str) -> dict:
    """Return the full option dict (defaults filled in); raise OptionError naming what is wrong."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise OptionError(f"options must be a mapping of name to value, got {type(given).__name__}")
    by_name = {s.name: s for s in specs}
    for name in given:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise OptionError(f"{game_id} has no option {short(name)} (known options: {known})")
    return {s.name: s.parse(given[s.name]) if s.name in given else s.default for s in specs}


def parse_option_args(pairs: list[str] | None) -> dict:
    """``["a=1", "b=true"]`` -> ``{"a": "1", "b": "true"}`` (values parsed later by the game)."""
    out = {}
    for pair in pairs or ():
        if "=" not in pair:
            raise OptionError(f"an option is written name=value, got {pair!r}")
        name, _, value = pair.partition("=")
        out[name.strip()] = value.strip()
    return out
