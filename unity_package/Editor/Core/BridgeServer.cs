// The bridge's HTTP server: loopback only, token on every request, no browser origins, bounded
// bodies, a bounded queue to the engine thread and a time limit on every call. No request holds
// a thread while it waits for its client or for the engine thread: bodies are read
// asynchronously within BodyTimeoutMs, calls are awaited through a completion callback and a
// timer, and at most MaxConcurrentRequests are handled at once. No Unity dependency: it runs
// under plain Mono in the repository's integration tests.
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
        /// <summary>Time a client has to send a whole request body once its headers arrived (408 after).</summary>
        public int BodyTimeoutMs = 10000;
        /// <summary>Requests handled at once (reading a body, waiting for the main thread); more get 503 busy.</summary>
        public int MaxConcurrentRequests = 256;
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
        /// <summary>Held while a call is queued and while Stop() marks the server stopping: no call is queued after CancelAll.</summary>
        private readonly object _stopLock = new object();
        private volatile string _stopCode = "reloading";
        /// <summary>Requests whose body is being read: answered 503 before the listener closes (else HttpListener answers an empty 200).</summary>
        private readonly HashSet<Exchange> _reading = new HashSet<Exchange>();
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
                _stopCode = "reloading";
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
            lock (_stopLock)
            {
                _stopCode = code;
                _stopping = true;
            }
            _queue.CancelAll(code, message);
            var sw = Stopwatch.StartNew();
            while (Interlocked.CompareExchange(ref _inFlight, 0, 0) > 0 && sw.ElapsedMilliseconds < waitMs) Thread.Sleep(10);
            RefuseBodiesStillReading();
            _running = false;
            try { _listener.Stop(); } catch (Exception) { }
            try { _listener.Close(); } catch (Exception) { }
            if (_acceptThread != null && _acceptThread != Thread.CurrentThread) _acceptThread.Join(1000);
            _acceptThread = null;
            _listener = null;
        }

        /// <summary>Answers 503 (started: false) to every request whose body has not arrived whole.</summary>
        private void RefuseBodiesStillReading()
        {
            List<Exchange> reading;
            lock (_reading) reading = new List<Exchange>(_reading);
            foreach (Exchange ex in reading) AnswerStopping(ex);
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
                var ex = new Exchange(ctx);
                if (Interlocked.Increment(ref _inFlight) > _options.MaxConcurrentRequests)
                {
                    // Over the bound: answer at once, from this thread, without reading anything.
                    Answer(ex, 503, Error("busy", _options.MaxConcurrentRequests + " requests are already being handled; retry shortly", false),
                        new Dictionary<string, string> { { "Retry-After", "1" } });
                    continue;
                }
                ThreadPool.QueueUserWorkItem(Handle, ex);
            }
        }

        /// <summary>One request, answered exactly once (the in-flight count drops with the answer).</summary>
        private sealed class Exchange
        {
            public readonly HttpListenerContext Ctx;
            /// <summary>Set once the request body was read to its end (the connection may then be reused).</summary>
            public bool BodyRead;
            private int _answered;

            public Exchange(HttpListenerContext ctx) { Ctx = ctx; }

            public bool TryClaim() { return Interlocked.Exchange(ref _answered, 1) == 0; }
        }

        /// <summary>Runs work for a request; anything it throws is answered as a 500, never left unanswered.</summary>
        private void Guarded(Exchange ex, Action<Exchange> work)
        {
            try
            {
                work(ex);
            }
            catch (Exception e)
            {
                if (Log != null) Log("bridge: request failed: " + e);
                try { Answer(ex, 500, Error("internal_error", e.GetType().Name + ": " + e.Message, null), null); }
                catch (Exception) { }
            }
        }

        private void Handle(object state)
        {
            Guarded((Exchange)state, Respond);
        }

        private static Dictionary<string, object> Error(string code, string message, bool? started)
        {
            var err = Json.Obj("code", code, "message", message);
            if (started.HasValue) err["started"] = started.Value;
            return Json.Obj("ok", false, "error", err);
        }

        /// <summary>
        /// Sends the answer (once: later answers to the same request are dropped). When the body was
        /// not read to its end the connection is closed after the answer: otherwise the listener
        /// would drain the rest of the body on this thread, at the client's pace.
        /// </summary>
        private void Answer(Exchange ex, int status, Dictionary<string, object> body, Dictionary<string, string> headers)
        {
            if (!ex.TryClaim()) return;
            try
            {
                HttpListenerResponse resp = ex.Ctx.Response;
                byte[] bytes = Utf8.GetBytes(Json.Serialize(body));
                resp.StatusCode = status;
                resp.ContentType = "application/json; charset=utf-8";
                resp.Headers["Cache-Control"] = "no-store";
                resp.Headers["X-Content-Type-Options"] = "nosniff";
                if (headers != null)
                    foreach (KeyValuePair<string, string> h in headers) resp.Headers[h.Key] = h.Value;
                if (!ex.BodyRead && ex.Ctx.Request.HasEntityBody) resp.Headers["Connection"] = "close";
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
            catch (Exception e)
            {
                if (Log != null) Log("bridge: could not answer: " + e.Message);
            }
            finally
            {
                Interlocked.Decrement(ref _inFlight);
            }
        }

        private static bool TokenEquals(string a, string b)
        {
            if (a == null || b == null || a.Length != b.Length) return false;
            int diff = 0;
            for (int i = 0; i < a.Length; i++) diff |= a[i] ^ b[i];
            return diff == 0;
        }

        private void Respond(Exchange ex)
        {
            HttpListenerRequest req = ex.Ctx.Request;
            // 1. Browsers: any Origin header means a web page is talking to us. Refuse, always.
            if (req.Headers["Origin"] != null)
            {
                Answer(ex, 403, Error("origin_forbidden", "requests carrying an Origin header are refused", null), null);
                return;
            }
            // 2. DNS rebinding: only our own loopback address. (HttpListener already answers 400 to
            //    a Host that does not match the 127.0.0.1:PORT prefix; this is defence in depth.)
            string host = req.Headers["Host"] ?? "";
            if (host != "127.0.0.1:" + Port)
            {
                Answer(ex, 403, Error("host_forbidden", "Host must be 127.0.0.1:" + Port, null), null);
                return;
            }
            // 3. The per-session token, on every request.
            string auth = req.Headers["Authorization"];
            if (string.IsNullOrEmpty(auth))
            {
                Answer(ex, 401, Error("missing_token", "send 'Authorization: Bearer <token>' with the token from Library/UnityIndex/editor.json", null),
                    new Dictionary<string, string> { { "WWW-Authenticate", "Bearer" } });
                return;
            }
            if (!auth.StartsWith("Bearer ", StringComparison.Ordinal) || !TokenEquals(auth.Substring(7), Token))
            {
                Answer(ex, 401, Error("invalid_token", "wrong token: read it again from Library/UnityIndex/editor.json (it changes on every domain reload)", null),
                    new Dictionary<string, string> { { "WWW-Authenticate", "Bearer error=\"invalid_token\"" } });
                return;
            }
            if (_stopping)
            {
                AnswerStopping(ex);
                return;
            }
            string path = req.Url.AbsolutePath;
            string method = req.HttpMethod;
            if (path == "/v1/ping" || path == "/v1/tools")
            {
                if (method != "GET") { MethodNotAllowed(ex, "GET"); return; }
                if (path == "/v1/ping") Ping(ex);
                else Tools(ex);
                return;
            }
            if (path == "/v1/call")
            {
                if (method != "POST") { MethodNotAllowed(ex, "POST"); return; }
                Call(ex);
                return;
            }
            Answer(ex, 404, Error("not_found", "no such endpoint: " + InputEcho.Shown(path) + " (use /v1/ping, /v1/tools, /v1/call)", null), null);
        }

        /// <summary>503 with the code Stop() was given: the request did not start and a retry is safe.</summary>
        private void AnswerStopping(Exchange ex)
        {
            Answer(ex, 503, Error(_stopCode, "the bridge is stopping (domain reload or editor exit); retry shortly", false), null);
        }

        private void MethodNotAllowed(Exchange ex, string allow)
        {
            Answer(ex, 405, Error("method_not_allowed", "use " + allow, null), new Dictionary<string, string> { { "Allow", allow } });
        }

        private void Ping(Exchange ex)
        {
            var body = Json.Obj("ok", true, "protocol", Protocol, "pending", _queue.PendingCount, "tools", _registry.Count);
            Func<Dictionary<string, object>> info = Info;
            if (info != null)
            {
                Dictionary<string, object> extra = info();
                if (extra != null)
                    foreach (KeyValuePair<string, object> kv in extra) body[kv.Key] = kv.Value;
            }
            Answer(ex, 200, body, null);
        }

        private void Tools(Exchange ex)
        {
            var list = new List<object>();
            foreach (ToolInfo t in _registry.All()) list.Add(t.Describe());
            Answer(ex, 200, Json.Obj("ok", true, "tools", list), null);
        }

        /// <summary>
        /// Reads the body asynchronously within BodyTimeoutMs (no thread waits for a slow client),
        /// then queues the call for the main thread and answers when it finishes or times out.
        /// </summary>
        private void Call(Exchange ex)
        {
            var sw = Stopwatch.StartNew();
            HttpListenerRequest req = ex.Ctx.Request;
            // Mono's HttpListener cannot tell where a chunked body ends: a chunk's size line read
            // alone reads as 0 bytes, its end (a whole body then waits for the deadline, and one
            // cut short by a closing client could run). Only a Content-Length is trusted.
            if (req.Headers["Transfer-Encoding"] != null)
            {
                Answer(ex, 411, Error("length_required", "send the request body with a Content-Length; chunked request bodies are not accepted", false), null);
                return;
            }
            int max = _options.MaxBodyBytes;
            if (req.ContentLength64 > max)
            {
                Answer(ex, 413, Error("body_too_large", "request body larger than " + max + " bytes", false), null);
                return;
            }
            lock (_reading) _reading.Add(ex);
            BodyReader.Start(req.InputStream, max, _options.BodyTimeoutMs, delegate (BodyOutcome outcome, MemoryStream body)
            {
                lock (_reading) _reading.Remove(ex);
                Guarded(ex, delegate { OnBody(ex, outcome, body, sw); });
            });
        }

        private void OnBody(Exchange ex, BodyOutcome outcome, MemoryStream body, Stopwatch sw)
        {
            switch (outcome)
            {
                case BodyOutcome.TooLarge:
                    Answer(ex, 413, Error("body_too_large", "request body larger than " + _options.MaxBodyBytes + " bytes", false), null);
                    return;
                case BodyOutcome.TimedOut:
                    Answer(ex, 408, Error("body_timeout", "the request body did not arrive within " + _options.BodyTimeoutMs + " ms", false), null);
                    return;
                case BodyOutcome.Failed:
                    Answer(ex, 400, Error("bad_request", "the connection failed while the request body was read", false), null);
                    return;
            }
            // The stream ends early when the client closes its side before Content-Length bytes
            // came: an incomplete request, never run, whatever its first bytes parse as.
            long declared = ex.Ctx.Request.ContentLength64;
            if (declared > body.Length)
            {
                Answer(ex, 400, Error("bad_request", "the request body ended after " + body.Length + " of the " + declared
                    + " bytes its Content-Length announced", false), null);
                return;
            }
            ex.BodyRead = true;
            BridgeError error;
            CallRequest call = CallRequest.Parse(body.GetBuffer(), (int)body.Length, _registry, _options, out error);
            if (call == null)
            {
                Answer(ex, error.Status, Error(error.Code, error.Message, error.Started), null);
                return;
            }
            ToolInfo tool = call.Tool;
            object[] values = call.Values;
            var item = new WorkItem(tool.Name, delegate { return tool.Method.Invoke(null, values); });
            bool stopping, queued;
            lock (_stopLock)
            {
                // A body that finished while Stop() waits for requests in flight: CancelAll already
                // ran, so a call queued now would run in the next domain, unanswered.
                stopping = _stopping;
                queued = !stopping && _queue.TryEnqueue(item);
            }
            if (stopping)
            {
                AnswerStopping(ex);
                return;
            }
            if (!queued)
            {
                Answer(ex, 429, Error("queue_full", _options.MaxPending + " calls already wait for the editor's main thread; retry later", false),
                    new Dictionary<string, string> { { "Retry-After", "1" } });
                return;
            }
            AwaitItem(ex, item, call.TimeoutMs, sw);
        }

        /// <summary>
        /// Answers when the item finishes or timeoutMs passes, whichever comes first, without a
        /// thread waiting in between (a timer and the item's completion callback race for it).
        /// The answer is sent from the pool, never from the main thread that finished the item.
        /// </summary>
        private void AwaitItem(Exchange ex, WorkItem item, int timeoutMs, Stopwatch sw)
        {
            int settled = 0;
            Timer timer = null;
            WaitCallback settle = delegate
            {
                if (Interlocked.Exchange(ref settled, 1) != 0) return;
                Timer t = Volatile.Read(ref timer);
                if (t != null) t.Dispose();
                Guarded(ex, delegate { AnswerItem(ex, item, timeoutMs, sw); });
            };
            item.OnDone(delegate { ThreadPool.QueueUserWorkItem(settle); });
            Volatile.Write(ref timer, new Timer(delegate (object s) { settle(s); }, null, timeoutMs, Timeout.Infinite));
            if (Volatile.Read(ref settled) != 0) timer.Dispose();
        }

        private void AnswerItem(Exchange ex, WorkItem item, int timeoutMs, Stopwatch sw)
        {
            bool started;
            if (!item.Wait(0, out started))
            {
                string msg = started
                    ? "tool '" + item.Label + "' did not finish within " + timeoutMs + " ms; it may still complete in the editor"
                    : "the editor's main thread did not pick the call up within " + timeoutMs + " ms (busy, modal dialog, or throttled); it will not run";
                Answer(ex, 504, Error("timeout", msg, started), null);
                return;
            }
            BridgeError err = item.Error;
            if (err != null)
            {
                Answer(ex, err.Status, Error(err.Code, err.Message, err.Started), null);
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
                Answer(ex, 500, Error("internal_error", "tool '" + item.Label + "' returned a value that cannot be serialized: " + e.Message, true), null);
                return;
            }
            Answer(ex, 200, ok, null);
        }
    }
}
