"""A record linking two of the best hits' data assets: the recipe turning one into the other.

"How many chops does it take before a cabbage turns into slices" ranks the cabbage's and the
slices' own files first (their prefabs, their ScriptableObjects, their visuals), and neither holds
the number: a cutting counter's prefab lists its recipes, each an item whose `input` is
`Cabbage.asset` and whose `output` is `CabbageSlices.asset`, beside its `maxCuts`. "More time
between cooked and burned" is the stove's item from `MeatPattyCooked.asset` to
`MeatPattyBurned.asset` with its `maxSeconds`. Such an item names no word of the task but the two
things it joins, and the walk reaches the counter from each asset as one of the files referencing
it, at a small share. A file whose one component holds two of the best data assets in two
different fields a few lines apart (one record: a recipe, a conversion, a pair) is about both:
it ranks with the better of them.

Not two items of one list (`scriptables: [Cabbage, CabbageSlices, ...]`, a registry of every
item, or a plate's `validIngredients`), which the same field holds: a list says the assets are
alike, not that one becomes the other. Read from the `refs` table, one lookup per asset by its
GUID: no scene's record is decoded.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from indexer.query.pairing import _Pairs
    from indexer.query.workspace import ProjectIndex

LINKED_BEST = 10  # the data assets among this many best files are looked at
LINKED_ASSETS_MOST = 4  # ... at most these many of them (the best first)
LINK_LINES = 3  # two references at most this many lines apart in one component are one record's
LINK_HOLDERS_MOST = 8  # an asset more files reference is a hub: its records say nothing of one task
LINK_SHARE = 1.0  # the holder ranks at least this share of the better asset's score, times its prior
_GUID_REFS = (
    "SELECT f.path, r.line, r.context, r.detail FROM refs r JOIN files f ON f.id = r.file_id"
    " WHERE r.kind = 'guid' AND r.key = ?"
)

Ref = tuple[str, int, str, str]  # (holder path, line, field, component)


def raise_linked_records(pairs: _Pairs) -> None:
    """Each file holding two of the LINKED_ASSETS_MOST best data assets (among the LINKED_BEST
    best files) in one record (`_linked`) ranks at least LINK_SHARE of the better one's score times
    its own prior, saying `links Assets/.../CabbageSlices.asset to another hit in one record`."""
    best = [r for r in pairs.best(lambda _: True, LINKED_BEST) if r.path.endswith(".asset")][:LINKED_ASSETS_MOST]
    if len(best) < 2:
        return
    project = pairs.project
    refs = {r.path: project.remember(("guid_refs", r.path), lambda p=r.path: _refs(project, p)) for r in best}
    for a, b in combinations(best, 2):
        better = a if (-a.score, a.path) <= (-b.score, b.path) else b
        for holder in sorted(_linked(refs[a.path], refs[b.path]) - {a.path, b.path}):
            score = better.score * LINK_SHARE * pairs.prior(holder)
            if holder.startswith(pairs.prefix):
                pairs.raise_to(holder, score, ("links", better.path, ()))
                if pairs.ranked[holder].score == score:  # the record, not the walk's edge, ranks it
                    pairs.boosts[holder] = (score, "links", better.path, ())


def _refs(project: ProjectIndex, asset: str) -> tuple[Ref, ...]:
    """The references to `asset` in scenes, prefabs and data assets; none when more than
    LINK_HOLDERS_MOST files hold it (a hub)."""
    records = project.graph.records
    guid = records.guid_of_path(asset)
    rows = tuple(records.conn.execute(_GUID_REFS, (guid,))) if guid else ()
    return () if len({path for path, *_ in rows}) > LINK_HOLDERS_MOST else rows


def _linked(these: tuple[Ref, ...], those: tuple[Ref, ...]) -> set[str]:
    """The files holding one of `these` and one of `those` in one component, in two different
    fields at most LINK_LINES lines apart."""
    return {
        path
        for path, line, field, owner in these
        for other, other_line, other_field, other_owner in those
        if path == other and owner == other_owner and field != other_field and abs(line - other_line) <= LINK_LINES
    }
