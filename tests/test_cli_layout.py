"""The CLI's layout: no import cycle among its modules (an import inside a function counts), no
private typer API, and the selection options of filter and query declared once."""

from __future__ import annotations

import ast
from pathlib import Path

import typer

from pdn.cli.app import app
from pdn.cli.selection import Selection

CLI = Path(__file__).resolve().parent.parent / "cli"


def cli_imports() -> dict[str, set[str]]:
    """Each cli module and the cli modules it imports, anywhere in its text."""
    graph: dict[str, set[str]] = {}
    for path in sorted(CLI.glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            found |= {n.split(".")[2] for n in names if n.startswith("pdn.cli.")}
        graph[path.stem] = found & {p.stem for p in CLI.glob("*.py")}
    return graph


def test_cli_imports_have_no_cycle() -> None:
    graph = cli_imports()
    assert graph["database"] >= {"selection", "asking"}  # the walk sees imports at all
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        if module in done:
            return
        for imported in graph[module]:
            visit(imported, (*path, module))
        done.add(module)

    for module in graph:
        visit(module, ())


def test_cli_uses_no_private_typer_api() -> None:
    for path in CLI.glob("*.py"):
        text = path.read_text()
        for private in ("typer._click", "from typer import _click", "get_command_from_info"):
            assert private not in text, (path.name, private)


def _options(*command: str) -> list[str]:
    group = typer.main.get_command(app)
    ctx = group.make_context("pdn", list(command), resilient_parsing=True)
    cmd: object = group
    for name in command:
        cmd = cmd.get_command(ctx, name)  # type: ignore[attr-defined]
    return [p.name for p in cmd.params]  # type: ignore[attr-defined]


def test_filter_and_query_share_every_selection_option() -> None:
    names = list(Selection.__dataclass_fields__)
    assert len(names) == 22 and "material_plies" in names
    for command in ("filter", "query"):
        options = _options(command)
        at = options.index("white")
        assert options[at : at + len(names)] == names, command
