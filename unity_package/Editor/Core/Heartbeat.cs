// The heartbeat file <project>/Library/UnityIndex/editor.json: how a client finds the bridge.
// Written atomically (temp file, then rename over the old one), readable by its owner only
// (OwnerOnly: chmod 600 on macOS and Linux, a protected owner-only DACL on Windows); a failure to
// restrict it is logged once. No Unity dependency.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Text;
using System.Threading;

namespace UnityIndex.Bridge
{
    public static class EditorStates
    {
        public const string Ready = "ready";
        public const string Compiling = "compiling";
        public const string Reloading = "reloading";
        public const string Playing = "playing";
        public const string Paused = "paused";
    }

    public static class BridgeFiles
    {
        /// <summary>Where temp files of owner-only writes are made: a folder only the owner can enter.</summary>
        public const string PrivateFolder = ".editor-private";

        /// <summary>
        /// Writes text to path atomically: a temp file, then a rename over path. With userOnly the
        /// temp file is made in PrivateFolder (owner-only before any file exists in it, so no other
        /// user can open the file between its creation and its own restriction) and restricted
        /// before any content is written. Returns how the restriction went (null without userOnly).
        /// </summary>
        public static OwnerOnlyResult WriteAtomic(string path, string text, bool userOnly)
        {
            string dir = Path.GetDirectoryName(path);
            if (string.IsNullOrEmpty(dir)) dir = ".";
            Directory.CreateDirectory(dir);
            OwnerOnlyResult restricted = null;
            string tmpDir = dir;
            if (userOnly)
            {
                tmpDir = Path.Combine(dir, PrivateFolder);
                Directory.CreateDirectory(tmpDir);
                restricted = OwnerOnly.Apply(tmpDir, true); // every time: cheap, and repairs a changed mode
            }
            string tmp = Path.Combine(tmpDir, Path.GetFileName(path) + "." + Process.GetCurrentProcess().Id + "." + Thread.CurrentThread.ManagedThreadId + ".tmp");
            using (var fs = new FileStream(tmp, FileMode.Create, FileAccess.Write, FileShare.None))
            {
                if (userOnly)
                {
                    OwnerOnlyResult file = OwnerOnly.Apply(tmp, false); // before any content is written
                    if (!file.Ok || restricted.Ok) restricted = file;
                }
                byte[] bytes = new UTF8Encoding(false).GetBytes(text);
                fs.Write(bytes, 0, bytes.Length);
                fs.Flush(true);
            }
            Replace(tmp, path);
            return restricted;
        }

        private static void Replace(string tmp, string path)
        {
            for (int attempt = 0; ; attempt++)
            {
                try
                {
                    if (File.Exists(path)) File.Replace(tmp, path, null);
                    else File.Move(tmp, path);
                    return;
                }
                catch (IOException)
                {
                    // Windows: a reader holding the file open without FILE_SHARE_DELETE. Retry briefly.
                    if (attempt >= 20) { TryDelete(tmp); throw; }
                    Thread.Sleep(10);
                }
                catch (UnauthorizedAccessException)
                {
                    if (attempt >= 20) { TryDelete(tmp); throw; }
                    Thread.Sleep(10);
                }
            }
        }

        public static void TryDelete(string path)
        {
            try { if (File.Exists(path)) File.Delete(path); } catch (Exception) { }
        }

        public static double UnixNow()
        {
            return (DateTime.UtcNow - new DateTime(1970, 1, 1, 0, 0, 0, DateTimeKind.Utc)).TotalMilliseconds / 1000.0;
        }
    }

    /// <summary>
    /// Publishes the heartbeat: call Publish() whenever port, token or state change; a timer
    /// rewrites it every IntervalMs so readers can tell a live editor from a stale file. Each write
    /// takes its snapshot under the lock that guards the file, so the last write holds the last
    /// state; a timer write still in progress when the timer stops, or after Delete(), is dropped
    /// (Timer.Dispose does not wait for a callback in progress).
    /// </summary>
    public sealed class Heartbeat : IDisposable
    {
        public const int IntervalMs = 2000;
        private readonly object _lock = new object();
        private Timer _timer;
        /// <summary>Changed whenever the timer starts or stops: a timer write of another generation is dropped.</summary>
        private int _timerGeneration;
        /// <summary>Set by Delete(): this heartbeat writes nothing more (the editor is quitting).</summary>
        private bool _deleted;
        private int _port;
        private string _token;
        private string _state = EditorStates.Ready;
        private double _mainThreadAt;
        private bool _fileRestricted;
        private bool _warned;

