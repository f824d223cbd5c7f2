"""The mail layer knows nothing of games: the games app registers its inbound handler with it."""
import ast
from pathlib import Path

import pytest

import hanseweb.mail
from hanseweb.mail import handlers
from hanseweb.mail.models import InboundEmail

MAIL_DIR = Path(hanseweb.mail.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
    return found


def test_no_module_of_the_mail_layer_imports_games():
    files = sorted(MAIL_DIR.glob("*.py")) + sorted(MAIL_DIR.glob("management/**/*.py"))
    assert len(files) >= 6
    offenders = {str(f.relative_to(MAIL_DIR)): sorted(m for m in _imported_modules(f)
                                                      if m == "games" or m.startswith("games."))
                 for f in files}
    assert {f: m for f, m in offenders.items() if m} == {}


def test_the_games_app_registers_its_handler():
    assert "games.email_replies" in handlers.registered()


def test_registering_again_replaces_and_an_unhandled_mail_is_ignored():
    calls = []
    handlers.register("test.first", lambda row: calls.append("first") or None)
    handlers.register("test.first", lambda row: calls.append("again") or None)
    try:
        assert handlers.registered().count("test.first") == 1
        saved = list(handlers._handlers)
        handlers._handlers[:] = [h for h in saved if h[0] == "test.first"]
        try:
            assert handlers.dispatch(object()) == (InboundEmail.IGNORED, "no handler for inbound mail is registered")
        finally:
            handlers._handlers[:] = saved
        assert calls == ["again"]
    finally:
        handlers.unregister("test.first")
    assert "test.first" not in handlers.registered()
