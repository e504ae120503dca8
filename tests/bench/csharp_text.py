"""C# source of the synthetic scripts: MonoBehaviours, ScriptableObjects, plain classes,
interfaces, enums, structs and custom inspectors, written the way Unity projects write them."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .vocab import words_of

if TYPE_CHECKING:
    from .generator import Script


def default_value(ftype: str, rng: random.Random) -> str:
    if ftype == "float":
        return f"{rng.randint(1, 400) / 10}f"
    if ftype == "int":
        return str(rng.randint(1, 50))
    if ftype == "bool":
        return rng.choice(("true", "false"))
    return '"' + rng.choice(("idle", "default", "main", "none", "left", "right")) + '"'


def serialized_value(ftype: str, default: str) -> str:
    """The value Unity writes for a field's default."""
    if ftype == "float":
        return default.removesuffix("f")
    if ftype == "bool":
        return "1" if default == "true" else "0"
    if ftype == "string":
        return default.strip('"')
    return default


def field_name(s: Script) -> str:
    name = s.name[1:] if s.role == "interface" else s.name
    return name[0].lower() + name[1:]


def _usings(s: Script, extra: tuple[str, ...] = ()) -> str:
    spaces = {"System", "System.Collections.Generic", "UnityEngine", *extra}
    if s.role == "behaviour":
        spaces.add("UnityEngine.Events")
    spaces.update(r.namespace for r in s.refs if r.namespace != s.namespace)
    if s.target is not None and s.target.namespace != s.namespace:
        spaces.add(s.target.namespace)
    return "".join(f"using {u};\n" for u in sorted(spaces, key=lambda u: (not u.startswith("System"), u)))


def _summary(s: Script, what: str) -> str:
    return f"    /// <summary>\n    /// {what} of the {s.module.name} module: {words_of(s.name)}.\n    /// </summary>\n"


def script(s: Script) -> str:
    body = {
        "behaviour": _behaviour,
        "data": _data,
        "service": _service,
        "interface": _interface,
        "enum": _enum,
        "struct": _struct,
        "editor": _editor,
    }[s.role](s)
    extra = ("UnityEditor",) if s.role == "editor" else ()
    return f"{_usings(s, extra)}\nnamespace {s.namespace}\n{{\n{body}}}\n"


def _fields(s: Script) -> list[str]:
    out = []
    for i, (ftype, name, default) in enumerate(s.fields):
        if i == 0:
            out.append('        [Header("Tuning")]')
        if ftype in ("float", "int") and i % 2:
            out.append(f"        [Range(0, {max(100, int(float(default.rstrip('f'))) * 2)})]")
        out.append(f"        [SerializeField] private {ftype} {name} = {default};")
    return out


def _ref_fields(s: Script) -> list[str]:
    out = []
    for r in s.refs:
        fname = field_name(r)
        if r.role in ("behaviour", "data"):
            out.append(f'        [Tooltip("The {words_of(r.name)} this uses.")]')
            out.append(f"        [SerializeField] private {r.name} {fname};")
        elif r.role == "service":
            out.append(f"        private readonly {r.name} {fname} = new {r.name}();")
        elif r.role == "interface":
            out.append(f"        private {r.name} {fname};")
        elif r.role == "enum":
            out.append(f"        [SerializeField] private {r.name} {fname} = {r.name}.{r.members[1]};")
        elif r.role == "struct":
            out.append(f"        private {r.name} {fname};")
    return out


def _calls(s: Script, indent: str) -> list[str]:
    out = []
    for r in s.refs:
        fname = field_name(r)
        if r.role in ("behaviour", "service", "interface") and r.methods:
            method = r.methods[len(s.name) % len(r.methods)]
            out.append(f"{indent}if ({fname} != null)")
            out.append(f"{indent}{{")
            out.append(f"{indent}    {fname}.{method}();")
            out.append(f"{indent}}}")
        elif r.role == "enum":
            out.append(f"{indent}{fname} = {r.name}.{r.members[-1]};")
    return out


def _numeric(s: Script) -> list[tuple[str, str]]:
    return [(t, n) for t, n, _ in s.fields if t in ("float", "int")]


def _behaviour(s: Script) -> str:
    interfaces = [r.name for r in s.refs if r.role == "interface"]
    bases = ", ".join(["MonoBehaviour", *interfaces])
    lines = [_summary(s, "Component").rstrip("\n"), "    [DisallowMultipleComponent]"]
    lines.append(f"    public class {s.name} : {bases}")
    lines.append("    {")
    lines += _fields(s)
    lines += _ref_fields(s)
    lines.append("")
    lines.append(f"        public UnityEvent {s.event_field};")
    lines.append("")
    lines.append("        /// <summary>Raised with the new count whenever it changes.</summary>")
    lines.append("        public event Action<int> CountChanged;")
    lines.append("")
    lines.append("        private readonly List<GameObject> spawned = new List<GameObject>();")
    lines.append("        private float elapsed;")
    lines.append("")
    lines.append("        public bool IsActive { get; private set; }")
    lines.append("")
    lines.append("        public int Count => spawned.Count;")
    lines.append("")
    lines.append("        private void Awake()")
    lines.append("        {")
    lines.append("            IsActive = false;")
    lines.append("            elapsed = 0f;")
    lines.append("        }")
    lines.append("")
    lines.append("        private void Update()")
    lines.append("        {")
    lines.append("            if (!IsActive)")
    lines.append("            {")
    lines.append("                return;")
    lines.append("            }")
    lines.append("")
    lines.append("            elapsed += Time.deltaTime;")
    numeric = _numeric(s)
    limit = f"{numeric[0][1]}" if numeric else "1f"
    lines.append(f"            if (elapsed >= {limit})")
    lines.append("            {")
    lines.append("                elapsed = 0f;")
    lines.append(f"                {s.methods[0]}();")
    lines.append("            }")
    lines.append("        }")
    for i, m in enumerate(s.methods):
        lines.append("")
        lines.append(f"        /// <summary>{m} the {words_of(s.name)}.</summary>")
        lines.append(f"        public void {m}()")
        lines.append("        {")
        if i == 0:
            lines.append("            IsActive = true;")
            lines += _calls(s, "            ")
            lines.append(f"            {s.event_field}?.Invoke();")
        else:
            lines.append(f'            Debug.Log($"{{name}}: {m.lower()} ({{Count}})");')
            lines.append("            CountChanged?.Invoke(Count);")
        lines.append("        }")
    if numeric:
        ftype, fname = numeric[-1]
        cap = fname[0].upper() + fname[1:]
        lines.append("")
        lines.append(f"        public void Set{cap}({ftype} value)")
        lines.append("        {")
        lines.append(f"            {fname} = Mathf.Max(0, value);")
        lines.append("            CountChanged?.Invoke(Count);")
        lines.append("        }")
    lines.append("    }")
    return "\n".join(lines) + "\n"


