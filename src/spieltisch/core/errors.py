"""Errors. Every rejection of user input is a ``ValueError`` subclass whose message names the rule."""


class SpieltischError(ValueError):
    """Base class for every error caused by bad input (actions, options, records, arguments)."""


class IllegalActionError(SpieltischError):
    """An action that the rules do not allow here. ``rule`` names the rule it breaks."""

    def __init__(self, rule: str, detail: str):
        self.rule = rule
        self.detail = detail
        super().__init__(f"{detail} (rule: {rule})")


class OptionError(SpieltischError):
    """An unknown option, or a value the option does not accept."""


class RecordError(SpieltischError):
    """A game record that is malformed, truncated, too large or does not replay."""


class UnknownGameError(SpieltischError):
    """A game id that is not registered."""
