"""Every rule ID of the spec is cited by at least one test (a ``# HANSE-…`` comment on a def line)."""
import os
import re

import pytest

SPEC = "/work/shared/rules/die-hanse.md"
ID = re.compile(r"HANSE-[A-Z0-9]+(?:\.[0-9]+)*(?:-[0-9]+)?")


def cited_ids() -> set:
    here = os.path.dirname(os.path.abspath(__file__))
    out = set()
    for name in os.listdir(here):
        if name.startswith("test_") and name.endswith(".py"):
            with open(os.path.join(here, name), encoding="utf-8") as f:
                for line in f:
                    if line.lstrip().startswith("def test_") and "#" in line:
                        out |= set(ID.findall(line.split("#", 1)[1]))
    return out


def uncited() -> list:
    with open(SPEC, encoding="utf-8") as f:
        spec = set(ID.findall(f.read()))
    return sorted(spec - cited_ids())


@pytest.mark.skipif(not os.path.exists(SPEC), reason="shared spec not available")
def test_every_rule_id_is_cited():  # HANSE-0.3
    assert uncited() == []


if __name__ == "__main__":
    print("\n".join(uncited()) or "none")
