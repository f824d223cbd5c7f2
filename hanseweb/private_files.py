"""Files only the service's own user may read: the embedded default's SQLite database (session
keys, running games' seeds, password hashes, inbound mail) and ``var/`` (the generated secret key,
mail files). Created with mode 0600 (folders 0700), and made so when found readable by others.

No Django import: ``hanseweb.settings`` uses it.
"""
from __future__ import annotations

import os
from pathlib import Path


VAR = Path(__file__).resolve().parent.parent / "var"


def private_dir(path: Path) -> Path:
    """``path`` as a folder only its owner may enter: created so if missing; the project's own
    ``var/`` is also made so when found open to others (a folder named elsewhere by a setting,
    such as ``/tmp``, is left as it is)."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.resolve() == VAR and path.stat().st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def private_file(path: Path) -> Path:
    """``path`` as a file only its owner may read and write: created empty (mode 0600) if
    missing, else its group and other bits are taken away. SQLite creates a database's ``-wal``
    and ``-shm`` files with the database file's mode; existing ones are fixed here too."""
    path = Path(path)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        os.close(fd)
    for each in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm"),
                 path.with_name(path.name + "-journal")):
        try:
            mode = each.stat().st_mode
        except FileNotFoundError:
            continue
        if mode & 0o077:
            os.chmod(each, mode & 0o700)
    return path
