"""The import graph of the project's own modules (games and hanseweb, every import, also the
ones inside functions): the write path does not import the mails, and nothing imports a
management command. Read from the source (``ast``), cycles found by the standard library's
``graphlib``."""
import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "hanseweb")
# The Celery task modules are entry points: the code enqueues their tasks (a lazy import to call
# ``.delay``/``apply_async``, which eager test runs need) and the tasks call the code. Cycles
# through them alone are allowed.
TASK_MODULES = {"hanseweb.mail.tasks", "games.tasks"}


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts or "engines" in parts:  # engines import nothing of Django (tested elsewhere)
                continue
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    modules = _modules()
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[:len(package.split(".")) - node.level + 1]
                    module = ".".join([*base, *([node.module] if node.module else [])])
                else:
                    module = node.module
                for alias in node.names:  # "from . import services" imports the module games.services
                    imported.add(f"{module}.{alias.name}" if f"{module}.{alias.name}" in modules else module)
        graph[name] = {m for m in imported if m in modules and m != name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        return exc.args[1]
    return None


def test_the_graph_is_read():
    graph = import_graph()
    assert "games.services" in graph["games.notifications"]  # "from .services import ..."
    assert "games.services" in graph["games.email_replies"]  # "from . import services"
    assert "hanseweb.mail.receiving" in graph["hanseweb.mail.imap"]


def test_a_cycle_is_found():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) is not None
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_the_games_app_has_no_import_cycle():
    """services → notifications → email_replies → services (with history and replay) was one
    circle: the write path now announces (games.signals) and the mails listen."""
    graph = import_graph()
    games = {name: {m for m in deps if m.startswith("games") and m not in TASK_MODULES}
             for name, deps in graph.items() if name.startswith("games") and name not in TASK_MODULES}
    assert _cycle(games) is None
    assert not {m for m in graph["games.services"] if m in ("games.notifications", "games.email_replies",
                                                             "games.history", "games.replay")}


def test_no_cycle_but_through_the_celery_task_modules():
    graph = {name: deps - TASK_MODULES for name, deps in import_graph().items() if name not in TASK_MODULES}
    assert _cycle(graph) is None


def test_no_module_but_a_command_imports_a_management_command():
    """The IMAP poller imported receive_mail's command module; both now call hanseweb.mail.receiving."""
    graph = import_graph()
    assert "hanseweb.mail.management.commands.receive_mail" in graph
    offenders = {importer: sorted(m for m in deps if ".management.commands." in m)
                 for importer, deps in graph.items() if ".management.commands." not in importer}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_write_path_hands_over_its_tasks_without_the_mail_layer():
    """The bots' task was handed over by ``hanseweb.mail.outbox.enqueue``: the write path reached
    into the mail package for a hand-over that every app uses. It lives in ``hanseweb.handover``,
    which imports nothing of the project."""
    graph = import_graph()
    assert "hanseweb.handover" in graph["games.services"]
    assert not {m for m in graph["games.services"] if m.startswith("hanseweb.mail")}
    assert graph["hanseweb.handover"] == set()
    assert "hanseweb.handover" in graph["hanseweb.mail.outbox"]
