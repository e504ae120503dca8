"""Session 57 (docs/retrieval.md, "numbers said with a suffix"): a number said with its magnitude
("100k") is its value, and a value a constructor assigns is where it is set, as an initializer's."""

from __future__ import annotations

from pathlib import Path

from indexer.identifiers import stem
from indexer.query.asking import asks_change, magnitude
from indexer.query.texts import FileText
from indexer.query.values import Held, fields_holding, said_numbers

from .conftest import mono_script, write_project
from .conftest import ranked_paths as _ranked


def test_a_number_said_with_its_magnitude_is_its_value() -> None:
    """ "100k" is 100000, "2.5K" 2500, "1.5M" and "1M" millions (a small "1m" is a metre), "10 mil", "5 million", "3
    thousand" and "2bn" too; "4K monitor", "4k textures", "a 2k screen" are screens and images, and
    "5 m", "5m", "100kg" units: none is read, as before; the plain digits are read as before."""
    assert said_numbers("a new game starts me with 50k instead of 100k in the bank") == {50000.0, 100000.0}
    assert said_numbers("2.5K gold, 1M coins, 1.5M, 10 mil, 5 million. 3 thousand, 2bn, -2k") == {
        2500.0,
        1e6,
        1.5e6,
        1e7,
        5e6,
        3000.0,
        2e9,
        -2000.0,
    }
    assert said_numbers("blurry on a 4K monitor with 4k textures and a 2k screen") == frozenset()
    assert said_numbers("from 5 m to 8 m at 5 m/s, 100kg, 5 mile, 3m too far") == {5.0, 8.0}
    assert magnitude("1.1", "M") == 1100000.0  # exactly, not 1100000.0000000002
    assert magnitude("12", None) == 12.0


def test_a_number_wanted_with_its_magnitude_asks_a_change() -> None:
    """ "Instead of 100k" wants an amount as "instead of 5" does (`asks_change`)."""
    assert asks_change(["start", "bank"], "a new game starts me with 50k instead of 100k in the bank")
    assert not asks_change(["start", "bank"], "a new game starts me with 50k in the bank")


def test_a_constructor_assigning_a_said_value_holds_it() -> None:
    """In a type's constructor (`public MoneyController() { money = 100000; }`, `this.` or not, a
    static one, one calling its base) an assignment of a number is read as an initializer is; not
    one in another method, not a `new` call's, not another object's field (`other.money`)."""
    code = (
        "public class MoneyController : MonoBehaviour\n{\n    private long money;\n"
        "    public MoneyController()\n    {\n        money = 100000;\n"
        "        if (cheats) { this.bankMoney = 5; }\n    }\n"
        "    static MoneyController() { startMoney = 7; }\n"
        "    void Spend() { spentMoney = 100000; other.money = 5; }\n"
        "    MoneyController Make() { return new MoneyController() { lostMoney = 5 }; }\n}\n"
        "class Wallet : Purse\n{\n    Wallet(int start) : base(start) { walletMoney = 5.5f; }\n}\n"
    )
    held = fields_holding(FileText(code.encode(), None), True, frozenset({100000.0, 5.0, 7.0, 5.5}), {stem("money")})
    assert held == (
        Held("money", 6, "money = 100000;"),
        Held("bankMoney", 7, "this.bankMoney = 5;"),
        Held("startMoney", 9, "startMoney = 7;"),
        Held("walletMoney", 15, "walletMoney = 5.5f;"),
    )


def _tycoon(tmp_path: Path) -> Path:
    """A bakery tycoon: the money controller sets the starting money in its constructor, beside a
    shop, a money display and a loan office, each saying "money" and "game" as often."""
    files = {
        "Assets/Scripts/MoneyController.cs": mono_script(
            "MoneyController",
            "    long money;\n    public MoneyController()\n    {\n        money = 100000;\n    }\n"
            "    public long Money => money;",
        ),
        "Assets/Scripts/Shop.cs": mono_script(
            "Shop",
            "    // buying an oven spends money; a new game lists every oven\n"
            "    public void Buy(MoneyController money) { }",
        ),
        "Assets/Scripts/UI/MoneyDisplay.cs": mono_script(
            "MoneyDisplay",
            "    // shows the money of a new game and of every day after\n    public void ShowMoney(long money) { }",
        ),
        "Assets/Scripts/LoanOffice.cs": mono_script(
            "LoanOffice",
            "    // lends money from the start of the game\n    public long loanMoney = 50;\n"
            "    public void Lend(long money) { }",
        ),
    }
    return write_project(tmp_path, files)


def test_the_starting_money_said_in_thousands_ranks_its_constructor_first(tmp_path: Path) -> None:
    """ "A new game starts me with 50k money instead of 100k" (a blind trial's tycoon, which said
    "in the bank") has `MoneyController.cs`, whose constructor sets `money = 100000`, first (3rd before): "100k"
    was no number, and an assignment in a constructor no field holding it."""
    root = _tycoon(tmp_path)
    assert _ranked(root, "a new game starts me with 50k money instead of 100k", 1) == [
        "Assets/Scripts/MoneyController.cs"
    ]
