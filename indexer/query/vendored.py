"""Which files are third-party code, learned from the project's structure: the marks kits ship with.

A kit dropped into Assets/ ships with a license, release notes, a read-me or a PDF manual of its
own, or sits in a folder third-party code ships in by convention; its text matches rank level with
the game code a task is about unless the ranker knows it (`priors.VENDORED_PRIOR`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from indexer.identifiers import stem, word_stems

if TYPE_CHECKING:
    from indexer.store.reader import Records

# Folders third-party code ships in by convention, Unity's own imported packages among them.
_VENDORED_FOLDERS = re.compile(
    r"(^|/)_?(plugins|third[ _-]?party|thirdparties|3rd[ _-]?party|vendor|vendors|external|externals"
    r"|standard assets|textmesh pro"
    # the same words of a folder of drops (`_ExternalAssets/`, `ThirdPartyAssets/`) and the Asset Store's
    r"|(external|third[ _-]?party|3rd[ _-]?party|vendor)[ _-]?(assets|packages|plugins)"
    r"|imports|imported|imported[ _-]?assets|asset[ _-]?store|asset[ _-]?store[ _-]?assets|store[ _-]?assets)/",
    re.I,
)
# A package's sample the Package Manager imported: `Assets/Samples/<package>/<version>/<sample>/`
# (the package's code, not the project's; the sample is the drop, named by its own folder)
_PACKAGE_SAMPLES = re.compile(r"(^|/)Assets/Samples/[^/]+/\d+\.\d+[^/]*/")
# What every match of _VENDORED_FOLDERS holds, lower-cased (of an ASCII path: re.I matches some
# other letters with ASCII ones, `ſ` with `s`)
_VENDORED_TAILS = (
    "plugins/", "party", "parties/", "vendor", "external", "standard assets/", "textmesh pro/", "import", "store"
)  # fmt: skip
_VENDORED_TAIL = re.compile("|".join(map(re.escape, _VENDORED_TAILS)))  # any of them, one search in C
# Words of a package folder's name that do not name the package ("UnityConsole" is named by
# "console"), among them words of most tasks in a game ("play", "game": `com.google.play.games`
# is named by "google", not by "a solo game").
_GENERIC_PACKAGE_WORDS = frozenset(
    stem(w)
    for w in re.findall(
        r"\w+",
        "unity asset plugin package script runtime editor core common tool addon com org net io lib"
        " third party external vendor standard game play",
    )
)
# The first part of a reverse-domain package name (`com.unity.`, `net.peeweek.`)
_DOMAINS = frozenset({"com", "net", "org", "io", "dev", "de", "jp", "fr", "uk", "co"})
# Files a third-party drop ships with at its root: a license, release notes or a change log, a
# notice of the code it bundles, as text (`License.cs` is a script); a .txt has only its .meta indexed
_VENDOR_MARK = re.compile(
    r"^(licen[cs]es?|copying|change[ _-]?log|release[ _-]?notes|third[ _-]?party[ _-]?notices?)"
    r"(\.(md|txt|rtf|pdf|html?|markdown))?(\.meta)?$",
    re.I,
)
# An Asset Store package's manual, shipped as a PDF beside its code (`Documentation.pdf`,
# `Readme.pdf`, `MD Quick Start Guide 1.7.pdf`); only its `.meta` when the PDF is not indexed.
# The word starts the name, follows a non-letter or starts a camel-case word
# (`DefaultPlayablesDocumentation.pdf`); `doc` is Doc, Docs or Documentation, not a game's own
# `Game Design Document.pdf` nor `Paddock.pdf`.
_VENDOR_MANUAL = re.compile(
    r"(?:(?<![A-Za-z])|(?<=[a-z])(?=[A-Z]))"
    r"(?:(?i:doc(?:s|umentation)?)(?![a-z])|(?i:readme|manual|guide|getting[ _-]?started|quick[ _-]?start))"
    r"[^/]*\.(?i:pdf)(?:\.meta)?$"
)
# A kit's read-me as plain text in its folder (`readme.txt`, `!ReadMe!.txt`, `ReadMe DunGen.txt`,
# `Pixel Arsenal - Readme.txt`; not `Readme_Fonts.txt`),
# as Asset Store packages ship them; a game documents itself in Markdown at the repository's root.
_VENDOR_README = re.compile(r"^[^/]*?(?<![A-Za-z0-9_])read[ _-]?me\b[^/]*\.(txt|rtf)(\.meta)?$", re.I)
# A kit's folder of documentation, beside its code: its marks mark the kit.
_DOCS_FOLDER = re.compile(r"^(docs?|documentation|manuals?|help)$", re.I)
# A Unity project copied in whole (`Assets/UnityTechRaw/KartAndFPS/Assets/`): its own Assets/ below ours.
_NESTED_PROJECT = re.compile(r"^(Assets/.+?)/Assets(/|$)")
# A Unity package's manifest: below Assets/ it marks a package copied in (an SDK's drop), not the
# project's own code, which Unity compiles from Assets/ without one.
_PACKAGE_MANIFEST = "package.json"


def build_scenes(records: Records) -> frozenset[str]:
    """The scenes enabled in the build (`EditorBuildSettings.asset`): the game a player gets."""
    build = records.symbols("ProjectSettings/EditorBuildSettings.asset")
    return frozenset(s.name for s in build if s.kind == "build_scene" and s.detail == "enabled")


def third_party_folders(records: Records) -> frozenset[str]:
    """The project's folders of third-party code (vendored_folders), from its index."""
    libraries = [p for p in records.plugin_paths() if p.lower().endswith(".dll")]
    return vendored_folders(records.vendor_mark_paths(), build_scenes(records), libraries)


