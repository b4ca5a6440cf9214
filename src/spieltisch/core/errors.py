"""Errors. Every rejection of user input is a ``ValueError`` subclass whose message names the rule."""


class SpieltischError(ValueError):
    """Base class for every error caused by bad input (actions, options, records, arguments)."""


class IllegalActionError(SpieltischError):
    """An action that the rules do not allow here. ``rule`` names the rule it breaks.

    ``detail`` says in English what is wrong; ``detail_de``, when a game supplies it, says the same
    in German (for the German screens). ``str(e)`` is always the English text.
    """

    def __init__(self, rule: str, detail: str, detail_de: str | None = None):
        self.rule = rule
        self.detail = detail
        self.detail_de = detail_de
        super().__init__(f"{detail} (rule: {rule})")

    def detail_in(self, lang: str) -> str:
        """The detail in ``lang`` ("de" or "en"); English where no German text was given."""
        if lang == "de" and self.detail_de:
            return self.detail_de
        return self.detail


class OptionError(SpieltischError):
    """An unknown option, or a value the option does not accept."""


class RecordError(SpieltischError):
    """A game record that is malformed, truncated, too large or does not replay."""


class UnknownGameError(SpieltischError):
    """A game id that is not registered."""
