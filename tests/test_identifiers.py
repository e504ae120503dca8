import gc
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.identifiers import (
    compounds,
    doer_base,
    expand,
    name_stems,
    query_terms,
    said_words,
    split_identifier,
    stem,
)


def test_split_identifier_cases() -> None:
    assert split_identifier("PlayerHealth") == ["Player", "Health"]
    assert split_identifier("HTTPServer") == ["HTTP", "Server"]
    assert split_identifier("UIManager") == ["UI", "Manager"]
    assert split_identifier("OnTriggerEnter2D") == ["On", "Trigger", "Enter", "2", "D"]
    assert split_identifier("m_maxHealth") == ["m", "max", "Health"]
    assert split_identifier("MAX_SPEED") == ["MAX", "SPEED"]
    assert split_identifier("health") == ["health"]


def test_expand_keeps_whole_identifier_before_parts() -> None:
    assert expand("void TakeDamage(DamageInfo info)") == "void TakeDamage Take Damage DamageInfo Damage Info info"
    assert expand("m_currentHP -= 3;") == "m_currentHP m current HP 3"
    assert expand("Health HEALTH health") == "Health HEALTH health"


def test_said_words_leave_out_the_parts_of_the_names_a_task_quotes() -> None:
    """A quoted `IsSceneObject` is no request for scenes; a word said on its own still is."""
    assert said_words("spawn the `IsSceneObject` prefab") == ["spawn", "issceneobject", "prefab"]
    assert said_words("the scene SceneManager loads") == ["scene", "scenemanager", "loads"]


def test_query_terms_drop_stop_words_and_split_identifiers() -> None:
    words = ["player", "takes", "damage", "dies"]
    joined = ["playertakes", "takesdamage", "takdamage", "takedamage"]  # compounds follow the words
    assert query_terms("player takes damage and dies") == words + joined
    assert query_terms("PlayerHealth.Heal") == ["playerhealth", "player", "health", "heal"]
    assert query_terms("the and of to") == []
    assert query_terms("Ω ☃ !!! ---") == []
    assert query_terms("a" * 100 + " shield") == ["shield"]


def test_stem_matches_inflections() -> None:
    assert stem("dies") == stem("Die") == "die"
    assert stem("takes") == stem("Take")
    assert stem("enemies") == stem("Enemy")
    assert stem("damaged") == stem("damage")
    assert stem("spawning") == stem("Spawn")


def test_compounds_join_adjacent_words_as_code_writes_them() -> None:
    """ "pick up" meets `PickUp`/`Pickup`, "game over" meets `GameOver`: two words in a question, one in code."""
    assert compounds("player picks up an item") == ["playerpicks", "picksup", "pickup"]
    assert "savegame" in compounds("the saved game")
    assert compounds("show the game over screen") == ["gameover"]
    assert compounds("the pick-up sound") == ["pickup"]
    assert compounds("fix the health, bar") == []  # punctuation between, and a task word first
    assert compounds("PlayerHealth bar") == []  # identifiers are matched whole already


def test_expand_pairs_adjacent_parts_of_long_names() -> None:
    assert expand("void OnPickUp()", pairs=True) == "void OnPickUp On Pick Up OnPick PickUp"
    assert expand("UseSelected_HealsAll", pairs=True) == "UseSelected_HealsAll Use Selected Heals All"
    assert expand("void OnPickUp()") == "void OnPickUp On Pick Up"


def test_names_of_doers_also_say_what_they_do() -> None:
    """ "the scan line" never met `Scanner`: tantivy's stemmer keeps -er words whole."""
    assert [doer_base(w) for w in ("Scanner", "Spawner", "Shooter", "Handler", "Passer", "Timer", "X2er")] == [
        "scan",
        "spawn",
        "shoot",
        "handl",
        "pass",
        "",  # too short to tell a doer from a word (Timer, Water, Layer)
        "",
    ]
    assert expand("EnemyScanner", doers=True) == "EnemyScanner Enemy Scanner scan"
    assert expand("EnemyScanner") == "EnemyScanner Enemy Scanner"


def _expand_reference(text: str, pairs: bool, doers: bool) -> str:
    """`expand` as it was written before it was memoised: each ASCII word in turn, then (since
    schema 38) each word holding another script's letters, whole."""
    from indexer.identifiers import _ASCII_WORD, _OTHER_SCRIPT, _pairs

    out: list[str] = []
    for word in _ASCII_WORD.findall(text):
        out.append(word)
        if not word.isalpha() or not (word.islower() or word.isupper() or word.istitle()):
            parts = split_identifier(word)
            if len(parts) > 1:
                out.extend(parts)
            if pairs and len(parts) > 2:
                out.extend(_pairs(word))
        if doers:
            out.extend(d for p in split_identifier(word) if (d := doer_base(p)))
    return " ".join(out + _OTHER_SCRIPT.findall(text))


