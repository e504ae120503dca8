"""A ninth trial on two unseen games (docs/retrieval.md, session 50): what it found wrong, on a
small project of its own."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import TASK_WORD_WEIGHT, weighted_terms
from indexer.query import synonyms

from .conftest import data_asset, meta, mono_script, write_project
from .conftest import ranked_paths as _ranked

_RACE = "b5090000000000000000000000000001"
_LIFESPAN = "b5090000000000000000000000000002"
_MATERIAL = "b5090000000000000000000000000003"
_SPANS = {  # name -> (GUID, dice count, modifier)
    "01_Short Lived_Very": ("b5090000000000000000000000000011", 2, 10),
    "02_Short Lived": ("b5090000000000000000000000000012", 4, 20),
    "03_Medium Lived": ("b5090000000000000000000000000013", 6, 40),
    "04_Long Lived": ("b5090000000000000000000000000014", 10, 60),
    "05_Long Lived_Very": ("b5090000000000000000000000000015", 14, 80),
}


# what a race's asset holds besides: six attributes' starting values and potentials
_ATTRIBUTES = "".join(
    f"  {part}:\n"
    + "".join(
        f"  - attribute: {{fileID: 11400000, guid: b50900000000000000000000000001{i:02d}, type: 2}}\n    value: {v}\n"
        for i in range(6)
    )
    for part, v in (("baseAttributes", 5), ("attributePotentials", 50))
)


def _races(tmp_path: Path) -> Path:
    """A fantasy RPG's data: a race ScriptableObject per race (`Elf_Wood`, `Dwarf_Hill`, `Human`)
    with its attributes, naming the lifespan asset it lives by (five `LifeExpectancy` assets from
    `01_Short Lived_Very` to `05_Long Lived_Very`, each holding its dice of years), and crafting
    materials of three woods. The lifespan assets say "long", "lived" and "lifespan"; the wood
    elves' asset says "elf" and "wood", never "elves"."""
    race_cs = (
        'using UnityEngine;\n[CreateAssetMenu(menuName = "Characters/Race")]\n'
        "public class Race : ScriptableObject\n{\n    public string raceName;\n"
        "    public AttributeValue[] baseAttributes;\n    public AttributeValue[] attributePotentials;\n"
        "    public LifeExpectancy lifeExpectancy;\n}\n"
    )
    span_cs = (
        'using UnityEngine;\n[CreateAssetMenu(menuName = "Characters/Life Expectancy")]\n'
        "public class LifeExpectancy : ScriptableObject\n{\n    public string displayName;\n"
        "    public DiceCombo lifespan;\n}\n"
    )
    files: dict[str, str] = {
        "Assets/Scripts/Race.cs": race_cs,
        "Assets/Scripts/Race.cs.meta": meta(_RACE),
        "Assets/Scripts/LifeExpectancy.cs": span_cs,
        "Assets/Scripts/LifeExpectancy.cs.meta": meta(_LIFESPAN),
    }
    for name, (guid, dice, years) in _SPANS.items():
        fields = f"  displayName: {name[3:]}\n  lifespan: {{diceCount: {dice}, diceSides: 10, modifier: {years}}}\n"
        files[f"Assets/Data/Lifespan/{name}.asset"] = data_asset(_LIFESPAN, name, fields)
        files[f"Assets/Data/Lifespan/{name}.asset.meta"] = meta(guid, "NativeFormatImporter")
    for i, (race, span) in enumerate(
        (("Elf_Wood", "05_Long Lived_Very"), ("Dwarf_Hill", "04_Long Lived"), ("Human", "03_Medium Lived"))
    ):
        ref = f"  lifeExpectancy: {{fileID: 11400000, guid: {_SPANS[span][0]}, type: 2}}\n"
        files[f"Assets/Data/Races/{race}.asset"] = data_asset(_RACE, race, f"  raceName: {race}\n{_ATTRIBUTES}{ref}")
        files[f"Assets/Data/Races/{race}.asset.meta"] = meta(
            f"b50900000000000000000000000000{i + 21}", "NativeFormatImporter"
        )
    files["Assets/Scripts/CraftingMaterial.cs"] = (
        "using UnityEngine;\npublic class CraftingMaterial : ScriptableObject\n{\n    public int hardness;\n}\n"
    )
    files["Assets/Scripts/CraftingMaterial.cs.meta"] = meta(_MATERIAL)
    for i, wood in enumerate(("Wood_Oak", "Wood_Pine", "Wood_Ash")):
        files[f"Assets/Data/Materials/{wood}.asset"] = data_asset(_MATERIAL, wood, f"  hardness: {i + 2}\n")
        files[f"Assets/Data/Materials/{wood}.asset.meta"] = meta(
            f"b50900000000000000000000000000{i + 31}", "NativeFormatImporter"
        )
    return write_project(tmp_path, files)


def test_an_irregular_plural_searches_its_singular(tmp_path: Path) -> None:
    """ "How long do wood elves live? Where is their lifespan set?" had the wood elves' race asset
    8th under the seven lifespan assets of the trial's roguelike: the stemmers make "elves" `elv`
    and `Elf_Wood` `elf`, so only "wood" met it. A noun's irregular plural is searched as its
    singular, as a verb's irregular forms are (`synonyms._PLURALS`): 6th -> 1st here, the five
    lifespan assets below it; a plural that is a verb as often ("leaves", "lives") is not joined."""
    assert synonyms.forms("elves") == ("elf",)
    assert synonyms.forms("children") == ("child",)
    assert synonyms.forms("leaves") == synonyms.forms("lives") == ()
    root = _races(tmp_path)
    assert _ranked(root, "How long do wood elves live? Where is their lifespan set?", 3) == [
        "Assets/Data/Races/Elf_Wood.asset",
        "Assets/Data/Lifespan/05_Long Lived_Very.asset",
        "Assets/Data/Lifespan/04_Long Lived.asset",
    ]


