from indexer.model import Ref
from indexer.scanners import meta, scan


def test_script_meta() -> None:
    rec = meta.scan(
        "Assets/A.cs.meta",
        b"fileFormatVersion: 2\nguid: 4F2A9C0D8E7B41A6B3C5D2E1F0A9B8C7\nMonoImporter:\n  serializedVersion: 2\n",
    )
    assert (rec.kind, rec.status, rec.guid, rec.importer, rec.folder) == (
        "meta",
        "ok",
        "4f2a9c0d8e7b41a6b3c5d2e1f0a9b8c7",
        "MonoImporter",
        False,
    )


def test_folder_meta_with_crlf() -> None:
    rec = meta.scan(
        "Assets/Scripts.meta",
        b"fileFormatVersion: 2\r\nguid: 0123456789abcdef0123456789abcdef\r\nfolderAsset: yes\r\nDefaultImporter:\r\n",
    )
    assert (rec.guid, rec.importer, rec.folder) == ("0123456789abcdef0123456789abcdef", "DefaultImporter", True)


def test_meta_without_importer_block() -> None:
    rec = meta.scan(
        "Assets/X.meta", b"fileFormatVersion: 2\nguid: 0123456789abcdef0123456789abcdef\ntimeCreated: 1500000000\n"
    )
    assert (rec.status, rec.guid, rec.importer) == ("ok", "0123456789abcdef0123456789abcdef", "")


def test_broken_metas_are_skipped_with_a_reason() -> None:
    assert meta.scan("a.meta", b"fileFormatVersion: 2\n").note == "no guid line"
    lfs = b"version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n"
    rec = scan("Assets/Big.unity", "scene", lfs)
    assert (rec.status, rec.note) == ("skipped", "Git LFS pointer, content not checked out")
    rec = scan("Assets/A.cs.meta", "meta", b"\x00\x01binary")
    assert (rec.status, rec.note) == ("skipped", "binary content")


MODEL_META = b"""fileFormatVersion: 2
guid: 9f5858cf2c3ec59428254c8fff5e9130
ModelImporter:
  serializedVersion: 20200
  externalObjects:
  - first:
      type: UnityEngine:Material
    second: {fileID: 2100000, guid: 0123456789abcdef0123456789abcdef, type: 2}
  animations:
    clipAnimations:
    - serializedVersion: 16
      name: Dino_Idle
      takeName: Dino_Idle
      events: []
    - serializedVersion: 16
      name: 'Dino: Jump'
      takeName: Dino_Jump
      events:
      - time: 0.66809475
        functionName: PlayParticles
        data:
        intParameter: 0
      - time: 0.9
        functionName: Land
        data: dust
    isReadable: 0
"""


def test_a_model_meta_records_the_functions_its_clips_events_call() -> None:
    """A clip imported from a model keeps its events in the model's `.meta`: `DustParticles.PlayParticles`,
    called only by one, had no usages (a trial on Unity's Addressables sample)."""
    rec = meta.scan("Assets/Models/Dino.fbx.meta", MODEL_META)
    assert (rec.importer, rec.refs) == (
        "ModelImporter",
        (
            Ref("animation_event", "PlayParticles", 20, "events", "Dino: Jump"),
            Ref("animation_event", "Land", 24, "events", "Dino: Jump"),
        ),
    )
    # another importer's `functionName` is not a clip's event
    other = meta.scan("Assets/A.anim.meta", MODEL_META.replace(b"ModelImporter:", b"NativeFormatImporter:"))
    assert other.refs == ()
