"""Errors. Every rejection of user input is a ``ValueError`` subclass whose message names the rule."""


class SpieltischError(ValueError):
    """Base class for every error caused by bad input (actions, options, records, arguments)."""


class IllegalActionError(SpieltischError):
    """An action that the rules do not allow here. ``rule`` names the rule it breaks.

    ``detail`` says in English what is wrong; ``detail_de`` says the same in German, ``rule_de`` is
    the rule's German name (the rulebook's word where it has one). ``str(e)`` is the English text;
    ``message(lang)`` the whole refusal in either language.
    """

    def __init__(self, rule: str, detail: str, detail_de: str | None = None, rule_de: str | None = None):
        self.rule = rule
        self.detail = detail
        self.detail_de = detail_de
        self.rule_de = rule_de
        super().__init__(f"{detail} (rule: {rule})")

    def detail_in(self, lang: str) -> str:
        """The detail in ``lang`` ("de" or "en"); English where no German text was given."""
        if lang == "de" and self.detail_de:
            return self.detail_de
        return self.detail

    def rule_in(self, lang: str) -> str:
        if lang == "de" and self.rule_de:
            return self.rule_de
        return self.rule

    def message(self, lang: str = "en") -> str:
        if lang == "de":
            return f"{self.detail_in('de')} (Regel: {self.rule_in('de')})"
        return str(self)


class OptionError(SpieltischError):
    """An unknown option, or a value the option does not accept."""


class RecordError(SpieltischError):
    """A game record that is malformed, truncated, too large or does not replay."""


class UnknownGameError(SpieltischError):
    """A game id that is not registered."""


def short(value, limit: int = 60, show=repr) -> str:
    """``show(value)`` (``repr`` by default) cut to ``limit`` characters: a message never echoes a
    hostile input in full."""
    try:
        text = show(value)
    except Exception:  # noqa: BLE001 - any value at all may arrive here
        text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."
