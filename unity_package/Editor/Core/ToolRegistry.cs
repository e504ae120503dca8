// The tool registry: static methods marked [BridgeTool], their parameters as a JSON schema, and
// binding of JSON arguments to those parameters. No Unity dependency.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Reflection;
using System.Text.RegularExpressions;

namespace UnityIndex.Bridge
{
    /// <summary>
    /// A bad argument: the bridge answers HTTP 400 "bad_arguments" (started: false) when binding
    /// throws it, before the tool runs; thrown by a running tool, it is that tool's 422
    /// "bad_arguments" (started: true), like a ToolException.
    /// </summary>
    public sealed class ArgumentBindingException : Exception
    {
        public ArgumentBindingException(string message) : base(message) { }
    }

    public sealed class ToolInfo
    {
        public string Name;
        public string Description;
        public MethodInfo Method;
        public Dictionary<string, object> InputSchema;

        /// <summary>The entry served by GET /v1/tools.</summary>
        public Dictionary<string, object> Describe()
        {
            return Json.Obj("name", Name, "description", Description, "input_schema", InputSchema);
        }

        /// <summary>Converts JSON arguments into the method's parameter values; throws ArgumentBindingException.</summary>
        public object[] Bind(Dictionary<string, object> args)
        {
            if (args == null) args = new Dictionary<string, object>();
            ParameterInfo[] ps = Method.GetParameters();
            var known = new HashSet<string>();
            foreach (ParameterInfo p in ps) known.Add(p.Name);
            foreach (string key in args.Keys)
            {
                if (!known.Contains(key))
                {
                    var names = new List<string>();
                    foreach (ParameterInfo p in ps) names.Add(p.Name);
                    throw new ArgumentBindingException("unknown argument '" + InputEcho.Shown(key) + "' for tool '" + Name + "' (accepted: "
                        + (names.Count == 0 ? "none" : string.Join(", ", names.ToArray())) + ")");
                }
            }
            var values = new object[ps.Length];
            for (int i = 0; i < ps.Length; i++)
            {
                ParameterInfo p = ps[i];
                object raw;
                bool given = args.TryGetValue(p.Name, out raw);
                // null for an optional argument means its default; for a required one it is checked
                // like any value: only an `object` parameter (any JSON) takes it.
                if (p.IsOptional && (!given || raw == null)) { values[i] = p.DefaultValue; continue; }
                if (!given) throw new ArgumentBindingException("missing required argument '" + p.Name + "' for tool '" + Name + "'");
                values[i] = ToolRegistry.Convert(raw, p.ParameterType, p.Name);
            }
            return values;
        }
    }

    public sealed class ToolRegistry
    {
        // \A and \z, not ^ and $: .NET's $ also matches before a final newline ("spawn\n").
        private static readonly Regex NamePattern = new Regex("\\A[a-z][a-z0-9_]{0,63}\\z");
        private readonly Dictionary<string, ToolInfo> _tools = new Dictionary<string, ToolInfo>();
        private readonly List<string> _order = new List<string>();
        private readonly List<string> _warnings = new List<string>();

        /// <summary>Problems met while registering (bad names, duplicates, unsupported parameter types).</summary>
        public IList<string> Warnings { get { return _warnings; } }

        public int Count { get { return _tools.Count; } }

        public ToolInfo Find(string name)
        {
            ToolInfo t;
            return name != null && _tools.TryGetValue(name, out t) ? t : null;
        }

        /// <summary>Tools in registration order.</summary>
        public List<ToolInfo> All()
        {
            var list = new List<ToolInfo>(_order.Count);
            foreach (string n in _order) list.Add(_tools[n]);
            return list;
        }

        public void RegisterAssembly(Assembly assembly)
        {
            Type[] types;
            try { types = assembly.GetTypes(); }
            catch (ReflectionTypeLoadException e) { types = e.Types; }
            foreach (Type t in types)
            {
                if (t == null) continue;
                foreach (MethodInfo m in t.GetMethods(BindingFlags.Static | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly))
                {
                    if (m.IsDefined(typeof(BridgeToolAttribute), false)) Register(m);
                }
            }
        }

        /// <summary>Registers one method; returns false (and records a warning) when it cannot be a tool.</summary>
        public bool Register(MethodInfo method)
        {
            var attr = (BridgeToolAttribute)Attribute.GetCustomAttribute(method, typeof(BridgeToolAttribute));
            string where = method.DeclaringType == null ? method.Name : method.DeclaringType.FullName + "." + method.Name;
            if (attr == null) { _warnings.Add(where + ": no [BridgeTool] attribute"); return false; }
            if (!method.IsStatic) { _warnings.Add(where + ": a tool must be a static method"); return false; }
            if (method.IsGenericMethodDefinition) { _warnings.Add(where + ": a tool cannot be generic"); return false; }
            if (attr.Name == null || !NamePattern.IsMatch(attr.Name))
            {
                _warnings.Add(where + ": tool name '" + attr.Name + "' must match ^[a-z][a-z0-9_]{0,63}$");
                return false;
            }
            if (_tools.ContainsKey(attr.Name))
            {
                ToolInfo existing = _tools[attr.Name];
                if (existing.Method == method) return true;
                _warnings.Add(where + ": tool name '" + attr.Name + "' already registered by "
                    + existing.Method.DeclaringType.FullName + "." + existing.Method.Name + "; skipped");
                return false;
            }
            var properties = new Dictionary<string, object>();
            var required = new List<object>();
            foreach (ParameterInfo p in method.GetParameters())
            {
                if (p.ParameterType.IsByRef || p.IsOut) { _warnings.Add(where + ": ref/out parameter '" + p.Name + "'"); return false; }
                Dictionary<string, object> schema = SchemaFor(p.ParameterType);
                if (schema == null)
                {
                    _warnings.Add(where + ": parameter '" + p.Name + "' has unsupported type " + p.ParameterType.Name);
                    return false;
                }
                var pa = (ToolParamAttribute)Attribute.GetCustomAttribute(p, typeof(ToolParamAttribute));
                if (pa != null && !string.IsNullOrEmpty(pa.Description)) schema["description"] = pa.Description;
                if (p.IsOptional)
                {
                    if (p.DefaultValue != null && p.DefaultValue != DBNull.Value) schema["default"] = p.DefaultValue;
                }
                else required.Add(p.Name);
                properties[p.Name] = schema;
            }
            var input = Json.Obj("type", "object", "properties", properties);
            if (required.Count > 0) input["required"] = required;
            input["additionalProperties"] = false;
            var info = new ToolInfo { Name = attr.Name, Description = attr.Description ?? "", Method = method, InputSchema = input };
            _tools[attr.Name] = info;
            _order.Add(attr.Name);
            return true;
        }

