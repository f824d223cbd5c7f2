"""What a text in an API request may hold, said as JSON Schema patterns, so that the OpenAPI
document states the checks the site makes (``games.forms.MoveForm``, ``games.chat.clean_text``)
and pydantic makes them first, with the same answer (400 ``malformed``).

The character ranges are Unicode's (Python 3.11's ``unicodedata``, Unicode 14): the test
``tests/api/test_api_schemathesis.py::test_the_patterns_match_unicodedata`` compares them with the
running Python's and says when they need updating.
"""
from __future__ import annotations

# Control (Cc), format (Cf) and private-use (Co) characters, without tab, line feed and carriage
# return: no move holds one (MoveForm refuses them); U+FFFD stands for bytes that were not UTF-8.
CONTROL_FORMAT_PRIVATE = [
    (0x0, 0x8), (0xB, 0xC), (0xE, 0x1F), (0x7F, 0x9F), (0xAD, 0xAD), (0x600, 0x605), (0x61C, 0x61C),
    (0x6DD, 0x6DD), (0x70F, 0x70F), (0x890, 0x891), (0x8E2, 0x8E2), (0x180E, 0x180E), (0x200B, 0x200F),
    (0x202A, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xE000, 0xF8FF), (0xFEFF, 0xFEFF),
    (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD),
]
# Control characters (Cc) without tab, line feed and carriage return: chat refuses them.
CONTROL = [(0x0, 0x8), (0xB, 0xC), (0xE, 0x1F), (0x7F, 0x9F)]
# What Python's str.strip() takes away (str.isspace): a chat message of these alone is empty.
SPACE = [(0x9, 0xD), (0x1C, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
         (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)]
REPLACEMENT = [(0xFFFD, 0xFFFD)]


def _class(ranges) -> str:
    """A regex character class body of ``ranges``, as escapes both ECMA-262 (with the ``u``
    flag), Python's ``re`` and pydantic's regex engine read alike (``\\u{...}`` is not in
    Python's, so astral characters are written as themselves)."""
    def one(code: int) -> str:
        return f"\\u{code:04x}" if code <= 0xFFFF else chr(code)

    return "".join(one(a) if a == b else f"{one(a)}-{one(b)}" for a, b in ranges)


# A move: no control, format or private-use character (tab, line breaks allowed), no U+FFFD, and
# something besides white space (the form strips it).
_MOVE_ANY = _class(CONTROL_FORMAT_PRIVATE + REPLACEMENT)
MOVE_PATTERN = f"^[^{_MOVE_ANY}]*[^{_MOVE_ANY}{_class(SPACE)}][^{_MOVE_ANY}]*$"
# A chat message: no control character (tab, line breaks allowed), no U+FFFD, and something
# besides white space.
_CHAT_ANY = _class(CONTROL + REPLACEMENT)
CHAT_PATTERN = f"^[^{_CHAT_ANY}]*[^{_CHAT_ANY}{_class(SPACE)}][^{_CHAT_ANY}]*$"
