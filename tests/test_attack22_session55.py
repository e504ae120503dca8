"""Attack round 22 (session 55): what broke (docs/indexing.md, "Bad input", lists what held).

1. `refs K2999.f0` of a field declared by the top class `K0` of a chain of 3,000 classes (a file
   each) took 89 s (`refs K0.f0` 5 s): the family of a member asked of a class below its declarer
   walked every class's descendants, each walk decoding records again past the memo's 512 files.
   Now the classes above the one asked are walked up once.
2. `describe` of a `Packages/manifest.json` holding one string of 49 MB (a package's version) took
   77 s and 5 GB, `context` naming the manifest 79 s: the outline compiled the string into a
   regular expression to see whether the line already said it. Now found with `str.find`, 2 s.
3. With `git` missing from PATH, in a git repository with our hooks installed, `hook install` said
   the project "is not inside a git repository ... run `git init` first" and `doctor` passed
   "not inside a git repository: git hooks do not apply". Both now say git is not on PATH.
4. `refs Plus.a` of a field used 100,000 times on one line (`a + a + ...`, 400 KB) ran past 120 s,
   `refs Dots.M` of `this.M().M()...` 50,000 times too: each use was checked against the whole
   line before it, with patterns anchored at its end. Now a line is read a use at a time up to
   its first usage, each within `member_text.NEAR` characters: 0.5 s; a line of 20,000 uses of
   another class's `o.a`, none a usage, 160 s before, 6 s.
5. A zero-width space, a soft hyphen or a direction mark inside a word of a query (pasted from a
   chat or a web page) split it: `query "Hea\u200blth"` found nothing. Now a query's invisible
   format characters are dropped before its words are read (`identifiers.bounded_query`).

Each test failed before its fix (said in each)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from indexer.cli.main import main
from indexer.store.reader import Records

from .conftest import meta, write_project
from .test_hooks import git, repo  # noqa: F401  (the fixture)


def _chain(depth: int) -> dict[str, str]:
    """Classes K0 <- K1 <- ... a file each, K0 declaring `f0`, and a user of the last one's `f0`."""
    files = {}
    for i in range(depth):
        base = "UnityEngine.MonoBehaviour" if i == 0 else f"K{i - 1}"
        files[f"Assets/Chain/K{i}.cs"] = f"public class K{i} : {base} {{ public int f{i}; }}\n"
        files[f"Assets/Chain/K{i}.cs.meta"] = meta(f"{i:032x}")
    files["Assets/User.cs"] = f"public class User {{ K{depth - 1} k; void Go() {{ k.f0 = 1; }} }}\n"
    return files


