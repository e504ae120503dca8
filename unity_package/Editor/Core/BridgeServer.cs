// The bridge's HTTP server: loopback only, token on every request, no browser origins, bounded
// bodies, a bounded queue to the engine thread and a time limit on every call. No Unity
// dependency: it runs under plain Mono in the repository's integration tests.
//
// Protocol (version 1; docs/editor-bridge.md is the reference):
//   GET  /v1/ping   -> {"ok":true,"protocol":1,"pending":N,"tools":N, ...Info()}
//   GET  /v1/tools  -> {"ok":true,"tools":[{"name","description","input_schema"}]}
//   POST /v1/call   {"tool":"name","arguments":{...},"timeout_ms":N}
//                   -> {"ok":true,"result":...,"elapsed_ms":N}
//   errors          -> {"ok":false,"error":{"code":"...","message":"...","started":bool?}}
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Security.Cryptography;
using System.Text;
using System.Threading;

namespace UnityIndex.Bridge
{
    public sealed class BridgeServerOptions
    {
        public int MaxBodyBytes = 1024 * 1024;
        public int MaxPending = 32;
        public int DefaultTimeoutMs = 30000;
        public int MaxTimeoutMs = 600000;
        /// <summary>Port to try first (e.g. the one used before a domain reload); 0 for any free port.</summary>
        public int PreferredPort;
    }

    public sealed class BridgeServer
    {
        public const int Protocol = 1;
        private static readonly UTF8Encoding Utf8 = new UTF8Encoding(false);

        private readonly ToolRegistry _registry;
        private readonly MainThreadQueue _queue;
        private readonly BridgeServerOptions _options;
        private HttpListener _listener;
        private Thread _acceptThread;
        private volatile bool _running;
        private volatile bool _stopping;
        private int _inFlight;

        public BridgeServer(ToolRegistry registry, MainThreadQueue queue, BridgeServerOptions options)
        {
            _registry = registry;
            _queue = queue;
            _options = options ?? new BridgeServerOptions();
            _queue.Capacity = _options.MaxPending;
        }

        /// <summary>Extra fields for /v1/ping (editor state...). Called on HTTP threads: must be thread-safe.</summary>
        public Func<Dictionary<string, object>> Info;
        /// <summary>Diagnostics sink (any thread).</summary>
        public Action<string> Log;

        public int Port { get; private set; }
        public string Token { get; private set; }
        public bool IsRunning { get { return _running; } }
        public string BaseUrl { get { return "http://127.0.0.1:" + Port + "/"; } }

        public static string NewToken()
        {
            var bytes = new byte[32];
            using (RandomNumberGenerator rng = RandomNumberGenerator.Create()) rng.GetBytes(bytes);
            var sb = new StringBuilder(64);
            foreach (byte b in bytes) sb.Append(b.ToString("x2"));
            return sb.ToString();
        }

        /// <summary>A port that is free on 127.0.0.1 right now (the OS picks it).</summary>
        public static int FindFreePort()
        {
            var l = new TcpListener(IPAddress.Loopback, 0);
            l.Start();
            try { return ((IPEndPoint)l.LocalEndpoint).Port; }
            finally { l.Stop(); }
        }

        /// <summary>Binds http://127.0.0.1:PORT/ on a free port with a fresh token (or the given one).</summary>
        public void Start(string token = null)
        {
            if (_running) throw new InvalidOperationException("bridge server already running");
            Token = string.IsNullOrEmpty(token) ? NewToken() : token;
            Exception last = null;
            for (int attempt = 0; attempt < 20; attempt++)
            {
                int port = attempt == 0 && _options.PreferredPort > 0 ? _options.PreferredPort : FindFreePort();
                var listener = new HttpListener();
                listener.IgnoreWriteExceptions = true;
                listener.Prefixes.Add("http://127.0.0.1:" + port + "/");
                try
                {
                    listener.Start();
                }
                catch (Exception e)
                {
                    last = e;
                    try { listener.Close(); } catch (Exception) { }
                    continue;
                }
                _listener = listener;
                Port = port;
                _stopping = false;
                _running = true;
                _acceptThread = new Thread(AcceptLoop) { IsBackground = true, Name = "UnityIndex bridge accept" };
                _acceptThread.Start();
                return;
            }
            throw new InvalidOperationException("could not bind a loopback port: " + (last == null ? "?" : last.Message));
        }