def vendored_folders(
    paths: list[str], build_scenes: Iterable[str] = (), libraries: Iterable[str] = ()
) -> frozenset[str]:
    """Folders that hold third-party code, below the project's top folders: those with a license,
    release notes, a change log, a plain-text read-me or a PDF manual of their own (what Asset
    Store and open-source drops ship with), and below Assets/ those with a package manifest (an
    SDK's package copied in). Not a folder holding a scene of the build (`build_scenes`): that is
    the game itself, licensed as a whole (`Assets/XRI_Examples/LICENSE.md` beside its scenes)."""
    scenes, dlls = tuple(build_scenes), tuple(libraries)
    out = set()
    for p in paths:
        folder, _, name = p.rpartition("/")
        if folder.count("/") >= 1 and (
            _VENDOR_MARK.match(name)
            or _VENDOR_MANUAL.search(name)
            or _VENDOR_README.match(name)
            or (name == _PACKAGE_MANIFEST and folder.startswith("Assets/"))
        ):
            out.add(_kit_of(folder, dlls) + "/")
    return frozenset(f for f in out if not any(scene.startswith(f) for scene in scenes))


def _kit_of(folder: str, dlls: tuple[str, ...]) -> str:
    """The kit a mark's folder belongs to: a kit's documentation folder (`Assets/Rewired/Documentation/`
    holding its read-me and licences) marks the kit around it, below the project's top folders,
    when that ships a managed DLL (`Rewired_Core.dll`); a game's own `Docs/` with a change log does
    not make the game third-party. A mark inside a Unity project copied in whole, its own Assets/
    below ours, marks that project: its manuals mark only their Documentation/ folders (session 51)."""
    if nested := _NESTED_PROJECT.match(folder):
        return nested.group(1)
    parent, _, name = folder.rpartition("/")
    kit = _DOCS_FOLDER.match(name) and parent.count("/") >= 1 and any(d.startswith(parent + "/") for d in dlls)
    return parent if kit else folder


def is_vendored(path: str, folders: frozenset[str]) -> bool:
    return vendor_package(path, folders) is not None


def vendor_package(path: str, folders: Iterable[str]) -> str | None:
    """The folder a third-party file ships in, by name ("" when it has none of its own), or None for
    the project's own files: a folder with a license file, the folder below `Assets/Packages/` or a
    vendor folder (not in a test folder: `Tests/Plugins/` holds the project's tests). Of nested
    third-party folders (a networking kit bundling a licensed pooling library) the outermost, the
    drop the project took in, whatever order `folders` iterates in ("pool" does not name the kit)."""
    outer = min((f for f in folders if path.startswith(f)), key=len, default=None) if folders else None
    if outer is not None:
        return outer.rstrip("/").rsplit("/", 1)[-1]
    if path.startswith("Assets/Packages/"):
        return path.split("/")[2] if path.count("/") > 2 else ""
    if "Assets/Samples/" in path and (m := _PACKAGE_SAMPLES.search(path)):
        rest = path[m.end() :]
        return rest.split("/", 1)[0] if "/" in rest else ""
    if path.isascii() and _VENDORED_TAIL.search(path.lower()) is None:
        return None  # the regex's cost spared for most paths (asked of every file a query meets)
    m = _VENDORED_FOLDERS.search(path)  # not below a test folder: no kit is dropped into one (session 50)
    if m is None or re.search(r"(^|/)tests?/", path[: m.start() + 1], re.I):
        return None
    rest = path[m.end() :]
    return rest.split("/", 1)[0] if "/" in rest else ""


def kit_names_game(path: str, written: str, declared_in: list[str], folders: frozenset[str]) -> bool:
    """Third-party code writing the simple name of a type of the game's own: a kit knows nothing
    of the game it is dropped into, so the name is a type of a DLL it ships (an input kit's
    `Player`, beside the game's global `Player`), which the index does not read."""
    if "." in written or not is_vendored(path, folders):
        return False
    return not any(is_vendored(p, folders) for p in declared_in)


def names_package(package: str, stems: frozenset[str]) -> bool:
    """The task names the package ("the developer console" and `UnityConsole/`): then its code is
    what the task is about, not a library beside it. Every word of its name: one common word of a
    kit's ("saved" and `Easy Save 2/`) does not name it."""
    words = _package_words(package)
    return bool(words) and words <= stems


@lru_cache(maxsize=1024)
def _package_words(package: str) -> frozenset[str]:
    """The stemmed words that name a package folder (asked for every third-party hit of a query).
    Of a reverse-domain name the words after its owner's (`net.peeweek.console` is named by
    "console"), or the owner's when those are generic (`com.google.play.games` by "google")."""
    parts = package.split(".")
    if len(parts) > 2 and parts[0].lower() in _DOMAINS:
        return _naming_words(".".join(parts[2:])) or _naming_words(parts[1])
    return _naming_words(package)


def _naming_words(name: str) -> frozenset[str]:
    return frozenset(w for w in word_stems(name) if len(w) >= 3 and w not in _GENERIC_PACKAGE_WORDS)
