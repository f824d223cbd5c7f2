"""Where the shared, read-only project material (rules, boards, rulebooks) lives: the folder
``shared/`` beside the repository (as on the developers' machines and in CI), or $HANSEWEB_SHARED."""
import os
from pathlib import Path

SHARED = Path(os.environ.get("HANSEWEB_SHARED") or Path(__file__).resolve().parents[3] / "shared")
