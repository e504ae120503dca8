// The asset change journal <project>/Library/UnityIndex/journal.jsonl, for the indexer.
// One JSON object per line (format in docs/editor-bridge.md):
//   {"v":1,"session":"<id>","seq":1,"t":1767225600.123,"op":"start","pid":123,"reason":"editor_start",
//    "prev_session":null,"prev_seq":null}
//   {"v":1,"session":"<id>","seq":2,"t":...,"op":"imported","path":"Assets/A.cs"}
//   {"v":1,"session":"<id>","seq":3,"t":...,"op":"moved","path":"Assets/B.cs","from":"Assets/A.cs"}
//   {"v":1,"session":"<id>","seq":4,"t":...,"op":"deleted","path":"Assets/B.cs"}
// No Unity dependency.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace UnityIndex.Bridge
{
    public sealed class JournalWriter
    {
        public const int Version = 1;
        /// <summary>At start, a journal larger than this is emptied (readers see it shrink: full walk).</summary>
        public const long MaxBytes = 8L * 1024 * 1024;
        private readonly object _lock = new object();

        public JournalWriter(string projectPath)
        {
            FilePath = Path.Combine(Path.Combine(Path.Combine(Path.GetFullPath(projectPath), "Library"), "UnityIndex"), "journal.jsonl");
            Session = NewSessionId();
        }

        public string FilePath { get; private set; }
        public string Session { get; private set; }
        /// <summary>The seq of the last line written in this session (0 before the start line).</summary>
        public long Seq { get; private set; }

        public static string NewSessionId()
        {
            return Guid.NewGuid().ToString("N").Substring(0, 16);
        }

        /// <summary>
        /// Writes the session's "start" line. prevSession/prevSeq name the session this one
        /// continues without a gap (the same editor process before a domain reload), or are
        /// null/0 when the editor just started (changes made while it was closed are unknown).
        /// </summary>
        public void Start(string reason, string prevSession, long prevSeq)
        {
            lock (_lock)
            {
                try
                {
                    var fi = new FileInfo(FilePath);
                    if (fi.Exists && fi.Length > MaxBytes) File.WriteAllText(FilePath, "");
                }
                catch (Exception) { }
                var line = Line("start");
                line["pid"] = System.Diagnostics.Process.GetCurrentProcess().Id;
                line["reason"] = reason;
                line["prev_session"] = string.IsNullOrEmpty(prevSession) ? null : prevSession;
                line["prev_seq"] = string.IsNullOrEmpty(prevSession) ? (object)null : prevSeq;
                WriteLines(new List<Dictionary<string, object>> { line });
            }
        }

        /// <summary>Appends one batch as OnPostprocessAllAssets reports it; one write, then flush.</summary>
        public void Append(string[] imported, string[] deleted, string[] moved, string[] movedFrom)
        {
            lock (_lock)
            {
                var lines = new List<Dictionary<string, object>>();
                if (imported != null)
                    foreach (string p in imported) { var l = Line("imported"); l["path"] = p; lines.Add(l); }
                if (deleted != null)
                    foreach (string p in deleted) { var l = Line("deleted"); l["path"] = p; lines.Add(l); }
                if (moved != null)
                {
                    for (int i = 0; i < moved.Length; i++)
                    {
                        var l = Line("moved");
                        l["path"] = moved[i];
                        l["from"] = movedFrom != null && i < movedFrom.Length ? movedFrom[i] : null;
                        lines.Add(l);
                    }
                }
                if (lines.Count > 0) WriteLines(lines);
            }
        }

        private Dictionary<string, object> Line(string op)
        {
            Seq++;
            return Json.Obj("v", Version, "session", Session, "seq", Seq, "t", Math.Round(BridgeFiles.UnixNow(), 3), "op", op);
        }

        private void WriteLines(List<Dictionary<string, object>> lines)
        {
            var sb = new StringBuilder();
            foreach (Dictionary<string, object> l in lines) sb.Append(Json.Serialize(l)).Append('\n');
            byte[] bytes = new UTF8Encoding(false).GetBytes(sb.ToString());
            Directory.CreateDirectory(Path.GetDirectoryName(FilePath));
            using (var fs = new FileStream(FilePath, FileMode.Append, FileAccess.Write, FileShare.ReadWrite | FileShare.Delete))
            {
                fs.Write(bytes, 0, bytes.Length);
                fs.Flush(true);
            }
        }
    }
}