def _data(s: Script) -> str:
    menu = f"Game/{s.module.name}/{words_of(s.name).title()}"
    lines = [_summary(s, "Asset data").rstrip("\n")]
    lines.append(f'    [CreateAssetMenu(menuName = "{menu}", fileName = "{s.name}")]')
    lines.append(f"    public class {s.name} : ScriptableObject")
    lines.append("    {")
    lines += _fields(s)
    lines += _ref_fields(s)
    lines.append("        [SerializeField] private GameObject prefab;")
    lines.append("        [SerializeField] private List<" + s.name + "> related = new List<" + s.name + ">();")
    lines.append("")
    lines.append("        public GameObject Prefab => prefab;")
    for ftype, fname, _ in s.fields:
        cap = fname[0].upper() + fname[1:]
        lines.append("")
        lines.append(f"        public {ftype} {cap} => {fname};")
    lines.append("")
    lines.append("        public int RelatedCount => related.Count;")
    lines.append("    }")
    return "\n".join(lines) + "\n"


def _service(s: Script) -> str:
    interfaces = [r.name for r in s.refs if r.role == "interface"]
    header = f"    public class {s.name}" + (f" : {', '.join(interfaces)}" if interfaces else "")
    lines = [_summary(s, "Service").rstrip("\n"), header, "    {"]
    lines.append("        private readonly Dictionary<string, float> values = new Dictionary<string, float>();")
    for ftype, fname, default in s.fields:
        lines.append(f"        private {ftype} {fname} = {default};")
    lines += [x.replace("[SerializeField] ", "") for x in _ref_fields(s) if "[Tooltip" not in x]
    lines.append("")
    lines.append("        public int Count => values.Count;")
    lines.append("")
    lines.append("        public float Get(string key, float fallback)")
    lines.append("        {")
    lines.append("            return values.TryGetValue(key, out var value) ? value : fallback;")
    lines.append("        }")
    lines.append("")
    lines.append("        public void Set(string key, float value)")
    lines.append("        {")
    lines.append("            values[key] = value;")
    lines.append("        }")
    for i, m in enumerate(s.methods):
        lines.append("")
        lines.append(f"        public void {m}()")
        lines.append("        {")
        if i == 0:
            lines += _calls(s, "            ")
        lines.append("            values.Clear();")
        lines.append("        }")
    lines.append("    }")
    return "\n".join(lines) + "\n"


def _interface(s: Script) -> str:
    lines = [_summary(s, "Contract").rstrip("\n"), f"    public interface {s.name}", "    {"]
    for m in s.methods:
        lines.append(f"        void {m}();")
    lines.append("    }")
    return "\n".join(lines) + "\n"


def _enum(s: Script) -> str:
    lines = [_summary(s, "Values").rstrip("\n"), f"    public enum {s.name}", "    {"]
    lines += [f"        {m}," for m in s.members]
    lines.append("    }")
    return "\n".join(lines) + "\n"


def _struct(s: Script) -> str:
    lines = [_summary(s, "Value").rstrip("\n"), "    [Serializable]", f"    public struct {s.name}", "    {"]
    lines += ["        public float amount;", "        public int level;", "        public Vector3 position;", ""]
    lines.append(f"        public {s.name}(float amount, int level, Vector3 position)")
    lines.append("        {")
    lines.append("            this.amount = amount;")
    lines.append("            this.level = level;")
    lines.append("            this.position = position;")
    lines.append("        }")
    lines.append("")
    lines.append("        public bool IsEmpty => amount <= 0f;")
    lines.append("    }")
    return "\n".join(lines) + "\n"


def _editor(s: Script) -> str:
    t = s.target
    assert t is not None
    lines = [_summary(s, "Inspector").rstrip("\n"), f"    [CustomEditor(typeof({t.name}))]"]
    lines.append(f"    public class {s.name} : Editor")
    lines.append("    {")
    lines.append("        public override void OnInspectorGUI()")
    lines.append("        {")
    lines.append("            DrawDefaultInspector();")
    lines.append(f"            var component = ({t.name})target;")
    for m in t.methods[:2]:
        lines.append(f'            if (GUILayout.Button("{m}"))')
        lines.append("            {")
        lines.append(f"                component.{m}();")
        lines.append("            }")
    lines.append('            EditorGUILayout.LabelField("Count", component.Count.ToString());')
    lines.append("        }")
    lines.append("    }")
    return "\n".join(lines) + "\n"
