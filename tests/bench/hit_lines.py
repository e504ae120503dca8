"""Whether a hit points at the member a question is about: of the held-out questions' gold
scripts in `query`'s top ten, those whose question's note (`tests/bench/questions/*.jsonl`, written
when the questions were labelled) names a member the script declares, and how many of those hits
are named by such a member. A measure of the line `query` shows, which acc@5 does not see.

usage: python -m tests.bench.hit_lines CHECKOUTS [--sets A,B]

CHECKOUTS as for `tests.bench.heldout` (one indexed checkout per set). A note names a member by a
call (`ReceiveHP(...)`) or a dotted name (`ServerCharacter.ReceiveHP`); the script declares it when
its text holds the name followed by `(`, `;` or `=`. Not a test (never run by pytest).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

SETS = Path(__file__).parent / "questions"


def named_members(note: str) -> set[str]:
    """The member names a note writes: called (`Foo(`) or dotted (`Type.Foo`: `Foo`)."""
    return set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", note)) | {
        m.split(".")[-1] for m in re.findall(r"\b\w+\.\w+\b", note)
    }


def declared(text: str, names: set[str], own: str) -> set[str]:
    """The names a script's text declares (or assigns), but the script's own class."""
    return {n for n in names if n != own and re.search(rf"\b{re.escape(n)}\s*[(;=]", text)}


def score(checkouts: Path, sets: list[str]) -> tuple[int, int]:
    """(hits named by a member the note names, hits judged)."""
    from indexer.query.workspace import open_workspace, projects_at

    judged = good = 0
    for name in sets:
        checkout = (checkouts / name).resolve()
        if not checkout.is_dir():
            print(f"{name}: no checkout at {checkout}, left out")
            continue
        ws = open_workspace(checkout, projects_at(checkout))
        for line in (SETS / f"{name}.jsonl").read_text().splitlines():
            if not line.strip():
                continue
            task = json.loads(line)
            members = named_members(task.get("note", ""))
            gold = {g for g in task["relevant_files"] if g.endswith(".cs")}
            for hit in ws.search(task["message"], 10):
                if hit.path not in gold or not (checkout / hit.path).is_file():
                    continue
                text = (checkout / hit.path).read_text(errors="replace")
                wanted = declared(text, members, Path(hit.path).stem)
                if wanted:
                    judged += 1
                    good += hit.name.rsplit(".", 1)[-1] in wanted
    return good, judged


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("checkouts", type=Path)
    ap.add_argument("--sets", help="comma-separated set names (default: every set)")
    args = ap.parse_args()
    sets = args.sets.split(",") if args.sets else sorted(json.loads((SETS / "sets.json").read_text()))
    good, judged = score(args.checkouts, sets)
    print(f"{good}/{judged} gold-script hits named by a member the question's note names")


if __name__ == "__main__":
    main()