def _engine(tmp_path: Path) -> Path:
    """A chess engine's scripts: the evaluation holding each piece's value (`BishopValue = 320`),
    bitboard helpers setting and testing bits, the passed pawns' masks and a debug viewer drawing a
    bitboard (the bishops' by default), beside the rest of the game."""
    files = {
        "Assets/Scripts/Evaluation/Evaluation.cs": (
            "public class Evaluation\n{\n    public const int PawnValue = 100;\n"
            "    public const int KnightValue = 300;\n    public const int BishopValue = 320;\n"
            "    public const int RookValue = 500;\n    public const int QueenValue = 900;\n"
            "    const int bishopPairBonus = 30;\n"
            "    // material and piece placement, from white's point of view\n"
            "    public int Evaluate(Board board) { return CountMaterial(board, 0) - CountMaterial(board, 1); }\n"
            "    int CountMaterial(Board board, int colour)\n    {\n"
            "        int bishops = board.bishops[colour].Count;\n"
            "        return board.pawns[colour].Count * PawnValue + board.knights[colour].Count * KnightValue\n"
            "            + bishops * BishopValue + (bishops >= 2 ? bishopPairBonus : 0)\n"
            "            + board.rooks[colour].Count * RookValue + board.queens[colour].Count * QueenValue;\n"
            "    }\n}\n"
        ),
        "Assets/Scripts/Bitboards/BitBoardUtility.cs": (
            "public static class BitBoardUtility\n{\n"
            "    public static void SetBit(ref ulong bits, int square) => bits |= 1ul << square;\n"
            "    public static void ClearBit(ref ulong bits, int square) => bits &= ~(1ul << square);\n"
            "    public static bool ContainsBit(ulong bits, int square) => ((bits >> square) & 1) != 0;\n"
            "    public static int PopLowestBit(ref ulong bits)\n"
            "    {\n        int i = System.Numerics.BitOperations.TrailingZeroCount(bits);\n"
            "        bits &= bits - 1;\n        return i;\n    }\n}\n"
        ),
        "Assets/Scripts/Bitboards/Bits.cs": (
            "public static class Bits\n{\n"
            "    // a bit set for each square in front of a pawn and on the files beside it\n"
            "    public static readonly ulong[] WhitePassedPawnMask = new ulong[64];\n"
            "    public static readonly ulong[] BlackPassedPawnMask = new ulong[64];\n"
            "    public const ulong FileA = 0x101010101010101;\n}\n"
        ),
        "Assets/Scripts/Debug/BitBoardDebugViewer.cs": mono_script(
            "BitBoardDebugViewer",
            "    // draws the bits of one bitboard over the board: the bishops' by default\n"
            "    public enum BitboardType { Pawns, Knights, Bishops, Rooks, Queens }\n"
            "    public BitboardType bitboardToView = BitboardType.Bishops;\n"
            "    void Update()\n    {\n        ulong bits = Bits.BishopMask[0];\n"
            "        if (BitBoardUtility.ContainsBit(bits, 0)) Draw(bits);\n    }\n"
            "    void Draw(ulong bits) { }",
        ),
    }
    for name, body in _GAME.items():
        files[f"Assets/Scripts/Game/{name}.cs"] = mono_script(name, body)
    return write_project(tmp_path, files)


_GAME = {  # the rest of the game, saying neither "bishop" nor "bit"
    "Clock": "    public float secondsRemaining;\n    void Update() { secondsRemaining -= Time.deltaTime; }",
    "GameManager": "    public bool useClocks;\n    public void NewGame(bool humanPlaysWhite) { }",
    "HumanPlayer": "    // picks a piece up with the mouse, drops it on a square\n    void HandleInput() { }",
    "OpeningBook": "    public TextAsset book;\n    public bool TryGetBookMove(string fen) { return false; }",
    "MoveSounds": "    public AudioClip moveSfx;\n    public AudioClip captureSfx;",
    "BoardTheme": "    public Color lightSquares;\n    public Color darkSquares;",
}


def test_a_bit_more_is_no_bit(tmp_path: Path) -> None:
    """ "Make the bishop worth a bit more than it is now" had the chess engine's `Evaluation.cs`,
    whose `BishopValue` is the answer, 6th under a bitboard debug viewer, the bit utilities and a
    magic generator: "bit" met every `BitBoard`, `Bits` and `SetBit`. Said only in "a bit" or "a
    little bit", it is how much, not the word, and weighs as a task word (as "long" does in "how
    long"): 4th -> 2nd here, under the viewer saying "bishops" and "bits" both."""
    assert ("bit", TASK_WORD_WEIGHT) in weighted_terms("make the bishop worth a little bit more")
    assert ("bit", 1.0) in weighted_terms("a bit higher, and which bit of the mask is the water layer")
    root = _engine(tmp_path)
    assert _ranked(root, "Make the bishop worth a bit more than it is now", 2) == [
        "Assets/Scripts/Debug/BitBoardDebugViewer.cs",
        "Assets/Scripts/Evaluation/Evaluation.cs",
    ]
