"""unity-index.toml: optional, validated, and every setting has an effect."""

from pathlib import Path

import pytest

from indexer.config import Config, ConfigError, load_config
from indexer.project import walk

from .conftest import run_cli, write_project


def test_defaults_without_a_file(tmp_path: Path) -> None:
    assert load_config(write_project(tmp_path / "P", {})) == Config()


def test_settings_are_read(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "unity-index.toml": 'exclude = ["Assets/ThirdParty/**"]\nmax_file_mb = 2.5\ninclude_package_cache = true\n'
            'index_dir = "/tmp/elsewhere"\nworkers = 1\n',
        },
    )
    cfg = load_config(root)
    assert cfg == Config(
        exclude=("Assets/ThirdParty/**",),
        max_file_mb=2.5,
        include_package_cache=True,
        index_dir="/tmp/elsewhere",
        workers=1,
    )
    assert cfg.max_file_bytes == 2_621_440
    assert cfg.index_path(root) == Path("/tmp/elsewhere")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("exclude = [", "not valid TOML"),
        ("excludes = []", "Object contains unknown field `excludes`"),
        ('max_file_mb = "big"', "Expected `float`, got `str` - at `$.max_file_mb`"),
        ("max_file_mb = 0", "max_file_mb must be positive"),
        ("workers = -1", "workers must be 0"),
    ],
)
def test_invalid_files_are_clear_errors(tmp_path: Path, text: str, message: str) -> None:
    root = write_project(tmp_path / "P", {"unity-index.toml": text})
    with pytest.raises(ConfigError, match=r"unity-index\.toml") as err:
        load_config(root)
    assert message in str(err.value)
    r = run_cli("status", "--project", str(root))
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_package_cache_is_indexed_only_when_enabled(tmp_path: Path) -> None:
    root = write_project(
        tmp_path / "P",
        {
            "Assets/A.cs": "",
            "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs": "",
            "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs.meta": "",
            "Library/ScriptAssemblies/x.dll": "",
        },
    )
    assert [rel for rel, _ in walk(root, Config())] == ["Assets/A.cs"]
    assert [rel for rel, _ in walk(root, Config(include_package_cache=True))] == [
        "Assets/A.cs",
        "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs",
        "Library/PackageCache/com.unity.ugui@1.0.0/Runtime/Button.cs.meta",
    ]


def test_an_unknown_key_lists_every_key_without_pointing_at_docs(tmp_path: Path) -> None:
    """The docs are not installed with the package (pipx): the message itself says what is valid."""
    import msgspec

    root = write_project(tmp_path / "P", {"unity-index.toml": "excludes = []"})
    with pytest.raises(ConfigError) as err:
        load_config(root)
    message = str(err.value)
    assert "docs/" not in message
    for field in msgspec.structs.fields(Config):
        assert f"{field.name} (" in message, field.name
