// The bridge inside the Unity editor: starts the HTTP server when the editor loads scripts, drains
// its call queue on the main thread, keeps the heartbeat current, and steps aside for domain
// reloads (stop before, start again after; state "reloading" in between).
using System;
using System.Collections.Generic;
using System.IO;
using System.Threading;
using UnityEditor;
using UnityEditor.Compilation;
using UnityEngine;

namespace UnityIndex.Bridge
{
    [InitializeOnLoad]
    public static class UnityIndexBridge
    {
        private const string PortKey = "UnityIndex.Bridge.Port";
        private const string CompileKey = "UnityIndex.Bridge.Compile";
        /// <summary>Set this environment variable to 1 to run the bridge in batch mode too.</summary>
        public const string BatchModeVariable = "UNITYINDEX_BRIDGE_IN_BATCHMODE";
        /// <summary>Set this environment variable to 1 to keep the bridge off.</summary>
        public const string DisableVariable = "UNITYINDEX_BRIDGE_DISABLED";
        private const int PumpBudgetMs = 50;

        public static readonly ToolRegistry Registry = new ToolRegistry();
        public static readonly MainThreadQueue Queue = new MainThreadQueue(32);
        public static readonly LogBuffer Logs = new LogBuffer(1000);
        public static readonly BridgeServerOptions Options = new BridgeServerOptions();

        private static BridgeServer _server;
        private static Heartbeat _heartbeat;
        private static SynchronizationContext _mainContext;
        private static Timer _wakeTimer;
        private static int _wakePosted;
        private static volatile string _state = EditorStates.Ready;
        private static readonly object CompileLock = new object();
        private static Dictionary<string, object> _compile = new Dictionary<string, object>();
        private static List<object> _compileMessages = new List<object>();

        static UnityIndexBridge()
        {
            _mainContext = SynchronizationContext.Current;
            LoadCompileReport();
            Application.logMessageReceivedThreaded += OnLog;
            CompilationPipeline.compilationStarted += OnCompilationStarted;
            CompilationPipeline.assemblyCompilationFinished += OnAssemblyCompiled;
            CompilationPipeline.compilationFinished += OnCompilationFinished;
            if (Environment.GetEnvironmentVariable(DisableVariable) == "1") return;
            if (Application.isBatchMode && Environment.GetEnvironmentVariable(BatchModeVariable) != "1") return;
            RegisterTools();
            EditorApplication.update += OnUpdate;
            AssemblyReloadEvents.beforeAssemblyReload += OnBeforeAssemblyReload;
            AssemblyReloadEvents.afterAssemblyReload += OnAfterAssemblyReload;
            EditorApplication.quitting += OnQuitting;
            Start();
        }

        public static string ProjectPath
        {
            get { return Path.GetDirectoryName(Path.GetFullPath(Application.dataPath)); }
        }

        public static bool IsRunning { get { return _server != null && _server.IsRunning; } }
        public static int Port { get { return _server == null ? 0 : _server.Port; } }
        public static string State { get { return _state; } }

        /// <summary>Built-in tools first (they win name clashes), then every other editor assembly's.</summary>
        private static void RegisterTools()
        {
            Registry.RegisterAssembly(typeof(UnityIndexBridge).Assembly);
            foreach (System.Reflection.MethodInfo m in TypeCache.GetMethodsWithAttribute<BridgeToolAttribute>())
            {
                if (m.DeclaringType == null) continue;
                System.Reflection.Assembly asm = m.DeclaringType.Assembly;
                // Built-ins are in already; the package's own test tools are not for agents.
                if (asm == typeof(UnityIndexBridge).Assembly || asm.GetName().Name == "UnityIndex.Editor.Tests") continue;
                Registry.Register(m);
            }
            foreach (string w in Registry.Warnings) Debug.LogWarning("UnityIndex bridge: " + w);
        }

        private static void Start()
        {
            try
            {
                _heartbeat = new Heartbeat(ProjectPath, Application.unityVersion);
                _heartbeat.Log = delegate (string msg) { Debug.LogWarning(msg); };
                _heartbeat.Extra = delegate
                {
                    lock (CompileLock) return Json.Obj("compile_errors", _compile.ContainsKey("error_count") ? _compile["error_count"] : (object)0);
                };
                Options.PreferredPort = SessionState.GetInt(PortKey, 0);
                _server = new BridgeServer(Registry, Queue, Options);
                _server.Log = delegate (string msg) { Debug.LogWarning(msg); };
                _server.Info = delegate { return Json.Obj("state", _state, "unity_version", Application.unityVersion); };
                _server.Start();
                SessionState.SetInt(PortKey, _server.Port);
                _state = ComputeState();
                _heartbeat.Set(_server.Port, _server.Token, _state);
                _heartbeat.StartTimer();
                Queue.Enqueued += Wake;
                _wakeTimer = new Timer(delegate { if (Queue.PendingCount > 0) Wake(); }, null, 250, 250);
            }
            catch (Exception e)
            {
                Debug.LogError("UnityIndex bridge could not start: " + e.Message);
            }
        }

