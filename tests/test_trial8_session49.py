"""An eighth trial on two unseen games (docs/retrieval.md, session 49): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.query import synonyms

from .conftest import meta, mono_script, write_project
from .conftest import ranked_paths as _ranked


def _paint(tmp_path: Path) -> Path:
    """A paint shooter: the gun sprays ink (`SplatGun`), the ink tank counts it, a sound plays a
    splat; the script painting where a particle lands draws a splat of a random radius between
    `minRadius` and `maxRadius` and says neither "ink" nor "splat"."""
    files = {
        "Assets/Scripts/SplatGun.cs": mono_script(
            "SplatGun",
            "    // sprays ink while the mouse is held\n    public ParticleSystem inkParticle;\n"
            "    void Update() { if (Input.GetMouseButtonDown(0)) inkParticle.Play(); }",
        ),
        "Assets/Scripts/SplatGun.cs.meta": meta("a4980000000000000000000000000001"),
        "Assets/Scripts/InkTank.cs": mono_script(
            "InkTank",
            "    // how much ink is left for the gun\n    public float ink = 100;\n    public float inkPerShot = 1;",
        ),
        "Assets/Scripts/InkTank.cs.meta": meta("a4980000000000000000000000000002"),
        "Assets/Scripts/SplatSound.cs": mono_script(
            "SplatSound", "    // plays a splat when the ink lands\n    public AudioClip splat;"
        ),
        "Assets/Scripts/SplatSound.cs.meta": meta("a4980000000000000000000000000003"),
        "Assets/Scripts/PaintOnHit.cs": mono_script(
            "PaintOnHit",
            "    public float minRadius = 0.05f;\n    public float maxRadius = 0.2f;\n    public Color paintColor;\n"
            "    void OnParticleCollision(GameObject other)\n    {\n"
            "        float radius = Random.Range(minRadius, maxRadius);\n"
            "        Painter.Paint(other, transform.position, radius, paintColor);\n    }",
        ),
        "Assets/Scripts/PaintOnHit.cs.meta": meta("a4980000000000000000000000000004"),
    }
    return write_project(tmp_path, files)


def test_bigger_searches_the_radius_a_size_is_kept_as(tmp_path: Path) -> None:
    """ "Make the ink splats bigger" had the particle painter, whose `minRadius` and `maxRadius`
    set a splat's size, outside the top 20 of the trial's paint game: it says no word of the task,
    and "bigger" searched `size` and `scale` only. A round thing's size is its radius (a splat's, a
    blast's, a pick-up range's), so the comparatives of size search it too: unranked -> 4th here,
    under the three scripts saying "ink" or "splat"."""
    assert synonyms.expansions(["make", "ink", "splats", "bigger"]) == [("bigger", ("size", "scale", "radius"))]
    root = _paint(tmp_path)
    assert _ranked(root, "Make the ink splats bigger", 5) == [
        "Assets/Scripts/SplatSound.cs",
        "Assets/Scripts/InkTank.cs",
        "Assets/Scripts/SplatGun.cs",
        "Assets/Scripts/PaintOnHit.cs",
    ]
