// A small JSON reader and writer for the bridge. No Unity dependency: this file compiles and runs
// under plain Mono, and is exercised there by the repository's integration tests.
//
// Reading yields: null, bool, string, long (integral numbers that fit), double (other numbers),
// List<object> (arrays) and Dictionary<string, object> (objects, keys in document order kept by
// the writer only for dictionaries it is given).
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using System.Reflection;
using System.Text;

namespace UnityIndex.Bridge
{
    public sealed class JsonException : Exception
    {
        public JsonException(string message) : base(message) { }
    }

    public static class Json
    {
        public const int MaxDepth = 64;

        public static object Parse(string text)
        {
            if (text == null) throw new JsonException("no JSON text");
            var reader = new Reader(text);
            reader.SkipWhitespace();
            object value = reader.ReadValue(0);
            reader.SkipWhitespace();
            if (!reader.AtEnd) throw new JsonException("unexpected text after the JSON value at offset " + reader.Position);
            return value;
        }

        public static string Serialize(object value)
        {
            var sb = new StringBuilder(256);
            Write(sb, value, 0);
            return sb.ToString();
        }

        /// <summary>Builds an ordered object from alternating keys and values: Obj("a", 1, "b", "x").</summary>
        public static Dictionary<string, object> Obj(params object[] keysAndValues)
        {
            if (keysAndValues.Length % 2 != 0) throw new ArgumentException("Obj needs key/value pairs");
            var d = new Dictionary<string, object>(keysAndValues.Length / 2);
            for (int i = 0; i < keysAndValues.Length; i += 2)
                d[(string)keysAndValues[i]] = keysAndValues[i + 1];
            return d;
        }

        private sealed class Reader
        {
            private readonly string _s;
            private int _i;

            public Reader(string s) { _s = s; }
            public bool AtEnd { get { return _i >= _s.Length; } }
            public int Position { get { return _i; } }

            public void SkipWhitespace()
            {
                while (_i < _s.Length)
                {
                    char c = _s[_i];
                    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') _i++;
                    else break;
                }
            }

            private JsonException Error(string what)
            {
                return new JsonException(what + " at offset " + _i);
            }

            public object ReadValue(int depth)
            {
                if (depth > MaxDepth) throw Error("nesting deeper than " + MaxDepth);
                if (AtEnd) throw Error("unexpected end of JSON");
                char c = _s[_i];
                switch (c)
                {
                    case '{': return ReadObject(depth);
                    case '[': return ReadArray(depth);
                    case '"': return ReadString();
                    case 't': Expect("true"); return true;
                    case 'f': Expect("false"); return false;
                    case 'n': Expect("null"); return null;
                    default:
                        if (c == '-' || (c >= '0' && c <= '9')) return ReadNumber();
                        throw Error("unexpected character '" + c + "'");
                }
            }

            private void Expect(string word)
            {
                if (string.CompareOrdinal(_s, _i, word, 0, word.Length) != 0) throw Error("invalid literal");
                _i += word.Length;
            }

            private Dictionary<string, object> ReadObject(int depth)
            {
                var d = new Dictionary<string, object>();
                _i++;
                SkipWhitespace();
                if (!AtEnd && _s[_i] == '}') { _i++; return d; }
                while (true)
                {
                    SkipWhitespace();
                    if (AtEnd || _s[_i] != '"') throw Error("expected a string key");
                    string key = ReadString();
                    SkipWhitespace();
                    if (AtEnd || _s[_i] != ':') throw Error("expected ':'");
                    _i++;
                    SkipWhitespace();
                    if (d.ContainsKey(key)) throw Error("duplicate key \"" + InputEcho.Shown(key) + "\"");
                    d[key] = ReadValue(depth + 1);
                    SkipWhitespace();
                    if (AtEnd) throw Error("unexpected end of JSON in an object");
                    char c = _s[_i++];
                    if (c == '}') return d;
                    if (c != ',') throw Error("expected ',' or '}'");
                }
            }

            private List<object> ReadArray(int depth)
            {
                var list = new List<object>();
                _i++;
                SkipWhitespace();
                if (!AtEnd && _s[_i] == ']') { _i++; return list; }
                while (true)
                {
                    SkipWhitespace();
                    list.Add(ReadValue(depth + 1));
                    SkipWhitespace();
                    if (AtEnd) throw Error("unexpected end of JSON in an array");
                    char c = _s[_i++];
                    if (c == ']') return list;
                    if (c != ',') throw Error("expected ',' or ']'");
                }
            }

            private string ReadString()
            {
                _i++; // opening quote
                var sb = new StringBuilder();
                while (true)
                {
                    if (AtEnd) throw Error("unterminated string");
                    char c = _s[_i++];
                    if (c == '"') return sb.ToString();
                    if (c < 0x20) throw Error("control character in string");
                    if (c != '\\') { sb.Append(c); continue; }
                    if (AtEnd) throw Error("unterminated escape");
                    char e = _s[_i++];
                    switch (e)
                    {
                        case '"': sb.Append('"'); break;
                        case '\\': sb.Append('\\'); break;
                        case '/': sb.Append('/'); break;
                        case 'b': sb.Append('\b'); break;
                        case 'f': sb.Append('\f'); break;
                        case 'n': sb.Append('\n'); break;
                        case 'r': sb.Append('\r'); break;
                        case 't': sb.Append('\t'); break;
                        case 'u':
                            if (_i + 4 > _s.Length) throw Error("short \\u escape");
                            int code;
                            if (!int.TryParse(_s.Substring(_i, 4), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out code))
                                throw Error("bad \\u escape");
                            sb.Append((char)code);
                            _i += 4;
                            break;
                        default: throw Error("bad escape '\\" + e + "'");
                    }
                }
            }

