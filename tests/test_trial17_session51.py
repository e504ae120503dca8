"""A seventeenth trial on unseen games (docs/retrieval.md, session 51): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import said_words
from indexer.query.asking import asks_change, asks_value

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

DATA_GUID = "5c1e0a3b7d2f4e6a8b9c0d1e2f3a4b5c"


def test_where_a_value_is_stored_asks_for_its_value() -> None:
    """ "Where are the enemy pieces' starting squares stored?" asks where a value is kept, as
    "where is it set" does; "stored" without "where" before it in its clause, inside brackets or
    before the noun it describes does not, and a stored value asks no change of it."""
    stored = "where are the enemy chess pieces' starting squares stored"
    assert asks_value(said_words(stored), stored)
    assert not asks_change(said_words(stored), stored)
    for text in (
        "the stored path is reset when the level restarts",
        "Where does the knight move? Nothing stored",
        "where is the save (gold, stored potions) written to disk",
        "where are stored potions sold",
    ):
        assert not asks_value(said_words(text), text), text


def _board(tmp_path: Path) -> Path:
    """A collection of puzzles. The board puzzle's data asset holds the enemy pieces' and the
    player's pieces' squares; the board places enemy pieces and checks squares, the manager starts
    a round from the data, a piece moves between cells. The other puzzles' managers load levels."""
    files = {
        "Assets/Puzzles/Board/Scripts/BoardPuzzleData.cs": (
            "using System.Collections.Generic;\nusing UnityEngine;\n[CreateAssetMenu]\n"
            "public class BoardPuzzleData : ScriptableObject\n{\n"
            "    public List<Vector2Int> enemyPieces = new List<Vector2Int>();\n"
            "    public List<Vector2Int> playerPieces = new List<Vector2Int>();\n}\n"
        ),
        "Assets/Puzzles/Board/Scripts/BoardPuzzleData.cs.meta": meta(DATA_GUID),
        "Assets/Puzzles/Board/Database/Board Puzzle Data.asset": data_asset(
            DATA_GUID,
            "Board Puzzle Data",
            "  enemyPieces:\n  - {x: 0, y: 7}\n  - {x: 3, y: 7}\n  playerPieces:\n  - {x: 4, y: 0}\n",
        ),
        "Assets/Puzzles/Board/Scripts/BoardPlacement.cs": mono_script(
            "BoardPlacement",
            "    public void PlaceEnemyPieces(Piece enemy, System.Collections.Generic.List<Vector2Int> enemySquares)"
            " { }\n"
            "    // whether a piece may move to a square: empty, an enemy piece, or off the board\n"
            "    public bool CheckSquare(int x, int y, Piece piece) => true;\n"
            "    public void HighlightSquares(Piece piece) { }",
        ),
        "Assets/Puzzles/Board/Scripts/BoardPuzzleManager.cs": mono_script(
            "BoardPuzzleManager",
            "    [SerializeField] private BoardPuzzleData data;\n    public BoardPlacement board;\n"
            "    public Piece pieceTemplate;\n"
            "    // start a round from the data\n"
            "    void Start() { board.PlaceEnemyPieces(pieceTemplate, data.enemyPieces); }",
        ),
        "Assets/Puzzles/Board/Scripts/Piece.cs": mono_script(
            "Piece",
            "    public Vector2Int cell;\n    // move to a cell, taking what stands on it\n"
            "    public void MoveTo(Vector2Int target) { cell = target; }",
        ),
    }
    for game, word in (("Cards", "card"), ("Words", "word"), ("Locker", "wire"), ("Mask", "mask"), ("Wall", "icon")):
        files[f"Assets/Puzzles/{game}/Scripts/{game}PuzzleManager.cs"] = mono_script(
            f"{game}PuzzleManager",
            f"    public int levelCount = 3;\n"
            f"    // load the next level's {word}s and check whether the puzzle is solved\n"
            f"    public void LoadLevel(int level) {{ }}\n    public void Completed() {{ }}",
        )
    return write_project(tmp_path, files)


def test_the_asset_a_value_is_stored_in_ranks_with_the_code(tmp_path: Path) -> None:
    """ "Where are the enemy pieces' starting squares stored": the data asset holding `enemyPieces`
    ranks second, under the board placing them and above its class and the manager reading it (it
    ranked fifth, under every script, as for a question asking for code)."""
    root = _board(tmp_path)
    ranked = _ranked(root, "where are the enemy pieces' starting squares stored", 3)
    assert ranked == [
        "Assets/Puzzles/Board/Scripts/BoardPlacement.cs",
        "Assets/Puzzles/Board/Database/Board Puzzle Data.asset",
        "Assets/Puzzles/Board/Scripts/BoardPuzzleData.cs",
    ]