        /// <summary>The JSON schema of a supported parameter type, or null.</summary>
        public static Dictionary<string, object> SchemaFor(Type t)
        {
            Type under = Nullable.GetUnderlyingType(t);
            if (under != null) t = under;
            if (t == typeof(string)) return Json.Obj("type", "string");
            if (t == typeof(bool)) return Json.Obj("type", "boolean");
            if (t == typeof(int) || t == typeof(long) || t == typeof(short)) return Json.Obj("type", "integer");
            if (t == typeof(float) || t == typeof(double)) return Json.Obj("type", "number");
            if (t.IsEnum)
            {
                var names = new List<object>();
                foreach (string n in Enum.GetNames(t)) names.Add(n);
                return Json.Obj("type", "string", "enum", names);
            }
            if (t.IsArray && t.GetArrayRank() == 1)
            {
                Dictionary<string, object> item = SchemaFor(t.GetElementType());
                return item == null ? null : Json.Obj("type", "array", "items", item);
            }
            if (t == typeof(Dictionary<string, object>)) return Json.Obj("type", "object");
            if (t == typeof(object)) return new Dictionary<string, object>();
            return null;
        }

        private static string JsonKind(object v)
        {
            if (v == null) return "null";
            if (v is string) return "string";
            if (v is bool) return "boolean";
            if (v is long) return "integer";
            if (v is double) return "number";
            if (v is IDictionary) return "object";
            if (v is IList) return "array";
            return v.GetType().Name;
        }

        /// <summary>Converts a parsed JSON value to a parameter type; throws ArgumentBindingException.</summary>
        public static object Convert(object raw, Type t, string name)
        {
            Type under = Nullable.GetUnderlyingType(t);
            if (under != null) t = under;
            string kind = JsonKind(raw);
            if (t == typeof(object)) return raw;
            if (t == typeof(string))
            {
                if (raw is string) return raw;
                throw Mismatch(name, "string", kind);
            }
            if (t == typeof(bool))
            {
                if (raw is bool) return raw;
                throw Mismatch(name, "boolean", kind);
            }
            if (t == typeof(int) || t == typeof(long) || t == typeof(short))
            {
                long l;
                if (raw is long) l = (long)raw;
                else if (raw is double && Math.Floor((double)raw) == (double)raw && Math.Abs((double)raw) < 9e15) l = (long)(double)raw;
                else throw Mismatch(name, "integer", kind);
                if (t == typeof(long)) return l;
                if (t == typeof(int) && l >= int.MinValue && l <= int.MaxValue) return (int)l;
                if (t == typeof(short) && l >= short.MinValue && l <= short.MaxValue) return (short)l;
                throw new ArgumentBindingException("argument '" + name + "': " + l.ToString(CultureInfo.InvariantCulture) + " is out of range");
            }
            if (t == typeof(float) || t == typeof(double))
            {
                double d;
                if (raw is long) d = (long)raw;
                else if (raw is double) d = (double)raw;
                else throw Mismatch(name, "number", kind);
                if (t == typeof(float)) return (float)d;
                return d;
            }
            if (t.IsEnum)
            {
                var s = raw as string;
                if (s == null) throw Mismatch(name, "string", kind);
                foreach (string n in Enum.GetNames(t))
                {
                    if (string.Equals(n, s, StringComparison.OrdinalIgnoreCase)) return Enum.Parse(t, n);
                }
                throw new ArgumentBindingException("argument '" + name + "': '" + InputEcho.Shown(s) + "' is not one of "
                    + string.Join(", ", Enum.GetNames(t)));
            }
            if (t.IsArray)
            {
                var list = raw as IList;
                if (list == null) throw Mismatch(name, "array", kind);
                Type et = t.GetElementType();
                Array arr = Array.CreateInstance(et, list.Count);
                for (int i = 0; i < list.Count; i++)
                    arr.SetValue(Convert(list[i], et, name + "[" + i.ToString(CultureInfo.InvariantCulture) + "]"), i);
                return arr;
            }
            if (t == typeof(Dictionary<string, object>))
            {
                if (raw is Dictionary<string, object>) return raw;
                throw Mismatch(name, "object", kind);
            }
            throw new ArgumentBindingException("argument '" + name + "': unsupported parameter type " + t.Name);
        }

        private static ArgumentBindingException Mismatch(string name, string expected, string got)
        {
            return new ArgumentBindingException("argument '" + name + "': expected " + expected + ", got " + got);
        }
    }
}
