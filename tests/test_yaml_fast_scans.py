"""Session 56's faster search of the Unity YAML line reader finds what the regex it stands for finds
(the speed work promises byte-identical records): a GameObject's `m_Component` items found from
their line break (`yaml_hierarchy.components`, for `_COMPONENT`'s MULTILINE `^`), checked on random
bodies made of Unity's lines and of lines that break its layout."""

from __future__ import annotations

import random

from indexer.scanners.yaml_hierarchy import _COMPONENT, components

_COMPONENT_LINES = [
    "GameObject:",
    "  m_Component:",
    "  - component: {fileID: 5}",
    "  - component: {fileID: -7}",
    "  - 4: {fileID: 12}",
    "  - 114: {fileID: 3",
    "  - component: {fileID: x}",
    "   - component: {fileID: 1}",
    "  -  component: {fileID: 1}",
    "  - component:{fileID: 1}",
    "  m_Layer: 0",
    "",
]


def test_components_are_what_the_multiline_regex_finds() -> None:
    """On 20,000 random bodies (a first line that is an item among them), `components` gives
    `_COMPONENT.findall`'s fileIDs, in order."""
    rng = random.Random(56)
    found = 0
    for _ in range(20_000):
        body = "\n".join(rng.choice(_COMPONENT_LINES) for _ in range(rng.randint(0, 7)))
        assert components(body) == _COMPONENT.findall(body), body
        found += bool(_COMPONENT.match(body))
    assert found > 1_000
