// The heartbeat file <project>/Library/UnityIndex/editor.json: how a client finds the bridge.
// Written atomically (temp file, then rename over the old one), readable by the user only where
// the platform allows it (chmod 600 on macOS and Linux; on Windows the file inherits the ACL of
// the project's Library folder). No Unity dependency.
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Runtime.InteropServices;
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
        [DllImport("libc", EntryPoint = "chmod", SetLastError = true)]
        private static extern int NativeChmod(string path, uint mode);

        public static bool IsWindows
        {
            get
            {
                PlatformID p = Environment.OSVersion.Platform;
                return p == PlatformID.Win32NT || p == PlatformID.Win32Windows || p == PlatformID.Win32S || p == PlatformID.WinCE;
            }
        }

        /// <summary>chmod 600 (POSIX only; a no-op returning false elsewhere or when libc is unreachable).</summary>
        public static bool RestrictToUser(string path)
        {
            if (IsWindows) return false;
            try { return NativeChmod(path, Convert.ToUInt32("600", 8)) == 0; }
            catch (DllNotFoundException) { return false; }
            catch (EntryPointNotFoundException) { return false; }
        }

        /// <summary>Writes text to path atomically: a private temp file beside it, then a rename over it.</summary>
        public static void WriteAtomic(string path, string text, bool userOnly)
        {
            string dir = Path.GetDirectoryName(path);
            if (!string.IsNullOrEmpty(dir)) Directory.CreateDirectory(dir);
            string tmp = path + "." + Process.GetCurrentProcess().Id + "." + Thread.CurrentThread.ManagedThreadId + ".tmp";
            using (var fs = new FileStream(tmp, FileMode.Create, FileAccess.Write, FileShare.None))
            {
                if (userOnly) RestrictToUser(tmp); // before any content is written
                byte[] bytes = new UTF8Encoding(false).GetBytes(text);
                fs.Write(bytes, 0, bytes.Length);
                fs.Flush(true);
            }
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
    /// rewrites it every IntervalMs so readers can tell a live editor from a stale file.
    /// </summary>
    public sealed class Heartbeat : IDisposable
    {
        public const int IntervalMs = 2000;
        private readonly object _lock = new object();
        private Timer _timer;
        private int _port;
        private string _token;
        private string _state = EditorStates.Ready;
        private double _mainThreadAt;

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
                if (_timer != null) return;
                _timer = new Timer(delegate { Publish(); }, null, IntervalMs, IntervalMs);
            }
        }

        public void StopTimer()
        {
            lock (_lock)
            {
                if (_timer == null) return;
                _timer.Dispose();
                _timer = null;
            }
        }

        public Dictionary<string, object> Snapshot()
        {
            lock (_lock)
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
        }

        public void Publish()
        {
            try
            {
                Dictionary<string, object> d = Snapshot();
                Func<Dictionary<string, object>> extra = Extra;
                if (extra != null)
                {
                    Dictionary<string, object> more = extra();
                    if (more != null)
                        foreach (KeyValuePair<string, object> kv in more)
                            if (!d.ContainsKey(kv.Key)) d[kv.Key] = kv.Value;
                }
                lock (_lock) BridgeFiles.WriteAtomic(FilePath, Json.Serialize(d) + "\n", true);
            }
            catch (Exception e)
            {
                if (Log != null) Log("UnityIndex: could not write " + FilePath + ": " + e.Message);
            }
        }

        /// <summary>Removes the file (the editor is quitting): clients then report "no editor running".</summary>
        public void Delete()
        {
            StopTimer();
            lock (_lock) BridgeFiles.TryDelete(FilePath);
        }

        public void Dispose()
        {
            StopTimer();
        }
    }
}
