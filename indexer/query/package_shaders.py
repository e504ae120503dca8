"""Shader GUIDs of the render pipelines' own shaders, the same in every project: a material on
URP's Lit names `guid: 933532a4...` and no file of the project declares it (the package's shaders
are not in `Assets/`). Named here so `describe` and `refs` say which shader a material uses.

Written by hand, each GUID checked against several public projects' materials and tools that name
it (a GUID of a package's `.meta` never changes across its versions); add one only the same way.
"""

URP = "com.unity.render-pipelines.universal"
HDRP = "com.unity.render-pipelines.high-definition"

# shader GUID -> (the shader's declared name, its package)
PACKAGE_SHADERS: dict[str, tuple[str, str]] = {
    "933532a4fcc9baf4fa0491de14d08ed7": ("Universal Render Pipeline/Lit", URP),
    "650dd9526735d5b46b79224bc6e94025": ("Universal Render Pipeline/Unlit", URP),
    "8d2bb70cbf9db8d4da26e15b26e74248": ("Universal Render Pipeline/Simple Lit", URP),
    "b7839dad95683814aa64166edc107ae2": ("Universal Render Pipeline/Particles/Lit", URP),
    "0406db5a14f94604a8c57ccfbc9f3b46": ("Universal Render Pipeline/Particles/Unlit", URP),
    "69c1f799e772cb6438f56c23efccb782": ("Universal Render Pipeline/Terrain/Lit", URP),
    "6e4ae4064600d784cac1e41a9e6f2e59": ("HDRP/Lit", HDRP),
}


def shader_label(guid: str) -> str:
    """A package shader by its name ('' for a GUID not known here)."""
    known = PACKAGE_SHADERS.get(guid.lower())
    return f"{known[0]} (shader of {known[1]}, not in project)" if known else ""
