"""Every rule, DECISION, correction and test-scenario ID of each game's spec is cited by at least
one test of that game (a ``# ID`` comment on the ``def test_…`` line). IDs are stable
(HANSA-0.1, HT-0.3, ZAN-0.1), so the citations stay valid."""
import re
from pathlib import Path

import pytest

from .shared import SHARED

HERE = Path(__file__).resolve().parent

GAMES = {
    # package: (spec file, ID pattern)
    "hansa": ("hansa.md", r"HANSA-[A-Z0-9][A-Za-z0-9.\-]*[A-Za-z0-9]"),
    "die_hanse": ("die-hanse.md", r"HANSE-[A-Z0-9]+(?:\.[0-9]+)*(?:-[0-9]+)?"),
    "hansa_teutonica": ("hansa-teutonica.md", r"HT-[A-Z0-9]+(?:-[0-9]+)?(?:\.[0-9]+)*"),
    "zanzibar": ("zanzibar.md", r"ZAN-(?:C\d+|D-\d+|T-\d+|\d+\.\d+)"),
}


def cited(package: str, pattern: re.Pattern) -> set[str]:
    out = set()
    for path in [*(HERE / package).glob("test_*.py"), Path(__file__)]:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.match(r"\s*def test_\w+\(.*\).*:\s*#", line):
                out.update(x.rstrip(".") for x in pattern.findall(line.split("#", 1)[1]))
    return out


@pytest.mark.parametrize("package", sorted(GAMES))
def test_every_spec_id_is_cited_by_a_test(package):  # HANSA-0.1 ZAN-0.1 HANSE-0.3
    spec_file, regex = GAMES[package]
    spec = SHARED / "rules" / spec_file
    if not spec.exists():
        pytest.skip(f"shared spec {spec} not available")
    pattern = re.compile(regex)
    ids = {x.rstrip(".") for x in pattern.findall(spec.read_text(encoding="utf-8"))}
    assert len(ids) > 100
    found = cited(package, pattern)
    missing = sorted(ids - found)
    assert missing == [], f"{package}: rule IDs not cited by any test: {' '.join(missing)}"
    unknown = sorted(found - ids)
    assert unknown == [], f"{package}: tests cite IDs that are not in the spec: {' '.join(unknown)}"
