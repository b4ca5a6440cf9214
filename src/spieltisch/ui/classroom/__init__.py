"""Class rounds without a server: one game for a whole class, its codes, their verification and the
class board's summary (standard library only; docs/class-mode.md).

A **class code** (``ClassRound.code``) fixes everything that makes the game: the ruleset and its
version, the number of players, who sits where (human or which bot), the options, the seed and
whether the advisor may be used. Every device that opens it builds the same table, and because
chance comes from the seed (and, in a game with hidden parts, from a secret derived from it), the
same decisions meet the same throws, cards and bot moves everywhere.

A **result code** holds a student's decisions: at each of their decisions with more than one legal
action, the index of the chosen action among ``legal_actions()`` (whose order is deterministic),
packed as one mixed-radix number. Nothing else needs to travel: the board replays the class game
with these indices (bots and chance as on the student's device) and reads the points from the end
position, so a code cannot claim points its decisions do not make.

Codes are written in Crockford's base 32 (digits and capital letters without I, L, O, U; typing is
forgiving: lower case, O for 0, I or L for 1, spaces and hyphens are all accepted). Check characters
are sums over GF(32) with distinct weights: one character detects every single wrong character and
every swap of two neighbours; the result code's two detect every error in up to two characters.
They cover the result code alone; a two-character tag of the class code before them tells a code of
another round (checks hold, tag differs) from a mistyped one (checks fail).

Nothing here knows a page, Pyodide or Panel: the Play pages and the class board run it in the
browser, ``spieltisch class`` on the command line, and a live class on a server can use it as is.
"""

# The class model in parts by concern: codes (base 32, check characters), rounds (the class code),
# results (result codes, verification, resuming), paste (reading pasted codes and names), board (the
# class board's summary), polls (the lessons' questions). Everything is reachable from here, as before the split.
from .codes import (  # noqa: F401
    ALPHABET,
    CANDIDATE_DECISIONS,
    CodeError,
    FORMAT,
    GROUP,
    MAX_CODE_CHARS,
    MAX_ENTRIES,
    MAX_LABEL_CHARS,
    MAX_NUMBER,
    MAX_STEPS,
    RESULT_FORMAT,
    SHOWN_DECISIONS,
    SMALL_SEED,
    TAG_CHARS,
    _EXP,
    _LOG,
    _Reader,
    _SPACING,
    _VALUE,
    _Writer,
    _check,
    _from_chars,
    _game_of_number,
    _garbled,
    _gf_mul,
    _spacing,
    _symbols,
    _to_chars,
    class_games,
    grouped,
    harmless_cell,
    normalize,
)
from .rounds import (  # noqa: F401
    ClassRound,
    _encode_class,
    _hidden,
    card_of,
    catalog,
    new_round,
    option_label,
    option_text,
    parse_class,
)
from .results import (  # noqa: F401
    Result,
    _Decoder,
    _Encoder,
    _Model,
    _check_number,
    _class_replay,
    _old_format,
    _result_chars,
    _tag,
    result_code,
    resume_table,
    verify_result,
)
from .paste import (  # noqa: F401
    _line_entries,
    result_text,
    split_entries,
)
from .board import (  # noqa: F401
    Board,
    MAX_BINS,
    NICE_WIDTHS,
    ranking_note,
    _state_at,
    _value_json,
    histogram,
)
from .polls import (  # noqa: F401
    predictions,
    reveal,
)
