"""The kind of a project file, by its extension: what the scanners read it as, what `--kind`
takes and what `status` counts (docs/indexing.md, "Which files")."""

from __future__ import annotations

# File kind by lower-cased extension. Kinds without a scanner are still recorded (they count in
# the project tree and are found by path).
KINDS: dict[str, str] = {
    ".cs": "csharp",
    ".meta": "meta",
    ".unity": "scene",
    ".prefab": "prefab",
    ".asset": "asset",
    ".mat": "material",
    ".controller": "animator",
    ".overridecontroller": "animator",
    ".anim": "animation",
    ".shader": "shader",
    ".hlsl": "shader_include",
    ".cginc": "shader_include",
    ".glslinc": "shader_include",
    ".compute": "compute_shader",
    ".shadergraph": "shadergraph",
    ".shadersubgraph": "shadergraph",
    ".asmdef": "asmdef",
    ".asmref": "asmref",
    ".inputactions": "input_actions",
    ".json": "json",
    ".uxml": "uxml",
    ".uss": "uss",
    ".physicmaterial": "unity_yaml",
    ".physicsmaterial2d": "unity_yaml",
    ".mixer": "unity_yaml",
    ".lighting": "unity_yaml",
    ".preset": "unity_yaml",
    ".mask": "unity_yaml",
    ".rendertexture": "unity_yaml",
    ".spriteatlas": "unity_yaml",
    ".spriteatlasv2": "unity_yaml",
    ".terrainlayer": "unity_yaml",
    ".signal": "unity_yaml",
    ".playable": "unity_yaml",
    ".flare": "unity_yaml",
    ".guiskin": "unity_yaml",
    ".fontsettings": "unity_yaml",
    ".brush": "unity_yaml",
    ".cubemap": "unity_yaml",
    ".vfx": "vfx",  # a Visual Effect Graph and its subgraphs: Unity YAML
    ".vfxoperator": "vfx",
    ".vfxblock": "vfx",
    ".shadervariants": "unity_yaml",
    ".giparams": "unity_yaml",
    ".scenetemplate": "unity_yaml",
    ".colors": "unity_yaml",  # preset libraries (colour swatches, curves, gradients)
    ".curves": "unity_yaml",
    ".gradients": "unity_yaml",
    # Text Unity imports as a TextAsset (not `.bytes`, Unity's extension for binary data, nor a
    # bitmap font's `.fnt`)...
    ".txt": "text",
    ".md": "text",
    ".xml": "text",
    ".csv": "text",
    ".tsv": "text",
    ".yaml": "text",
    ".yml": "text",
    ".htm": "text",
    ".html": "text",
    # ... subtitles and compiler options. Not the sources of native plugins (`.mm`, `.java`,
    # `.jslib`): in most projects those are an SDK's, which crowded a project's own files out of
    # answers (docs/retrieval.md, session 18).
    # Lua a game runs through MoonSharp, xLua or ToLua (its mods' and data's functions, named by
    # XML or C#): the game's own code more often than an SDK's.
    ".lua": "text",
    ".srt": "text",
    ".vtt": "text",
    ".rsp": "text",
    ".png": "texture",
    ".jpg": "texture",
    ".jpeg": "texture",
    ".tga": "texture",
    ".psd": "texture",
    ".tif": "texture",
    ".tiff": "texture",
    ".exr": "texture",
    ".hdr": "texture",
    ".dds": "texture",
    ".bmp": "texture",
    ".gif": "texture",
    ".fbx": "model",
    ".obj": "model",
    ".blend": "model",
    ".dae": "model",
    ".3ds": "model",
    ".max": "model",
    ".ma": "model",
    ".mb": "model",
    ".wav": "audio",
    ".mp3": "audio",
    ".ogg": "audio",
    ".aif": "audio",
    ".aiff": "audio",
    ".flac": "audio",
    ".ttf": "font",
    ".otf": "font",
    ".dll": "plugin",
    ".so": "plugin",
    ".bundle": "plugin",
}
SETTINGS_KIND = "settings"  # every file under ProjectSettings/
FOLDER_KIND = "folder"  # a folder the walk cannot read: one skipped record stands for its files
OTHER_KIND = "other"  # a file whose extension names no kind


def searchable_kinds() -> frozenset[str]:
    """The kinds a search keeps (`query --kind`, the MCP `search` tool's `kind`): all but `folder`."""
    return frozenset({*KINDS.values(), SETTINGS_KIND, OTHER_KIND})


_KIND_WORDS = {"script": "csharp", "cs": "csharp", "c#": "csharp", "code": "csharp", "scriptableobject": "asset"}


def kind_named(text: str) -> str | None:
    """The searchable kind a user's word means: itself, a plural (`prefabs`), another case, or a
    common name (`script`, `cs`); None for no kind (`query --kind prefabs` had listed every kind)."""
    word = text.strip().lower()
    kinds = searchable_kinds()
    for w in (word, word.removesuffix("s"), word.removesuffix("es")):
        if w in kinds or w in _KIND_WORDS:
            return _KIND_WORDS.get(w, w)
    return None
