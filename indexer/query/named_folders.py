"""Files in a folder the task names by an identifier it quotes or a path it types.

Projects group the files of one feature or class in a folder named after it: the tests of
`NetworkSceneManager` in `Tests/Runtime/NetworkSceneManager/`, a sample project's scripts in
`InputDeviceTester/`. A task quoting that name ("Active scene not added to NetworkSceneManager's
scenes", "InputDeviceTester only shows the first touch") is about those files as much as about
the file of that name, yet the folder's name is one word of each path among the whole texts the
task's other words match. Only a quoted identifier (`PlayerInput`, `snake_case`), never a plain
word: "player" or "scripts" name folders of half a project. Not a package's own folder
(`Packages/ParrelSync/`) nor third-party code: a task naming a tool ("a second editor with
ParrelSync") asks about the game's use of it, and a package it names is already not ranked down.
A path typed with a glob ("StyleCop fixes in UI/DialogBox/Options/* and Quest/*") names the
folders a change sweeps, each by its last name.
"""

from __future__ import annotations

import re

from indexer.identifiers import quoted_names
from indexer.model import Ranked
from indexer.query.vendored import vendor_package

FOLDER_GAIN = 1.5  # a text match in a folder the task names (docs/retrieval.md, session 50)


def raise_named_folders(project, ranked: dict[str, Ranked], text: str) -> None:
    """Each text match of the project's own below a folder named (case aside) like an identifier
    the task quotes, or at the end of a path it types, scores FOLDER_GAIN times more, before the
    walk starts from the best of them."""
    typed, rest = typed_folders(text)
    names = quoted_names(rest)
    if not names and not typed:
        return
    for r in ranked.values():
        named = _named_folder(r.path, names) or _typed_folder(r.path, typed)
        if named is not None and vendor_package(r.path, project.vendored) is None:
            r.score *= FOLDER_GAIN
            r.reasons.append(f"in {named}/, which the task names")


def _named_folder(path: str, names: frozenset[str]) -> str | None:
    """The first folder of `path` named like one of `names`, past a package's own folder
    (`Packages/<name>/`)."""
    folders = path.split("/")[:-1]
    start = 2 if folders[:1] == ["Packages"] else 0
    return next((f for f in folders[start:] if f.lower() in names), None)


_ROOTS = frozenset({"Assets", "Packages"})
# A path the task types: segments of a name's characters joined by slashes, maybe ending in a glob;
# starting where no name character is before it (a `-` is one: started after each `-` of a run
# `a-a-a-...`, each start read the run to its end, 38 s for 256 KB; attack 23).
_TYPED = re.compile(r"(?<![\w/:.-])((?:[A-Za-z_][\w.-]*/)+)(\*{1,2}(?:\.\w+)?|[A-Za-z_][\w-]*)?(?![\w/]|\.\w)")


def typed_folders(text: str) -> tuple[tuple[tuple[str, ...], ...], str]:
    """The folder paths the task types, lower-cased (`UI/DialogBox/Options/*`, `Quest/*`,
    `Scripts/UI/`, `Assets/Scripts/UI`, as their folders' names), and the task without them: a
    commit message lists the folders a change sweeps as paths, as a person would glob them, and
    an identifier inside one (`DialogBox`) names no folder of its own. Without a glob or a slash
    after it a path needs a project root first: words with slashes between are a choice
    ("weapon/armor", "small/medium/large"). A file's path (`Scripts/Player.cs`) names the file,
    not a folder."""
    out, rest = [], text
    for m in _TYPED.finditer(text):
        folders, tail = m.group(1).rstrip("/").split("/"), m.group(2) or ""
        if tail and not tail.startswith("*"):
            if "." in tail or folders[0] not in _ROOTS:
                continue
            folders.append(tail)
        out.append(tuple(f.lower() for f in folders))
        rest = rest.replace(m.group(0), " ")
    return tuple(out), rest


def _typed_folder(path: str, typed: tuple[tuple[str, ...], ...]) -> str | None:
    """The innermost folder of `path` ending a run of folders the task types (`typed_folders`)."""
    folders = path.split("/")[:-1]
    lowered = [f.lower() for f in folders]
    for run in typed:
        n = len(run)
        for i in range(len(folders) - n + 1):
            if tuple(lowered[i : i + n]) == run:
                return folders[i + n - 1]
    return None
