#!/usr/bin/env python
"""Largest game page per title, now and as drawn by the board code of an older commit.

Usage: PAGE_SIZE_REPORT=/tmp/pages.json scripts/test tests/test_page_size.py
       .venv/bin/python scripts/page_sizes.py /tmp/pages.json [REV]

The page sizes are measured by the test; for REV (default: main) the board SVG of each measured
page is drawn again with that commit's engines and the page size corrected by the difference."""
import importlib
import json
import subprocess
import sys
import tempfile

MODULES = {"hansa": "hansa", "hansa-teutonica": "hansa_teutonica", "die-hanse": "die_hanse", "zanzibar": "zanzibar"}


def svg_sizes(report, root=None):
    if root:
        sys.path.insert(0, root)
        for name in list(sys.modules):
            if name == "games" or name.startswith("games."):
                del sys.modules[name]
    out = []
    for r in report:
        mod = importlib.import_module(f"games.engines.{MODULES[r['slug']]}.svg")
        out.append(len(mod.render_svg(r["view"], r["names"], legal=r["legal"]).encode()))
    return out


def main():
    report = json.load(open(sys.argv[1]))
    rev = sys.argv[2] if len(sys.argv) > 2 else "main"
    if len(sys.argv) > 3:  # child: print the sizes drawn by the code under sys.argv[3]
        print(json.dumps(svg_sizes(report, sys.argv[3])))
        return
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(f"git archive {rev} games | tar -x -C {tmp}", shell=True, check=True)
        old = json.loads(subprocess.run([sys.executable, __file__, sys.argv[1], rev, tmp], check=True,
                                        capture_output=True, text=True).stdout)
    best = {}
    for r, o in zip(report, old):
        before = r["page"] - r["svg"] + o
        b = best.setdefault(r["slug"], [0, 0, 0, 0])
        b[0], b[1] = max(b[0], before), max(b[1], r["page"])
        b[2], b[3] = max(b[2], o), max(b[3], r["svg"])
    print(f"{'title':18} {'page before':>12} {'page now':>10} {'svg before':>11} {'svg now':>9}  (largest, KB)")
    for slug, (pb, pa, sb, sa) in best.items():
        print(f"{slug:18} {pb / 1024:12.1f} {pa / 1024:10.1f} {sb / 1024:11.1f} {sa / 1024:9.1f}")


if __name__ == "__main__":
    main()
