"""The class's predictions: the lessons' questions, declared in each game's package and read
through the registry, as a poll on the board."""

from __future__ import annotations

from .codes import CodeError


# --- the class's predictions (a quick poll on the board) ------------------------------------------
# The lessons' questions, each declared once in its game's package (core.questions) and read here
# through the registry: the teacher taps the counts the class calls out (an option, or a range of the
# answer), then reveals the class's distribution, the exact value (or the estimate, labelled as one)
# and a seeded simulation.
def predictions(lang: str = "de", core: bool | None = True) -> list[dict]:
    """The poll's questions (the lessons' core questions by default) of the games registered here,
    each with the labels of its options or ranges in ``lang``; no answer."""
    from ...core.questions import QuestionError, check_lang
    from ...core.registry import questions

    try:
        check_lang(lang)
    except QuestionError as e:
        raise CodeError(e.text["en"], e.text["de"]) from None
    return [q.summary(lang) for q in questions(core=core)]


def reveal(prediction_id: str, counts, lang: str = "de") -> dict:
    """The class's answers (``counts`` per option or range) as a distribution, the exact value (or the
    estimate, labelled) with the right options, and the question's seeded simulation."""
    from ...core.questions import QuestionError
    from ...core.registry import question

    try:
        return question(prediction_id).reveal(counts, lang)
    except QuestionError as e:
        raise CodeError(e.text["en"], e.text["de"]) from None