_TEXT = st.text(alphabet=st.sampled_from([*"aZbYq_09 \t\n.(<-é漢ß\u0130\ufffd😀", "\udc80"]), max_size=40)


@settings(max_examples=400, deadline=None)
@given(text=_TEXT, pairs=st.booleans(), doers=st.booleans())
def test_expand_is_the_word_by_word_expansion(text: str, pairs: bool, doers: bool) -> None:
    """Runs cut by translate/split and memoised give what expanding each word did: non-ASCII
    letters, digits before letters (`9ab` -> `9`, `ab`), lone surrogates included."""
    assert expand(text, pairs, doers) == _expand_reference(text, pairs, doers)


def test_expand_stays_exact_when_its_cache_is_emptied(monkeypatch) -> None:
    import indexer.identifiers as ids

    monkeypatch.setattr(ids, "EXPANSION_CACHE", 2)
    text = "OnPickUp 2D m_maxHP EnemyScanner OnPickUp HTTPServer2D x9y ÉtéName"
    for _ in range(2):
        assert expand(text, True, True) == _expand_reference(text, True, True)
    assert len(ids._EXPANSIONS[True, True]) <= 2


# Names as code writes them: cases, digits, underscores, and letters whose case rules are not ASCII's.
IDENTIFIERS = st.text(alphabet="abdegilnsyHTPUIMAXS_02\u0130\u212a\u03a3\u00e9", max_size=16)
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def _stem_as_written(word: str) -> str:
    """`stem` before its one test of the endings first (with session 35's rule: a word of four
    letters keeps its `e`, and an ending cut to three letters spelled like `com` gets it back)."""
    w = word.lower()
    for suffix, repl in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)] + repl
            if len(w) == 3 and suffix != "s" and w[0] not in "aeiou" and w[1] in "aeiou" and w[2] not in "aeiouwxy":
                w += "e"
            break
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


@given(IDENTIFIERS)
def test_a_name_is_split_and_stemmed_as_the_chunk_by_chunk_rule_did(name: str) -> None:
    """One `findall` over the whole name gives the parts of its `_`-separated chunks in turn;
    `name_stems` holds the stems of the name and of its parts, each once, as `stem` gives them
    (checked against the stemmer as first written)."""
    parts = [p for chunk in name.split("_") for p in _PART.findall(chunk)]
    assert split_identifier(name) == parts
    assert [stem(w) for w in (name, *parts)] == [_stem_as_written(w) for w in (name, *parts)]
    stems = name_stems(name)
    assert len(stems) == len(set(stems)) and set(stems) == {_stem_as_written(w) for w in (name, *parts)}


@given(st.text(alphabet="abdeginsy", max_size=9).map(lambda w: w + "ies") | st.text(alphabet="deginsy", max_size=9))
def test_stem_cuts_the_first_ending_that_fits_as_it_did(word: str) -> None:
    assert stem(word) == _stem_as_written(word)


def test_the_stems_of_a_name_are_kept_out_of_garbage_collection() -> None:
    """`name_stems` caches a tuple of strings, which the collector stops tracking (a cached frozenset
    would be traversed by every collection)."""
    stems = name_stems("PersistentViewData_2")
    gc.collect(), gc.collect()
    assert not gc.is_tracked(stems)


def test_expand_keeps_words_of_other_scripts_whole_and_no_surrogate_or_replacement_character() -> None:
    """Since schema 38 a word holding another script's letters is searched whole (a Korean item's
    name); a lone surrogate, which no UTF-8 holds, and U+FFFD, a byte no decoding read, are no words."""
    assert (
        expand("PlayerHealth 중급 포션 caf\u00e9 a\udc80b \ufffd")
        == "PlayerHealth Player Health caf a b 중급 포션 café"
    )


def test_expand_reads_words_of_other_scripts_line_by_line_as_from_the_whole_text() -> None:
    """Only the lines holding a character outside ASCII are searched for such words (no word holds a
    line break): the words and their order are those of the whole text, a run of two joined by a
    zero-width space or a dash (`X\u200bDot\u200bProd`, `—été—`) split as before."""
    text = '// caf\u00e9 au lait\nint x = 1;\nvar s = "X\u200bDot\u200bProd";\n'
    text += "// \u00fcber\n\u2014\u00e9t\u00e9\u2014\n"
    assert expand(text) == "caf au lait int x 1 var s X Dot Prod ber t café X\u200bDot \u200bProd über —été —"
