"""The house's layering, read from the source with ast: imports go down only (cli -> db -> pdn,
web -> db -> pdn), and no import cycle among the project's modules. An import inside a function
counts as much as one at the top of a module; one under ``if TYPE_CHECKING:`` counts for the
layering (it still names the layer), and for cycles of names, not for cycles of imports that
run."""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Import:
    """One import in a module: the project module it names, where, and whether it runs."""

    target: str
    line: int
    runs: bool


def package_dirs() -> dict[str, Path]:
    """Each installed package's folder, from pyproject.toml's package-dir (pdn.db is db/, ...)."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    return {name: ROOT / folder for name, folder in setup["setuptools"]["package-dir"].items()}


def project_modules() -> dict[str, Path]:
    """Every module of the project by its installed name (a package by its own name)."""
    dirs = package_dirs()
    owned = set(dirs.values())
    modules: dict[str, Path] = {}
    for name, folder in dirs.items():
        for path in sorted(folder.rglob("*.py")):
            parts = path.relative_to(folder).with_suffix("").parts
            # a folder installed as a package of its own (db/ under pdn/) is not pdn's subpackage
            if any(folder.joinpath(*parts[:i]) in owned for i in range(1, len(parts))):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join((name, *parts))] = path
    return modules


MODULES = project_modules()


def _under_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(node: ast.AST, runs: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import | ast.ImportFrom):
            yield child, runs
        elif isinstance(child, ast.If) and _under_type_checking(child):
            for part in child.body:
                yield from _walk(ast.Module(body=[part], type_ignores=[]), False)
            for part in child.orelse:
                yield from _walk(ast.Module(body=[part], type_ignores=[]), runs)
        else:
            yield from _walk(child, runs)


def _project_module(name: str, modules: dict[str, Path]) -> str | None:
    """The longest project module *name* starts with (pdn.rules.move.Move is pdn.rules.move)."""
    parts = name.split(".")
    for end in range(len(parts), 0, -1):
        candidate = ".".join(parts[:end])
        if candidate in modules:
            return candidate
    return None


def imports_of(module: str, modules: dict[str, Path] = MODULES) -> list[Import]:
    """The project modules *module* imports, at any depth of its code."""
    path = modules[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node, runs in _walk(tree, True):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from pdn import board` names the module pdn.board, `from pdn import Board` pdn
            names = [f"{base}.{alias.name}" for alias in node.names]
            names = [n if n in modules else base for n in names]
        for name in names:
            target = _project_module(name, modules)
            if target is not None and target != module:
                found.append(Import(target, node.lineno, runs))
    return found


def test_the_modules_are_found() -> None:
    assert {"pdn", "pdn.game", "pdn.db", "pdn.db.store", "pdn.web.app", "pdn.cli.app"} <= set(
        MODULES
    )
    assert not any(name.startswith(("db", "web", "cli")) for name in MODULES)


def test_the_parser_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    """The reader of imports itself, on a module written for it."""
    source = tmp_path / "sample.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "import pdn.game\n"
        "from pdn import board, Board\n"
        "if TYPE_CHECKING:\n"
        "    from pdn.db.store import import_paths\n"
        "def late():\n"
        "    from .schema import Base\n"
        "    import pdn.cli.app as app\n",
        encoding="utf-8",
    )
    modules = {**MODULES, "pdn.db.sample": source}
    found = [(i.target, i.line, i.runs) for i in imports_of("pdn.db.sample", modules)]
    assert found == [
        ("pdn.game", 2, True),
        ("pdn.board", 3, True),
        ("pdn", 3, True),
        ("pdn.db.store", 5, False),
        ("pdn.db.schema", 7, True),
        ("pdn.cli.app", 8, True),
    ]


# A layer and the layers above it, which it may not import
LAYERS = {"pdn": ("pdn.db", "pdn.web", "pdn.cli"), "pdn.db": ("pdn.web", "pdn.cli"),
          "pdn.web": ("pdn.cli",), "pdn.cli": ()}  # fmt: skip


def layer(module: str) -> str:
    """The layer a module belongs to: pdn.cli, pdn.web, pdn.db, else pdn."""
    for name in ("pdn.cli", "pdn.web", "pdn.db"):
        if module == name or module.startswith(name + "."):
            return name
    return "pdn"


def test_imports_go_down_only() -> None:
    """pdn knows nothing of the database, the page or the command line; db nothing of the page
    or the command line; the page nothing of the command line."""
    wrong = []
    for module in MODULES:
        above = LAYERS[layer(module)]
        for imp in imports_of(module):
            if layer(imp.target) in above:
                wrong.append(f"{MODULES[module].relative_to(ROOT)}:{imp.line}: {imp.target}")
    assert wrong == []


def cycles(modules: dict[str, Path] = MODULES, named: bool = False) -> list[list[str]]:
    """The groups of modules that import each other, directly or round a loop (Tarjan's
    strongly connected components of the imports that run, or with *named* of every import,
    those for the type checker too), each sorted."""
    graph = {
        m: sorted({i.target for i in imports_of(m, modules) if i.runs or named}) for m in modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in graph:
        if module not in index:
            visit(module)
    return sorted(groups)


def test_cycles_are_found(tmp_path: Path) -> None:
    """The cycle finder on modules written for it: a -> b -> c -> a (c's import inside a
    function), d -> a outside the loop, e -> f only when type checking."""
    sources = {
        "a": "import pdn.b\n",
        "b": "from pdn import c\n",
        "c": "def f():\n    from . import a\n",
        "d": "import pdn.a\n",
        "e": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pdn.f\n",
        "f": "import pdn.e\n",
    }
    modules = {}
    for name, text in sources.items():
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        modules[f"pdn.{name}"] = tmp_path / f"{name}.py"
    assert cycles(modules) == [["pdn.a", "pdn.b", "pdn.c"]]
    assert cycles(modules, named=True) == [["pdn.a", "pdn.b", "pdn.c"], ["pdn.e", "pdn.f"]]


def test_no_import_cycle() -> None:
    assert cycles() == []


def test_no_cycle_of_names() -> None:
    """Nor do modules name each other round a loop for the type checker: the kernels and the
    drawing name a position by pdn.rules.placement's protocol, which Position satisfies, so the
    rules stand in one order (position on the kernels on placement on move)."""
    assert cycles(named=True) == []


def test_the_rules_import_nothing_above_them() -> None:
    """pdn.rules (variants, draw rules, positions, the kernel) stands on nothing else of pdn but
    the SVG drawing a notebook asks a Position for (Position._repr_svg_, imported when called)."""
    above = [
        (name, i.target)
        for name in MODULES
        if name.startswith("pdn.rules")
        for i in imports_of(name, MODULES)
        if not i.target.startswith("pdn.rules")
    ]
    assert above == [("pdn.rules.position", "pdn.render.diagram")]