        /// <summary>
        /// Stops accepting, fails queued calls with 503 (code given, e.g. "reloading"), lets in-flight
        /// answers go out for up to waitMs, then closes the listener.
        /// </summary>
        public void Stop(string code = "reloading", string message = "the editor is reloading scripts; retry shortly", int waitMs = 1000)
        {
            if (!_running) return;
            _stopping = true;
            _queue.CancelAll(code, message);
            var sw = Stopwatch.StartNew();
            while (Interlocked.CompareExchange(ref _inFlight, 0, 0) > 0 && sw.ElapsedMilliseconds < waitMs) Thread.Sleep(10);
            _running = false;
            try { _listener.Stop(); } catch (Exception) { }
            try { _listener.Close(); } catch (Exception) { }
            if (_acceptThread != null && _acceptThread != Thread.CurrentThread) _acceptThread.Join(1000);
            _acceptThread = null;
            _listener = null;
        }

        private void AcceptLoop()
        {
            HttpListener listener = _listener;
            while (_running)
            {
                HttpListenerContext ctx;
                try
                {
                    ctx = listener.GetContext();
                }
                catch (Exception)
                {
                    if (!_running) return;
                    Thread.Sleep(10);
                    continue;
                }
                Interlocked.Increment(ref _inFlight);
                ThreadPool.QueueUserWorkItem(Handle, ctx);
            }
        }

        private void Handle(object state)
        {
            var ctx = (HttpListenerContext)state;
            try
            {
                Respond(ctx);
            }
            catch (Exception e)
            {
                if (Log != null) Log("bridge: request failed: " + e);
                try { Send(ctx, 500, Error("internal_error", e.GetType().Name + ": " + e.Message, null), null); }
                catch (Exception) { }
            }
            finally
            {
                Interlocked.Decrement(ref _inFlight);
            }
        }

        private static Dictionary<string, object> Error(string code, string message, bool? started)
        {
            var err = Json.Obj("code", code, "message", message);
            if (started.HasValue) err["started"] = started.Value;
            return Json.Obj("ok", false, "error", err);
        }

        private static void Send(HttpListenerContext ctx, int status, Dictionary<string, object> body, Dictionary<string, string> headers)
        {
            byte[] bytes = Utf8.GetBytes(Json.Serialize(body));
            HttpListenerResponse resp = ctx.Response;
            resp.StatusCode = status;
            resp.ContentType = "application/json; charset=utf-8";
            resp.Headers["Cache-Control"] = "no-store";
            resp.Headers["X-Content-Type-Options"] = "nosniff";
            if (headers != null)
                foreach (KeyValuePair<string, string> h in headers) resp.Headers[h.Key] = h.Value;
            resp.ContentLength64 = bytes.Length;
            try
            {
                resp.OutputStream.Write(bytes, 0, bytes.Length);
                resp.OutputStream.Close();
            }
            finally
            {
                try { resp.Close(); } catch (Exception) { }
            }
        }

