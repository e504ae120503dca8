"""Prefab instances a scene only places: one line for many.

A level holds hundreds of instances of a few prefabs (trees, clouds, rocks, guard spawns), each
overriding where it stands, its size, its name and its baked lighting. `describe` listed each with
those overrides, so a scene's first 400 lines were its vegetation and the objects a user asks
about (the player, the HUD, the managers) were cut. Siblings that are instances of one prefab,
holding nothing of their own and overriding only such settings, are one line with their count.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from indexer.model import Symbol

# Overrides that only place an instance or settle how it is lit and drawn.
PLACEMENT = frozenset(
    {
        "m_Name", "m_LocalPosition", "m_LocalRotation", "m_LocalScale", "m_LocalEulerAnglesHint", "m_RootOrder",
        "m_StaticEditorFlags", "m_Layer", "m_LightmapIndex", "m_LightmapTilingOffset", "m_ScaleInLightmap",
        "m_Materials", "m_CastShadows", "m_ReceiveShadows",
    }
)  # fmt: skip
PLACED_RUN = 3  # siblings placing one prefab this many times are one line
MORE_SAID = 4  # properties named beyond placement on a run's line
# What a placed run's line says its overrides set, beyond where the instances stand.
_SAID = {"m_Layer": "layer", "m_Materials": "materials", "m_StaticEditorFlags": "static flags"}


def placed_runs(
    nodes: Mapping[str, Symbol],
    children: Mapping[str, Sequence[str]],
    components: Mapping[str, Sequence[Symbol]],
    overrides: Mapping[str, Sequence[Symbol]],
    art: Callable[[str], bool] = lambda guid: False,
) -> dict[str, tuple[str, ...]]:
    """First sibling -> the siblings (PLACED_RUN or more) that are instances of one prefab with no
    child, no added component and only PLACEMENT overrides, in the order of the tree; or of a
    prefab of looks (`art`, by its GUID: no project script), whatever they set of it (a level's
    144 decals each sizing its projector were the first 300 lines of its scene)."""
    out: dict[str, tuple[str, ...]] = {}
    for siblings in children.values():
        runs: dict[str, list[str]] = {}
        for child in siblings:
            s = nodes[child]
            if (
                s.kind == "prefab_instance"
                and s.detail
                and not children.get(child)
                and not components.get(child)
                and (all(o.name.split(".")[0] in PLACEMENT for o in overrides.get(child, ())) or art(s.detail))
            ):
                runs.setdefault(s.detail, []).append(child)
        out.update((run[0], tuple(run)) for run in runs.values() if len(run) >= PLACED_RUN)
    return out


def placed_overrides(overrides: Mapping[str, Sequence[Symbol]], run: Sequence[str]) -> str:
    """`placed` and what else the run's overrides set: `placed; layer, materials set`, then the
    other properties an art prefab's instances set, by name (`m_Size, m_Offset`)."""
    keys = dict.fromkeys(o.name.split(".")[0] for p in run for o in overrides.get(p, ()))
    others = [k for k in keys if k not in PLACEMENT]
    said = sorted({_SAID[k] for k in keys if k in _SAID}) + others[:MORE_SAID]
    more = len(others) - MORE_SAID
    return "placed" + (f"; {', '.join(said)}{f', … {more} more' if more > 0 else ''} set" if said else "")
