// A bounded, thread-safe buffer of console messages for the console_logs tool. No Unity dependency.
using System;
using System.Collections.Generic;

namespace UnityIndex.Bridge
{
    public sealed class LogBuffer
    {
        private readonly object _lock = new object();
        private readonly LinkedList<Dictionary<string, object>> _entries = new LinkedList<Dictionary<string, object>>();
        private readonly int _capacity;
        private long _seq;

        public LogBuffer(int capacity)
        {
            _capacity = Math.Max(1, capacity);
        }

        /// <summary>type: "error", "assert", "warning", "log" or "exception".</summary>
        public void Add(string type, string message, string stackTrace)
        {
            lock (_lock)
            {
                _seq++;
                var e = Json.Obj("seq", _seq, "t", Math.Round(BridgeFiles.UnixNow(), 3), "type", type, "message", message ?? "");
                if (!string.IsNullOrEmpty(stackTrace))
                {
                    // The first frames locate the problem; the rest is noise for an agent.
                    string[] frames = stackTrace.Split('\n');
                    int keep = Math.Min(frames.Length, 4);
                    e["stack"] = string.Join("\n", frames, 0, keep).TrimEnd();
                }
                _entries.AddLast(e);
                while (_entries.Count > _capacity) _entries.RemoveFirst();
            }
        }

        public void Clear()
        {
            lock (_lock) _entries.Clear();
        }

        /// <summary>The newest `limit` entries (oldest first) matching the filters, with counts.</summary>
        public Dictionary<string, object> Query(string[] types, string contains, long sinceSeq, int limit)
        {
            if (limit < 1) limit = 1;
            var matched = new List<Dictionary<string, object>>();
            int total;
            lock (_lock)
            {
                total = _entries.Count;
                foreach (Dictionary<string, object> e in _entries)
                {
                    if ((long)e["seq"] <= sinceSeq) continue;
                    if (types != null && types.Length > 0 && Array.IndexOf(types, (string)e["type"]) < 0) continue;
                    if (!string.IsNullOrEmpty(contains) && ((string)e["message"]).IndexOf(contains, StringComparison.OrdinalIgnoreCase) < 0) continue;
                    matched.Add(e);
                }
            }
            int skip = Math.Max(0, matched.Count - limit);
            return Json.Obj(
                "entries", matched.GetRange(skip, matched.Count - skip),
                "matched", matched.Count,
                "truncated", skip > 0,
                "buffered", total,
                "last_seq", LastSeq);
        }

        public long LastSeq { get { lock (_lock) return _seq; } }
    }
}
