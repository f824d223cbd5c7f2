"""Schemathesis against the API's own OpenAPI document (issue 28 item 10): every check, the
examples, coverage, fuzzing and stateful phases (following the document's links: my games ->
a game -> my first legal move -> the game again), as a seated player of a running game. Bounded
in time (``HANSEWEB_SCHEMATHESIS_SECONDS``, 60 by default, and at most
``HANSEWEB_SCHEMATHESIS_EXAMPLES`` cases per operation), so it costs about a minute of CI.

Failing means the server answered something the document does not say (an undocumented status,
a body not matching its schema, a 5xx, schema-valid data refused or invalid data accepted)."""
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from ..conftest import user_of

HERE = Path(__file__).resolve().parent
SCHEMATHESIS = Path(sys.executable).parent / "schemathesis"


def test_schemathesis_finds_nothing_the_document_does_not_say(live_server, transactional_db, started_game, settings,
                                                             tmp_path):
    from hanseweb.api.models import ApiToken

    settings.HANSEWEB_RATES = {**settings.HANSEWEB_RATES, "api_per_user": "100000/m", "api_per_ip": "100000/m",
                               "chat_per_user": "100000/h"}
    game, users = started_game("hansa", 3)
    _, token = ApiToken.issue(user_of(game, game.to_act[0]), "schemathesis")
    seconds = int(os.environ.get("HANSEWEB_SCHEMATHESIS_SECONDS", "60"))
    outputs = []
    # the stateful phase on its own budget (a third), so the other phases cannot use it up
    for phases, budget in (("stateful", max(10, seconds // 3)),
                           ("examples,coverage,fuzzing", max(20, seconds - seconds // 3))):
        done = subprocess.run(
            [str(SCHEMATHESIS), "--config-file", str(HERE / "schemathesis.toml"), "run",
             f"{live_server.url}/api/v1/openapi.json", "--checks", "all", "--phases", phases,
             "--max-time", str(budget), "--max-examples", os.environ.get("HANSEWEB_SCHEMATHESIS_EXAMPLES", "40"),
             "--seed", "28", "--workers", "1", "--request-timeout", "30", "-H", f"Authorization: Bearer {token}",
             "--no-color"],
            capture_output=True, text=True, timeout=budget * 3 + 120, cwd=tmp_path)  # its .schemathesis/ there
        output = done.stdout + done.stderr
        print(output[-6000:])  # shown with -s or -rP: the phases, operations and cases run
        assert done.returncode == 0, output[-20000:]
        outputs.append(output)
    # the stateful phase followed the document's links (a scenario ran, not "No tests were run")
    assert "Scenarios:" in outputs[0] and "No tests were run" not in outputs[0], outputs[0][-5000:]


def test_the_patterns_match_unicodedata():
    """hanseweb/api/text.py writes Unicode's ranges out (computing them costs seconds at every
    start): they must be this Python's."""
    from hanseweb.api import text

    def ranges(test):
        found, start = [], None
        for code in range(0x110000 + 1):
            hit = code < 0x110000 and test(chr(code))
            if hit and start is None:
                start = code
            elif not hit and start is not None:
                found.append((start, code - 1))
                start = None
        return found

    assert text.CONTROL_FORMAT_PRIVATE == ranges(
        lambda c: unicodedata.category(c) in ("Cc", "Cf", "Co") and c not in "\t\n\r")
    assert text.CONTROL == ranges(lambda c: unicodedata.category(c) == "Cc" and c not in "\t\n\r")
    assert text.SPACE == ranges(str.isspace)
