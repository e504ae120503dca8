from indexer.identifiers import compounds, doer_base, expand, query_terms, split_identifier, stem


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
