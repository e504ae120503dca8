// The caller's input as an error message repeats it: whole up to 200 characters, else its start,
// an ellipsis and its length, so that a pasted file given as a tool name does not come back whole
// (the rule of the Python side's `indexer/words.py`, `echoed`). No Unity dependency.
using System.Globalization;

namespace UnityIndex.Bridge
{
    public static class InputEcho
    {
        public const int ShownChars = 200;

        public static string Shown(string text)
        {
            if (text == null || text.Length <= ShownChars) return text;
            int keep = char.IsHighSurrogate(text[ShownChars - 1]) ? ShownChars - 1 : ShownChars;
            return text.Substring(0, keep) + "\u2026 (" + text.Length.ToString("#,0", CultureInfo.InvariantCulture) + " characters)";
        }
    }
}