        private static void Stop(string code, string message)
        {
            Queue.Enqueued -= Wake;
            if (_wakeTimer != null) { _wakeTimer.Dispose(); _wakeTimer = null; }
            if (_server != null) _server.Stop(code, message);
            if (_heartbeat != null) _heartbeat.StopTimer();
        }

        private static string ComputeState()
        {
            if (EditorApplication.isCompiling) return EditorStates.Compiling;
            if (EditorApplication.isPlaying) return EditorApplication.isPaused ? EditorStates.Paused : EditorStates.Playing;
            return EditorStates.Ready;
        }

        /// <summary>
        /// Called from HTTP threads when a call is queued: asks Unity to run a frame soon, so the
        /// queue is drained even while the editor window is unfocused and idle.
        /// </summary>
        private static void Wake()
        {
            SynchronizationContext ctx = _mainContext;
            if (ctx == null || Interlocked.Exchange(ref _wakePosted, 1) == 1) return;
            ctx.Post(delegate
            {
                Interlocked.Exchange(ref _wakePosted, 0);
                Pump();
            }, null);
        }

        private static void OnUpdate()
        {
            Pump();
            string state = ComputeState();
            if (state != _state && _heartbeat != null)
            {
                _state = state;
                _heartbeat.SetState(state);
            }
        }

        private static void Pump()
        {
            if (_heartbeat != null) _heartbeat.MainThreadTick();
            Queue.Pump(PumpBudgetMs);
            // More work (or a multi-frame tool such as a test run): keep frames coming while unfocused.
            if (Queue.PendingCount > 0) EditorApplication.QueuePlayerLoopUpdate();
        }

        private static void OnBeforeAssemblyReload()
        {
            Stop("reloading", "the editor is reloading scripts; retry shortly");
            _state = EditorStates.Reloading;
            if (_heartbeat != null) _heartbeat.SetState(EditorStates.Reloading);
        }

        private static void OnAfterAssemblyReload()
        {
            // The new domain's static constructor already started a new server; refresh the state.
            if (_heartbeat != null && _server != null && _server.IsRunning)
            {
                _state = ComputeState();
                _heartbeat.SetState(_state);
            }
        }

        private static void OnQuitting()
        {
            Stop("shutting_down", "the editor is closing");
            if (_heartbeat != null) _heartbeat.Delete();
        }

        private static void OnLog(string condition, string stackTrace, LogType type)
        {
            string t;
            switch (type)
            {
                case LogType.Error: t = "error"; break;
                case LogType.Assert: t = "assert"; break;
                case LogType.Warning: t = "warning"; break;
                case LogType.Exception: t = "exception"; break;
                default: t = "log"; break;
            }
            bool withStack = type != LogType.Log && type != LogType.Warning;
            Logs.Add(t, condition, withStack ? stackTrace : null);
        }

        // -- compilation report, kept across the domain reload that follows a successful compile --

        private static void OnCompilationStarted(object context)
        {
            lock (CompileLock)
            {
                _compileMessages = new List<object>();
                _compile = Json.Obj("started_at", Math.Round(BridgeFiles.UnixNow(), 3), "finished_at", null, "error_count", 0, "warning_count", 0);
            }
        }

        private static void OnAssemblyCompiled(string assemblyPath, CompilerMessage[] messages)
        {
            lock (CompileLock)
            {
                foreach (CompilerMessage m in messages)
                {
                    string key = m.type == CompilerMessageType.Error ? "error_count" : "warning_count";
                    _compile[key] = (_compile.ContainsKey(key) ? Convert.ToInt32(_compile[key]) : 0) + 1;
                    if (m.type != CompilerMessageType.Error || _compileMessages.Count >= 50) continue;
                    _compileMessages.Add(Json.Obj("file", m.file, "line", m.line, "column", m.column, "message", m.message,
                        "assembly", Path.GetFileNameWithoutExtension(assemblyPath)));
                }
            }
        }

        private static void OnCompilationFinished(object context)
        {
            lock (CompileLock)
            {
                _compile["finished_at"] = Math.Round(BridgeFiles.UnixNow(), 3);
                _compile["errors"] = _compileMessages;
                SessionState.SetString(CompileKey, Json.Serialize(_compile));
            }
            if (_heartbeat != null) _heartbeat.Publish();
        }

        private static void LoadCompileReport()
        {
            try
            {
                var d = Json.Parse(SessionState.GetString(CompileKey, "{}")) as Dictionary<string, object>;
                if (d == null) return;
                _compile = d;
                object errs;
                _compileMessages = d.TryGetValue("errors", out errs) && errs is List<object> ? (List<object>)errs : new List<object>();
            }
            catch (JsonException) { }
        }

        /// <summary>The last compilation: start and end times, error and warning counts, first 50 errors.</summary>
        public static Dictionary<string, object> CompileReport()
        {
            lock (CompileLock)
            {
                var copy = new Dictionary<string, object>(_compile);
                copy["errors"] = new List<object>(_compileMessages);
                return copy;
            }
        }
    }
}
