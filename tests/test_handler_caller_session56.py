"""The one script calling a handler the task names (docs/retrieval.md, "Session 56, a
thirty-fourth trial"): "where does a player get eliminated" finds `OnPlayerEliminated` on the
manager; where it happens is the one trigger calling it, whose words may be none of the task's."""

from __future__ import annotations

from indexer.model import Ranked, Symbol
from indexer.query import close_parts

HIT = "Assets/Round/RoundManager.cs"
ZONE = "Assets/Round/KillVolume.cs"
ASKED = frozenset({"player", "eliminat", "fall", "arena"})


class _Graph:
    """Edges, symbols and file lines alone (what `close_parts.lift_handler_callers` reads): the
    manager declaring `handler`, used by `users` scripts (the first `callers` calling it)."""

    def __init__(self, handler: str = "OnPlayerEliminated", users: int = 3, callers: int = 1) -> None:
        self.records = self
        self.handler = handler
        self.users = [ZONE, *(f"Assets/Round/User{i}.cs" for i in range(1, users))]
        self.callers = set(self.users[:callers])
        self.read: list[str] = []

    def symbols(self, path: str):
        return [Symbol("method", self.handler, 4), Symbol("method", "EndRound", 9)] if path == HIT else []

    def used_by(self, path: str):
        return [(p, "type") for p in self.users] + [("Assets/Scenes/Arena.unity", "script")] if path == HIT else []

    def file_lines(self, path: str) -> list[str]:
        self.read.append(path)
        call = f"RoundManager.Instance.{self.handler}(id);"
        return ["void OnTriggerEnter(Collider other) {", f"    {call if path in self.callers else 'id++;'}", "}"]


def _order() -> list[Ranked]:
    return [Ranked(HIT, 20.0, [])] + [Ranked(f"Assets/F{i}.cs", 10.0 - i / 10, []) for i in range(11)]


def _lifted(graph: _Graph, asked: frozenset[str] = ASKED) -> list[str]:
    return [r.path for r in close_parts.lift_handler_callers(graph, _order(), {}, asked)]


def test_the_one_caller_of_a_named_handler_rises_just_above_the_tenth() -> None:
    """The manager first, its `OnPlayerEliminated` every word the task's: the one script of its
    users calling it is added tenth, at just above the old tenth's score, said why."""
    order = _order()
    out = close_parts.lift_handler_callers(_Graph(), order, {}, ASKED)
    assert [r.path for r in out].index(ZONE) == 9
    assert out[9].score == order[9].score * close_parts.LIFT
    assert out[9].reasons == [f"the one script calling {HIT}'s OnPlayerEliminated, which the task names"]


def test_a_handler_called_from_two_scripts_does_not() -> None:
    """Two scripts calling it: which one the task means is not told, neither rises."""
    assert ZONE not in _lifted(_Graph(callers=2))


def test_a_handler_with_a_word_the_task_does_not_say_does_not() -> None:
    """`OnPlayerEliminatedTwice`: "twice" is not the task's, so the handler is not the one named."""
    assert ZONE not in _lifted(_Graph(handler="OnPlayerEliminatedTwice"))


def test_a_hit_used_by_many_scripts_is_not_read() -> None:
    """More than FEW_USERS scripts using the hit: a hub's handler; none of them is read."""
    assert close_parts.FEW_USERS == 8
    graph = _Graph(users=9)
    assert ZONE not in _lifted(graph)
    assert graph.read == []
    assert ZONE in _lifted(_Graph(users=8))


def test_named() -> None:
    """A handler named by two words of the task or more, each of them; never a Unity message."""
    asked = frozenset({"player", "eliminat", "trigger", "enter", "death"})
    assert close_parts._named("OnPlayerEliminated", asked)
    assert not close_parts._named("OnPlayerEliminatedTwice", asked)
    assert not close_parts._named("OnDeath", asked)  # one word: too few
    assert not close_parts._named("OnTriggerEnter", asked)  # Unity calls it, no script does
    assert not close_parts._named("PlayerEliminated", asked)  # no handler
