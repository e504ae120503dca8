"""`kept_record`: what `records.record` returns, decoded once while among the last RECORDS_KEPT read."""

from __future__ import annotations

from types import SimpleNamespace

from indexer.model import FileRecord
from indexer.query.kept_records import RECORDS_KEPT, kept_record


class _Graph:
    """A graph whose records count their reads (`kept_record` keeps its records in the graph's dict)."""

    def __init__(self) -> None:
        self.reads: list[str] = []
        self.records = SimpleNamespace(record=self._record)

    def _record(self, path: str) -> FileRecord | None:
        self.reads.append(path)
        return None if path.startswith("missing") else FileRecord(path=path, kind="csharp")


def test_a_record_is_read_once_while_kept_and_again_once_dropped() -> None:
    graph = _Graph()
    first = kept_record(graph, "A.cs")
    assert first == FileRecord(path="A.cs", kind="csharp") and kept_record(graph, "A.cs") is first
    assert kept_record(graph, "missing.cs") is None and kept_record(graph, "missing.cs") is None
    assert graph.reads == ["A.cs", "missing.cs"]
    kept_record(graph, "A.cs")  # now read after missing.cs: the next to go is missing.cs
    for i in range(RECORDS_KEPT - 1):
        kept_record(graph, f"F{i}.cs")
    kept_record(graph, "A.cs")
    kept_record(graph, "missing.cs")
    assert graph.reads.count("A.cs") == 1 and graph.reads.count("missing.cs") == 2
