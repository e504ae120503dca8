"""Attack 12 of session 47: each test failed before the fix it names.

1. A valid script whose last line is a preprocessor directive with no line break after it
   (`#pragma warning restore 0649`, `#endregion`, `#nullable enable`: editors that save no final
   newline) was recorded as read in part: "partial: 1 syntax error region, near line 10", or
   "partial: 0 syntax error regions" and `describe`'s "(parsed with syntax errors near lines )",
   naming no line (tree-sitter's C# grammar ends a directive at a line break; the MISSING token
   it puts there is no node the error query finds). `status` listed such files as partial.
2. A script with a field's name typed away (`private intnt;`), whose tree holds a MISSING token
   hidden inside an `identifier`, was "partial: 0 syntax error regions" and `describe` said
   "(parsed with syntax errors near lines )": 12 of 3,000 random one-edit mutations of the
   fixture's scripts read so. The innermost node holding the error gives its line.
"""

from __future__ import annotations

import pytest

from indexer.scanners import scan


@pytest.mark.parametrize(
    "last",
    [b"#pragma warning restore 0649", b"#endregion", b"#nullable enable", b"#endif", b"#region Tail"],
)
def test_a_script_ending_in_a_directive_without_a_line_break_is_read_whole(last: bytes) -> None:
    opening = b"#region Tail\n" if last == b"#endregion" else b"#if UNITY_EDITOR\n" if last == b"#endif" else b""
    src = opening + b"using UnityEngine;\npublic class Door : MonoBehaviour {\n    public void Open() {}\n}\n" + last
    rec = scan("Assets/Door.cs", "csharp", src)
    assert (rec.status, rec.note, rec.error_lines) == ("ok", "", ())
    assert [s.name for s in rec.symbols if s.kind == "method"] == ["Open"]


def test_a_script_with_a_real_error_still_names_its_line() -> None:
    rec = scan("Assets/Door.cs", "csharp", b"public class Door {\n    void Open( {}\n}\n#endregion")
    assert rec.status == "partial" and rec.error_lines and rec.note.endswith(("region", "regions"))


def test_a_missing_name_is_a_syntax_error_with_its_line() -> None:
    """`private intnt;` (a field's name typed away) parses with a MISSING identifier, which the
    error query's `(MISSING)` does not match: the record said "0 syntax error regions"."""
    src = b"class A {\n    public int x;\n    private intnt;\n}\n"
    rec = scan("Assets/A.cs", "csharp", src)
    assert (rec.status, rec.note, rec.error_lines) == ("partial", "1 syntax error region", (3,))
