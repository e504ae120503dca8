"""Files in a folder the task names by an identifier it quotes.

Projects group the files of one feature or class in a folder named after it: the tests of
`NetworkSceneManager` in `Tests/Runtime/NetworkSceneManager/`, a sample project's scripts in
`InputDeviceTester/`. A task quoting that name ("Active scene not added to NetworkSceneManager's
scenes", "InputDeviceTester only shows the first touch") is about those files as much as about
the file of that name, yet the folder's name is one word of each path among the whole texts the
task's other words match. Only a quoted identifier (`PlayerInput`, `snake_case`), never a plain
word: "player" or "scripts" name folders of half a project. Not a package's own folder
(`Packages/ParrelSync/`) nor third-party code: a task naming a tool ("a second editor with
ParrelSync") asks about the game's use of it, and a package it names is already not ranked down.
"""

from __future__ import annotations

from indexer.identifiers import quoted_names
from indexer.model import Ranked
from indexer.query.priors import vendor_package

FOLDER_GAIN = 1.5  # a text match in a folder the task names (docs/retrieval.md, session 50)


def raise_named_folders(project, ranked: dict[str, Ranked], text: str) -> None:
    """Each text match of the project's own below a folder named (case aside) like an identifier
    the task quotes scores FOLDER_GAIN times more, before the walk starts from the best of them."""
    names = quoted_names(text)
    if not names:
        return
    for r in ranked.values():
        named = _named_folder(r.path, names)
        if named is not None and vendor_package(r.path, project.vendored) is None:
            r.score *= FOLDER_GAIN
            r.reasons.append(f"in {named}/, which the task names")


def _named_folder(path: str, names: frozenset[str]) -> str | None:
    """The first folder of `path` named like one of `names`, past a package's own folder
    (`Packages/<name>/`)."""
    folders = path.split("/")[:-1]
    start = 2 if folders[:1] == ["Packages"] else 0
    return next((f for f in folders[start:] if f.lower() in names), None)
