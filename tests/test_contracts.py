"""The design rules, checked: who may import whom, what a reader may load, how big a unit may grow.

Each rule here is one that a change could silently break; docs/architecture.md explains them."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("indexer", "mcp_adapter")
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in sorted((REPO / package).rglob("*.py")):
            parts = path.relative_to(REPO).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _imports(name: str, path: Path, modules: set[str]) -> set[str]:
    """Every module this one imports, at module level or inside functions, made absolute."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found.update(
                f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in modules
            )  # `from pkg import mod`
    return found


def _violations(rule) -> list[str]:
    out = []
    modules = _modules()
    for name, path in modules.items():
        imports = _imports(name, path, set(modules))
        out += [f"{name} imports {imported}" for imported in sorted(imports) if rule(name, imported)]
    return out


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_indexer_never_imports_the_mcp_adapter() -> None:
    """The adapter is a face on the index, like the CLI; it plugs in through entry points."""
    assert _violations(lambda m, i: _within(m, "indexer") and _within(i, "mcp_adapter")) == []


def test_scanners_import_only_the_model_and_their_own_helpers() -> None:
    """Scanners are pure: bytes in, records out. Stdlib and parsing libraries are fine, and so is a
    leaf of shared vocabulary, an indexer module importing nothing of the indexer but the model
    (`indexer.shown`: how a value is said, which queries say alike; `indexer.unity_classes`)."""
    modules = _modules()

    def leaf(imported: str) -> bool:
        if imported not in modules or imported == "indexer":
            return False
        own = {i for i in _imports(imported, modules[imported], set(modules)) if _within(i, "indexer")}
        return own <= {"indexer", "indexer.model"}

    def rule(module: str, imported: str) -> bool:
        if not _within(module, "indexer.scanners") or not _within(imported, "indexer"):
            return False
        return imported != "indexer" and not (
            _within(imported, "indexer.model") or _within(imported, "indexer.scanners") or leaf(imported)
        )

    assert _violations(rule) == []


def test_answering_never_imports_the_update_pipeline() -> None:
    """query/ reads what build/ wrote; the shared facts live in the model, store/ and the core."""
    assert _violations(lambda m, i: _within(m, "indexer.query") and _within(i, "indexer.build")) == []


def test_the_store_and_change_finding_know_nothing_of_answering_or_faces() -> None:
    faces = ("indexer.query", "indexer.cli", "mcp_adapter")

    def rule(module: str, imported: str) -> bool:
        lower = any(_within(module, p) for p in ("indexer.store", "indexer.changes", "indexer.scanners"))
        return lower and any(_within(imported, f) for f in faces)

    assert _violations(rule) == []


def test_the_core_imports_only_the_core() -> None:
    core = (
        "indexer.model",
        "indexer.config",
        "indexer.project",
        "indexer.kinds",
        "indexer.identifiers",
        "indexer.unity",
        "indexer.files",
        "indexer.home",
    )

    def rule(module: str, imported: str) -> bool:
        return module in core and _within(imported, "indexer") and imported != "indexer" and imported not in core

    assert _violations(rule) == []


def test_units_stay_small() -> None:
    """No module over 500 lines, no function over 60 (ruff checks complexity and statements)."""
    big = []
    for name, path in _modules().items():
        source = path.read_text()
        if source.count("\n") > MAX_MODULE_LINES:
            big.append(f"{name}: {source.count(chr(10))} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    big.append(f"{name}.{node.name}: {length} lines")
    assert big == []


@pytest.mark.skipif(
    shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(),
    reason="ruff is not installed (pip install -e '.[dev]')",
)
def test_ruff_is_clean() -> None:
    """Lint rules (pyproject.toml), complexity (C901 <= 15) and statement count (PLR0915 <= 50) included."""
    ruff = Path(sys.executable).parent / "ruff"
    cmd = [str(ruff) if ruff.exists() else "ruff", "check", "--no-cache", *PACKAGES, "tests"]
    result = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


READER_SCRIPT = """
import sys
from indexer.cli.main import main
for argv in ({commands}):
    code = main([*argv, "--project", {root!r}])
    assert code == 0, (argv, code)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("tree_sitter", "tree_sitter_c_sharp", "ruamel", "watchdog")
               or m.startswith("indexer.scanners.") or m.startswith("indexer.build"))
print("LOADED:" + ",".join(heavy))
"""


def test_answering_from_a_current_index_never_loads_parsers_or_the_pipeline(indexed_fixture) -> None:
    """A CLI query, context, refs or describe on a current index imports no tree-sitter, no YAML
    parser, no scanner and no update pipeline: start-up time is the user's wait."""
    commands = [
        ["query", "player health"],
        ["context", "add a shield", "--budget", "600"],
        ["refs", "PlayerHealth"],
        ["describe", "Assets/Scripts/Player/PlayerHealth.cs"],
        ["describe", "Assets/Data/SoundLibrary.asset"],  # a data asset's outline (its lists' items)
    ]
    script = READER_SCRIPT.format(commands=repr(tuple(commands)), root=str(indexed_fixture))
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    loaded = result.stdout.strip().splitlines()[-1]
    assert loaded == "LOADED:"


MCP_READER_SCRIPT = """
import sys
import anyio
from mcp import Client
from indexer.query.workspace import open_workspace, projects_at
from mcp_adapter.server.app import create_server
from pathlib import Path

root = Path({root!r})
server = create_server(open_workspace(root, projects_at(root)), refresh_interval=0, tokenizer="estimate")
calls = {calls}

async def go():
    async with Client(server) as c:
        for name, arguments in calls:
            result = await c.call_tool(name, arguments)
            assert not result.is_error, (name, result)

anyio.run(go)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("tree_sitter", "tree_sitter_c_sharp", "ruamel")
               or m.startswith("indexer.scanners."))
print("LOADED:" + ",".join(heavy))
"""


def test_mcp_read_only_tools_on_a_current_index_never_load_parsers_or_the_pipeline(indexed_fixture) -> None:
    """The read-only tools answer from the index. Refreshing is the writer's job: the freshness
    check before an answer finds nothing to do on a current index and loads no parser; only a
    changed file makes the writer scan (on the watcher's thread when watching, see docs/mcp.md)."""
    calls = [
        ("search", {"query": "player health"}),
        ("get_context", {"task": "add a shield", "budget": 600}),
        ("find_references", {"target": "PlayerHealth"}),
        ("describe", {"target": "Assets/Scripts/Player/PlayerHealth.cs"}),
        ("project_overview", {}),
        ("index_status", {}),
    ]
    script = MCP_READER_SCRIPT.format(root=str(indexed_fixture), calls=repr(calls))
    result = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "LOADED:"