            /// <summary>
            /// A number exactly as JSON spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, and no
            /// number character right after it (so 01, 1., -.5 and 1e are refused, not read).
            /// </summary>
            private object ReadNumber()
            {
                int start = _i;
                if (Peek() == '-') _i++;
                if (Peek() == '0') _i++;
                else if (SkipDigits() == 0) throw BadNumber(start);
                bool integral = true;
                if (Peek() == '.')
                {
                    _i++;
                    integral = false;
                    if (SkipDigits() == 0) throw BadNumber(start);
                }
                if (Peek() == 'e' || Peek() == 'E')
                {
                    _i++;
                    integral = false;
                    if (Peek() == '+' || Peek() == '-') _i++;
                    if (SkipDigits() == 0) throw BadNumber(start);
                }
                if (IsNumberChar(Peek())) throw BadNumber(start);
                string token = _s.Substring(start, _i - start);
                long l;
                if (integral && long.TryParse(token, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out l)) return l;
                double d;
                if (!double.TryParse(token, NumberStyles.Float, CultureInfo.InvariantCulture, out d)) throw BadNumber(start);
                return d;
            }

            private char Peek()
            {
                return AtEnd ? '\0' : _s[_i];
            }

            private int SkipDigits()
            {
                int from = _i;
                while (!AtEnd && _s[_i] >= '0' && _s[_i] <= '9') _i++;
                return _i - from;
            }

            private static bool IsNumberChar(char c)
            {
                return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
            }

            /// <summary>The number that starts at start, as far as number characters go (its start only, if long).</summary>
            private JsonException BadNumber(int start)
            {
                int end = start;
                while (end < _s.Length && IsNumberChar(_s[end])) end++;
                _i = start;
                return Error("bad number '" + InputEcho.Shown(_s.Substring(start, end - start)) + "'");
            }
        }

        private static void Write(StringBuilder sb, object value, int depth)
        {
            if (depth > MaxDepth) throw new JsonException("value nested deeper than " + MaxDepth + " (a cycle?)");
            if (value == null) { sb.Append("null"); return; }
            var s = value as string;
            if (s != null) { WriteString(sb, s); return; }
            if (value is bool) { sb.Append((bool)value ? "true" : "false"); return; }
            if (value is char) { WriteString(sb, value.ToString()); return; }
            if (value is Enum) { WriteString(sb, value.ToString()); return; }
            if (value is int || value is long || value is short || value is byte || value is sbyte
                || value is uint || value is ulong || value is ushort)
            {
                sb.Append(Convert.ToString(value, CultureInfo.InvariantCulture));
                return;
            }
            if (value is float || value is double || value is decimal)
            {
                double d = Convert.ToDouble(value, CultureInfo.InvariantCulture);
                if (double.IsNaN(d) || double.IsInfinity(d)) { sb.Append("null"); return; }
                string text = value is float
                    ? ((float)value).ToString("R", CultureInfo.InvariantCulture)
                    : d.ToString("R", CultureInfo.InvariantCulture);
                sb.Append(text);
                // a whole value stays a fraction ("2.0", not "2"): a reader telling integers apart
                // (this one's `long`, Python's `int`) reads a time that fell on a whole second alike
                if (text.IndexOfAny(new[] { '.', 'E', 'e' }) < 0) sb.Append(".0");
                return;
            }
            var dict = value as IDictionary;
            if (dict != null)
            {
                sb.Append('{');
                bool first = true;
                foreach (DictionaryEntry entry in dict)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    WriteString(sb, Convert.ToString(entry.Key, CultureInfo.InvariantCulture));
                    sb.Append(':');
                    Write(sb, entry.Value, depth + 1);
                }
                sb.Append('}');
                return;
            }
            var seq = value as IEnumerable;
            if (seq != null)
            {
                sb.Append('[');
                bool first = true;
                foreach (object item in seq)
                {
                    if (!first) sb.Append(',');
                    first = false;
                    Write(sb, item, depth + 1);
                }
                sb.Append(']');
                return;
            }
            // Any other object: its public instance fields, in declaration order.
            sb.Append('{');
            bool firstField = true;
            foreach (FieldInfo f in value.GetType().GetFields(BindingFlags.Public | BindingFlags.Instance))
            {
                if (!firstField) sb.Append(',');
                firstField = false;
                WriteString(sb, f.Name);
                sb.Append(':');
                Write(sb, f.GetValue(value), depth + 1);
            }
            sb.Append('}');
        }

        public static void WriteString(StringBuilder sb, string s)
        {
            sb.Append('"');
            foreach (char c in s)
            {
                switch (c)
                {
                    case '"': sb.Append("\\\""); break;
                    case '\\': sb.Append("\\\\"); break;
                    case '\n': sb.Append("\\n"); break;
                    case '\r': sb.Append("\\r"); break;
                    case '\t': sb.Append("\\t"); break;
                    default:
                        if (c < 0x20 || c == '\u2028' || c == '\u2029')
                            sb.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
                        else sb.Append(c);
                        break;
                }
            }
            sb.Append('"');
        }
    }
}