def test_a_member_asked_of_the_bottom_of_a_deep_chain_is_found_in_linear_work(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    """Before: 117,167 records decoded for 600 classes (quadratic), 55,737 with the walk up alone."""
    depth = 600
    root = write_project(tmp_path / "Game", _chain(depth))
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    decoded = []
    real = Records.record
    monkeypatch.setattr(Records, "record", lambda self, path: decoded.append(path) or real(self, path))
    assert main(["refs", f"K{depth - 1}.f0", "--no-refresh", "--project", str(root)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:3] == [
        f"member f0 of K{depth - 1}",
        "in code (1):",
        f"  Assets/User.cs:1 [member]  public class User {{ K{depth - 1} k; void Go() {{ k.f0 = 1; }} }}",
    ]
    assert len(decoded) < 8 * depth, len(decoded)  # 3,880; 8,178 for 1,200 classes


def test_a_huge_string_of_a_manifest_is_never_made_a_pattern(tmp_path: Path, capsys, monkeypatch) -> None:
    """Before: `describe` compiled the 2 MB version into a pattern (the guard below raised)."""
    version = "1." + "0" * 2_000_000
    root = write_project(tmp_path / "Game", {"Packages/manifest.json": f'{{"dependencies": {{"com.x": "{version}"}}}}'})
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    real = re._compile

    def small_only(pattern, flags):
        assert len(pattern) < 100_000, "a pattern made of the file's text"
        return real(pattern, flags)

    monkeypatch.setattr(re, "_compile", small_only)
    assert main(["describe", "Packages/manifest.json", "--no-refresh", "--project", str(root)]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [
        "Packages/manifest.json  (json)",
        f"package com.x [{version[:79]}…]  L1",
    ]


def test_git_missing_from_path_is_said_so_not_taken_for_no_repository(repo: Path, capsys, monkeypatch) -> None:  # noqa: F811
    """Before: "not inside a git repository ... run `git init` first", and doctor's pass."""
    from indexer.cli.checks import WARN
    from indexer.cli.doctor import check_hooks

    assert main(["hook", "install", "--project", str(repo)]) == 0
    capsys.readouterr()
    empty = repo.parent / "no-git-here"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert main(["hook", "install", "--project", str(repo)]) == 2
    assert capsys.readouterr().err == (
        "error: git was not found on PATH, so the git repository holding"
        f" {repo} cannot be read: install git or add its folder to PATH, then run the command again\n"
    )
    check = check_hooks(repo)
    assert (check.name, check.status, check.detail) == (
        "git-hooks",
        WARN,
        "git was not found on PATH: whether hooks refresh the index cannot be seen",
    )


def test_a_line_of_thousands_of_uses_is_read_in_linear_time(tmp_path: Path, capsys, monkeypatch) -> None:
    """Before: each use was checked against the line before it (about 3,000 x 12 KB searched)."""
    uses = 3_000
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Plus.cs": "public class Plus { public int a; }\n",
            "Assets/Other.cs": "public class Other { public int a; }\n",
            "Assets/Foil.cs": "public class Foil { Plus p; Other o; int M() { return "
            + " + ".join(["o.a"] * uses)
            + "; } }\n",
            "Assets/User.cs": "public class User { Plus p; int M() { return " + " + ".join(["p.a"] * uses) + "; } }\n",
        },
    )
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    capsys.readouterr()
    import indexer.query.receivers as receivers

    read = []
    real = receivers.OtherReceivers.holds
    monkeypatch.setattr(
        receivers.OtherReceivers,
        "holds",
        lambda self, before, line: read.append(len(before)) or real(self, before, line),
    )
    assert main(["refs", "Plus.a", "--no-refresh", "--project", str(root)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["member a of Plus", "in code (1):"]
    assert out[2].startswith("  Assets/User.cs:1 [member]  public class User { Plus p; int M() { return p.a + p.a")
    assert len(out) == 3
    assert len(read) == uses + 1  # every `o.a` of Foil, the first `p.a` of User
    assert max(read) <= 2_000  # each read within NEAR characters of its use


def test_invisible_characters_inside_a_query_word_are_dropped_not_taken_for_a_break(tmp_path: Path, capsys) -> None:
    """Before: `Hea\u200blth` was searched as `hea` and `lth`, and found nothing."""
    root = write_project(
        tmp_path / "Game",
        {
            "Assets/Health.cs": "public class Health { public void TakeDamage(int amount) { } }\n",
            "Assets/Mover.cs": "public class Mover { public void Walk() { } }\n",
        },
    )
    assert main(["index", "--quiet", "--project", str(root)]) == 0
    for text in ("Hea\u200blth", "Hea\u00adlth", "\u202eHealth\u202c", "\ufeffHea\u2060lth"):
        capsys.readouterr()
        assert main(["query", text, "--json", "--no-refresh", "--limit", "1", "--project", str(root)]) == 0
        hits = json.loads(capsys.readouterr().out)["results"]
        assert [h["path"] for h in hits] == ["Assets/Health.cs"], text
        assert main(["context", text, "--json", "--no-refresh", "--budget", "1000", "--project", str(root)]) == 0
        pack = json.loads(capsys.readouterr().out)
        assert [f["path"] for f in pack["tier2"]["files"]][:1] == ["Assets/Health.cs"], text
    assert _over_mcp(root, "Hea\u200blth") == (True, True)


def _over_mcp(root: Path, text: str) -> tuple[bool, bool]:
    """Whether MCP `search` ranks `Health.cs` first for `text`, and `get_context` packs it."""
    import anyio
    from mcp import Client

    from indexer.query.workspace import open_workspace, projects_at
    from mcp_adapter.server.app import create_server

    async def ask() -> tuple[str, str]:
        server = create_server(
            open_workspace(root, projects_at(root)), refresh_interval=60, tokenizer="estimate", watch=False
        )
        async with Client(server, mode="legacy") as c:
            found = (await c.call_tool("search", {"query": text, "limit": 1})).content[0].text
            pack = (await c.call_tool("get_context", {"task": text, "budget": 1000})).content[0].text
            return found, pack

    found, pack = anyio.run(ask)
    return "Assets/Health.cs" in found.splitlines()[0], "Assets/Health.cs" in pack


def test_json_kinds_nested_100_000_deep_are_skipped_or_kept_partial_as_documented() -> None:
    """docs/indexing.md, attack 22: a JSON-made asset nested 100,000 `[` deep is skipped, and a
    `.json` file (a package manifest too) kept `partial` with its text, as any `.json` that does
    not parse since schema 61; each with the parser's note, none a scanner error."""
    from indexer.project import kind_of
    from indexer.scanners import scan

    deep = b"[" * 100_000
    said = "invalid JSON: nested too deeply"
    for path in ("Assets/A.asmdef", "Assets/A.asmref", "Assets/A.inputactions", "Assets/A.shadergraph"):
        rec = scan(path, kind_of(path), deep)
        assert (rec.status, rec.note) == ("skipped", said), path
    for path in ("Packages/manifest.json", "Assets/Data/Level.json"):
        rec = scan(path, kind_of(path), deep)
        assert (rec.kind, rec.status, rec.note) == ("json", "partial", said), path
