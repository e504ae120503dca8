"""A new user's trial on two unseen games (docs/retrieval.md, session 44): what it found wrong,
each on a small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.build.update import update
from indexer.config import Config
from indexer.query.search import best_symbol, outlines_of
from indexer.query.workspace import open_workspace

from .conftest import write_project

_ANIMATION = """using UnityEngine;
public class AnimationScript : MonoBehaviour
{
    private Animator anim;
    private Movement move;

    void Update()
    {
        anim.SetBool("onGround", move.onGround);
        anim.SetBool("wallGrab", move.wallGrab);
        anim.SetBool("wallSlide", move.wallSlide);
    }

    public void SetHorizontalMovement(float x, float y)
    {
        anim.SetFloat("HorizontalAxis", x);
        anim.SetFloat("VerticalAxis", y);
    }

    public void SetTrigger(string trigger)
    {
        anim.SetTrigger(trigger);
    }
}
"""


def test_a_set_method_is_not_where_a_parameter_the_task_names_is_set(tmp_path: Path) -> None:
    """ "where are the animator parameters set for wall grab" pointed the script setting them at
    `SetHorizontalMovement` (its name says "set", a word asking where a value is set), not at
    `Update`, whose body sets `wallGrab`: a name holding only such a word names no member, the
    bodies decide."""
    root = write_project(tmp_path, {"Assets/Scripts/AnimationScript.cs": _ANIMATION})
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    hits = ws.search("where are the animator parameters set for wall grab", 5)
    hit = next(h for h in hits if h.path == "Assets/Scripts/AnimationScript.cs")
    assert hit.name == "AnimationScript.Update", hit
    assert hit.line == 7, hit


def test_without_bodies_a_set_method_is_not_named_either(tmp_path: Path) -> None:
    """Past the best three hits no body is read: there the script was still pointed at
    `SetHorizontalMovement`; a name holding only "set" names no member, the class is shown."""
    root = write_project(tmp_path, {"Assets/Scripts/AnimationScript.cs": _ANIMATION})
    update(root, Config(workers=1))
    ws = open_workspace(root, [(root, Config())])
    path = "Assets/Scripts/AnimationScript.cs"
    outline = outlines_of(ws.projects[0], [path])[path]
    terms = ["animator", "parameters", "set", "wall", "grab"]
    assert best_symbol(outline, terms, path)[:2] == ("AnimationScript", 2)