        public Heartbeat(string projectPath, string unityVersion)
        {
            ProjectPath = Path.GetFullPath(projectPath);
            UnityVersion = unityVersion;
            FilePath = Path.Combine(Path.Combine(Path.Combine(ProjectPath, "Library"), "UnityIndex"), "editor.json");
            _mainThreadAt = BridgeFiles.UnixNow(); // constructed on the engine thread
        }

        public string ProjectPath { get; private set; }
        public string UnityVersion { get; private set; }
        public string FilePath { get; private set; }
        /// <summary>Extra fields written into the file (e.g. compile error count). Any thread.</summary>
        public Func<Dictionary<string, object>> Extra;
        public Action<string> Log;

        public string State { get { lock (_lock) return _state; } }

        /// <summary>Records that the engine thread is alive (written as main_thread_at).</summary>
        public void MainThreadTick()
        {
            lock (_lock) _mainThreadAt = BridgeFiles.UnixNow();
        }

        public void Set(int port, string token, string state)
        {
            lock (_lock)
            {
                _port = port;
                _token = token;
                _state = state;
            }
            Publish();
        }

        public void SetState(string state)
        {
            lock (_lock) _state = state;
            Publish();
        }

        public void StartTimer()
        {
            lock (_lock)
            {
                if (_timer != null || _deleted) return;
                _timerGeneration++;
                _timer = new Timer(Beat, _timerGeneration, IntervalMs, IntervalMs);
            }
        }

        public void StopTimer()
        {
            lock (_lock) StopTimerLocked();
        }

        private void StopTimerLocked()
        {
            if (_timer == null) return;
            _timer.Dispose();
            _timer = null;
            _timerGeneration++;
        }

        public Dictionary<string, object> Snapshot()
        {
            lock (_lock) return SnapshotLocked();
        }

        private Dictionary<string, object> SnapshotLocked()
        {
            var d = Json.Obj(
                "protocol", BridgeServer.Protocol,
                "port", _port,
                "token", _token,
                "pid", Process.GetCurrentProcess().Id,
                "state", _state,
                "unity_version", UnityVersion,
                "project_path", ProjectPath.Replace('\\', '/'),
                "updated_at", BridgeFiles.UnixNow());
            d["main_thread_at"] = _mainThreadAt;
            return d;
        }

        /// <summary>Writes the file now (unless Delete() ran).</summary>
        public void Publish()
        {
            Write(null);
        }

        private void Beat(object generation)
        {
            Write((int)generation);
        }

        /// <summary>Writes the snapshot; a timer write (its generation given) only while that timer runs.</summary>
        private void Write(int? timerGeneration)
        {
            try
            {
                Dictionary<string, object> more = ExtraFields(); // outside the lock: Extra may take the editor's locks
                OwnerOnlyResult restricted;
                lock (_lock)
                {
                    if (_deleted || (timerGeneration.HasValue && timerGeneration.Value != _timerGeneration)) return;
                    Dictionary<string, object> d = SnapshotLocked();
                    if (more != null)
                        foreach (KeyValuePair<string, object> kv in more)
                            if (!d.ContainsKey(kv.Key)) d[kv.Key] = kv.Value;
                    restricted = BridgeFiles.WriteAtomic(FilePath, Json.Serialize(d) + "\n", true);
                    if (!_fileRestricted)
                    {
                        // Once per session on the file itself: on Windows File.Replace keeps the
                        // replaced file's DACL, which a file from an older version would not have.
                        _fileRestricted = true;
                        OwnerOnlyResult again = OwnerOnly.Apply(FilePath, false);
                        if (!again.Ok) restricted = again;
                    }
                }
                WarnOnce(restricted);
            }
            catch (Exception e)
            {
                if (Log != null) Log("UnityIndex: could not write " + FilePath + ": " + e.Message);
            }
        }

        private Dictionary<string, object> ExtraFields()
        {
            Func<Dictionary<string, object>> extra = Extra;
            return extra == null ? null : extra();
        }

        private void WarnOnce(OwnerOnlyResult restricted)
        {
            if (restricted.Ok || _warned) return;
            _warned = true;
            if (Log != null)
                Log("UnityIndex: could not make " + FilePath + " readable by its owner only (" + restricted.Method + ": "
                    + restricted.Detail + "); other users of this machine may be able to read the bridge's token");
        }

        /// <summary>
        /// Removes the file for good (the editor is quitting): clients then report "no editor
        /// running". Nothing this heartbeat would write afterwards is written.
        /// </summary>
        public void Delete()
        {
            lock (_lock)
            {
                StopTimerLocked();
                _deleted = true;
                BridgeFiles.TryDelete(FilePath);
            }
        }

        public void Dispose()
        {
            StopTimer();
        }
    }
}