        private static bool TokenEquals(string a, string b)
        {
            if (a == null || b == null || a.Length != b.Length) return false;
            int diff = 0;
            for (int i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }

        private void Respond(HttpListenerContext ctx)
        {
            HttpListenerRequest req = ctx.Request;
            // 1. Browsers: any Origin header means a web page is talking to us. Refuse, always.
            if (req.Headers["Origin"] != null)
            {
                Send(ctx, 403, Error("origin_forbidden", "requests carrying an Origin header are refused", null), null);
                return;
            }
            // 2. DNS rebinding: only our own loopback address. (HttpListener already answers 400 to
            //    a Host that does not match the 127.0.0.1:PORT prefix; this is defence in depth.)
            string host = req.Headers["Host"] ?? "";
            if (host != "127.0.0.1:" + Port)
            {
                Send(ctx, 403, Error("host_forbidden", "Host must be 127.0.0.1:" + Port, null), null);
                return;
            }
            // 3. The per-session token, on every request.
            string auth = req.Headers["Authorization"];
            if (string.IsNullOrEmpty(auth))
            {
                Send(ctx, 401, Error("missing_token", "send 'Authorization: Bearer <token>' with the token from Library/UnityIndex/editor.json", null),
                    new Dictionary<string, string> { { "WWW-Authenticate", "Bearer" } });
                return;
            }
            if (!auth.StartsWith("Bearer ", StringComparison.Ordinal) || !TokenEquals(auth.Substring(7).Trim(), Token))
            {
                Send(ctx, 401, Error("invalid_token", "wrong token: read it again from Library/UnityIndex/editor.json (it changes on every domain reload)", null),
                    new Dictionary<string, string> { { "WWW-Authenticate", "Bearer error=\"invalid_token\"" } });
                return;
            }
            if (_stopping)
            {
                Send(ctx, 503, Error("reloading", "the bridge is stopping (domain reload or editor exit); retry shortly", false), null);
                return;
            }
            string path = req.Url.AbsolutePath;
            string method = req.HttpMethod;
            if (path == "/v1/ping" || path == "/v1/tools")
            {
                if (method != "GET") { MethodNotAllowed(ctx, "GET"); return; }
                if (path == "/v1/ping") Ping(ctx);
                else Tools(ctx);
                return;
            }
            if (path == "/v1/call")
            {
                if (method != "POST") { MethodNotAllowed(ctx, "POST"); return; }
                Call(ctx);
                return;
            }
            Send(ctx, 404, Error("not_found", "no such endpoint: " + path + " (use /v1/ping, /v1/tools, /v1/call)", null), null);
        }

        private static void MethodNotAllowed(HttpListenerContext ctx, string allow)
        {
            Send(ctx, 405, Error("method_not_allowed", "use " + allow, null), new Dictionary<string, string> { { "Allow", allow } });
        }

        private void Ping(HttpListenerContext ctx)
        {
            var body = Json.Obj("ok", true, "protocol", Protocol, "pending", _queue.PendingCount, "tools", _registry.Count);
            Func<Dictionary<string, object>> info = Info;
            if (info != null)
            {
                Dictionary<string, object> extra = info();
                if (extra != null)
                    foreach (KeyValuePair<string, object> kv in extra) body[kv.Key] = kv.Value;
            }
            Send(ctx, 200, body, null);
        }

        private void Tools(HttpListenerContext ctx)
        {
            var list = new List<object>();
            foreach (ToolInfo t in _registry.All()) list.Add(t.Describe());
            Send(ctx, 200, Json.Obj("ok", true, "tools", list), null);
        }

        /// <summary>Reads the body, refusing more than MaxBodyBytes; null when refused (answer sent).</summary>
        private string ReadBody(HttpListenerContext ctx)
        {
            HttpListenerRequest req = ctx.Request;
            int max = _options.MaxBodyBytes;
            string tooLarge = "request body larger than " + max + " bytes";
            if (req.ContentLength64 > max)
            {
                Send(ctx, 413, Error("body_too_large", tooLarge, false), new Dictionary<string, string> { { "Connection", "close" } });
                return null;
            }
            var ms = new MemoryStream();
            var buf = new byte[8192];
            Stream input = req.InputStream;
            while (true)
            {
                int n = input.Read(buf, 0, buf.Length);
                if (n <= 0) break;
                ms.Write(buf, 0, n);
                if (ms.Length > max)
                {
                    Send(ctx, 413, Error("body_too_large", tooLarge, false), new Dictionary<string, string> { { "Connection", "close" } });
                    return null;
                }
            }
            try
            {
                return new UTF8Encoding(false, true).GetString(ms.GetBuffer(), 0, (int)ms.Length);
            }
            catch (ArgumentException)
            {
                Send(ctx, 400, Error("bad_json", "request body is not valid UTF-8", false), null);
                return null;
            }
        }

        private void Call(HttpListenerContext ctx)
        {
            var sw = Stopwatch.StartNew();
            string text = ReadBody(ctx);
            if (text == null) return;
            object parsed;
            try
            {
                parsed = Json.Parse(text);
            }
            catch (JsonException e)
            {
                Send(ctx, 400, Error("bad_json", "request body is not valid JSON: " + e.Message, false), null);
                return;
            }
            var body = parsed as Dictionary<string, object>;
            if (body == null)
            {
                Send(ctx, 400, Error("bad_request", "request body must be a JSON object {\"tool\": ..., \"arguments\": {...}}", false), null);
                return;
            }
            object toolObj;
            body.TryGetValue("tool", out toolObj);
            var toolName = toolObj as string;
            if (string.IsNullOrEmpty(toolName))
            {
                Send(ctx, 400, Error("bad_request", "missing \"tool\" (a tool name from /v1/tools)", false), null);
                return;
            }
            foreach (string key in body.Keys)
            {
                if (key != "tool" && key != "arguments" && key != "timeout_ms")
                {
                    Send(ctx, 400, Error("bad_request", "unknown field \"" + key + "\" (accepted: tool, arguments, timeout_ms)", false), null);
                    return;
                }
            }
            object argsObj;
            body.TryGetValue("arguments", out argsObj);
            var args = argsObj as Dictionary<string, object>;
            if (argsObj != null && args == null)
            {
                Send(ctx, 400, Error("bad_request", "\"arguments\" must be a JSON object", false), null);
                return;
            }
            int timeoutMs = _options.DefaultTimeoutMs;
            object tObj;
            if (body.TryGetValue("timeout_ms", out tObj) && tObj != null)
            {
                if (!(tObj is long) || (long)tObj < 1 || (long)tObj > _options.MaxTimeoutMs)
                {
                    Send(ctx, 400, Error("bad_request", "\"timeout_ms\" must be an integer from 1 to " + _options.MaxTimeoutMs, false), null);
                    return;
                }
                timeoutMs = (int)(long)tObj;
            }
            ToolInfo tool = _registry.Find(toolName);
            if (tool == null)
            {
                Send(ctx, 404, Error("unknown_tool", "no tool named '" + toolName + "' (GET /v1/tools lists them)", false), null);
                return;
            }
            object[] values;
            try
            {
                values = tool.Bind(args);
            }
            catch (ArgumentBindingException e)
            {
                Send(ctx, 400, Error("bad_arguments", e.Message, false), null);
                return;
            }
            var item = new WorkItem(tool.Name, delegate { return tool.Method.Invoke(null, values); });
            if (!_queue.TryEnqueue(item))
            {
                Send(ctx, 429, Error("queue_full", _options.MaxPending + " calls already wait for the editor's main thread; retry later", false),
                    new Dictionary<string, string> { { "Retry-After", "1" } });
                return;
            }
            bool started;
            if (!item.Wait(timeoutMs, out started))
            {
                string msg = started
                    ? "tool '" + tool.Name + "' did not finish within " + timeoutMs + " ms; it may still complete in the editor"
                    : "the editor's main thread did not pick the call up within " + timeoutMs + " ms (busy, modal dialog, or throttled); it will not run";
                Send(ctx, 504, Error("timeout", msg, started), null);
                return;
            }
            BridgeError err = item.Error;
            if (err != null)
            {
                Send(ctx, err.Status, Error(err.Code, err.Message, err.Started), null);
                return;
            }
            Dictionary<string, object> ok;
            try
            {
                ok = Json.Obj("ok", true, "result", item.Result, "elapsed_ms", sw.ElapsedMilliseconds);
                Json.Serialize(ok); // fail here, not half-way through the response
            }
            catch (Exception e)
            {
                Send(ctx, 500, Error("internal_error", "tool '" + tool.Name + "' returned a value that cannot be serialized: " + e.Message, true), null);
                return;
            }
            Send(ctx, 200, ok, null);
        }
    }
}
