"""Whether a hit points at the member a question is about: of the held-out questions' gold
scripts in `query`'s top ten, those whose question's note (`tests/bench/questions/*.jsonl`, written
when the questions were labelled) names a member the script declares, and how many of those hits
are named by such a member. A measure of the line `query` shows, which acc@5 does not see.

usage: python -m tests.bench.hit_lines CHECKOUTS [--sets A,B] [--context BUDGET]

With --context: of the gold scripts a `context --budget BUDGET` pack shows, those whose note names
a member the script declares, and how many of those the pack's section of the file shows a line of.

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


def _sections(text: str) -> dict[str, str]:
    """A pack's tier 2 text by file: path -> its section."""
    out = {}
    for part in text.split("\n### ")[1:] if text.startswith("## ") else []:
        path = part.split("  (", 1)[0]
        out[path] = part
    return out


def score(checkouts: Path, sets: list[str], budget: int = 0) -> tuple[int, int]:
    """(hits named by a member the note names, hits judged); with `budget`, (pack sections
    showing such a member, sections judged)."""
    from indexer.query.context import build_context
    from indexer.query.tokens import counter
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
            if budget:
                sections = _sections(build_context(ws, task["message"], budget, counter("estimate")).tier2.text)
                shown = [(path, section) for path, section in sections.items() if path in gold]
            else:
                shown = [(h.path, h.name.rsplit(".", 1)[-1]) for h in ws.search(task["message"], 10) if h.path in gold]
            for path, said in shown:
                if not (checkout / path).is_file():
                    continue
                wanted = declared((checkout / path).read_text(errors="replace"), members, Path(path).stem)
                if wanted:
                    judged += 1
                    if budget:
                        good += any(re.search(rf"^\s*L\d+ .*\b{re.escape(w)}\b", said, re.M) for w in wanted)
                    else:
                        good += said in wanted
    return good, judged


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("checkouts", type=Path)
    ap.add_argument("--sets", help="comma-separated set names (default: every set)")
    ap.add_argument("--context", type=int, default=0, metavar="BUDGET", help="judge packs of this budget instead")
    args = ap.parse_args()
    sets = args.sets.split(",") if args.sets else sorted(json.loads((SETS / "sets.json").read_text()))
    good, judged = score(args.checkouts, sets, args.context)
    if args.context:
        print(f"{good}/{judged} gold-script sections of {args.context}-token packs showing a member the note names")
    else:
        print(f"{good}/{judged} gold-script hits named by a member the question's note names")


if __name__ == "__main__":
    main()
