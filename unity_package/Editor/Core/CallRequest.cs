// A parsed and checked POST /v1/call body: the tool, its bound arguments and the time limit.
// Pure (no I/O, no waiting), so the server can run it on whichever thread finished reading.
// No Unity dependency.
using System.Collections.Generic;
using System.Text;

namespace UnityIndex.Bridge
{
    public sealed class CallRequest
    {
        public ToolInfo Tool { get; private set; }
        public object[] Values { get; private set; }
        public int TimeoutMs { get; private set; }

        /// <summary>The request, or null with error set to the answer (never started, safe to retry).</summary>
        public static CallRequest Parse(byte[] bytes, int length, ToolRegistry registry, BridgeServerOptions options, out BridgeError error)
        {
            error = null;
            string text;
            try
            {
                text = new UTF8Encoding(false, true).GetString(bytes, 0, length);
            }
            catch (System.ArgumentException)
            {
                error = Bad(400, "bad_json", "request body is not valid UTF-8");
                return null;
            }
            object parsed;
            try
            {
                parsed = Json.Parse(text);
            }
            catch (JsonException e)
            {
                error = Bad(400, "bad_json", "request body is not valid JSON: " + e.Message);
                return null;
            }
            var body = parsed as Dictionary<string, object>;
            if (body == null)
            {
                error = Bad(400, "bad_request", "request body must be a JSON object {\"tool\": ..., \"arguments\": {...}}");
                return null;
            }
            return FromObject(body, registry, options, out error);
        }

        private static CallRequest FromObject(Dictionary<string, object> body, ToolRegistry registry, BridgeServerOptions options, out BridgeError error)
        {
            error = null;
            object toolObj;
            body.TryGetValue("tool", out toolObj);
            var toolName = toolObj as string;
            if (string.IsNullOrEmpty(toolName))
            {
                error = Bad(400, "bad_request", "missing \"tool\" (a tool name from /v1/tools)");
                return null;
            }
            foreach (string key in body.Keys)
            {
                if (key != "tool" && key != "arguments" && key != "timeout_ms")
                {
                    error = Bad(400, "bad_request", "unknown field \"" + InputEcho.Shown(key) + "\" (accepted: tool, arguments, timeout_ms)");
                    return null;
                }
            }
            object argsObj;
            body.TryGetValue("arguments", out argsObj);
            var args = argsObj as Dictionary<string, object>;
            if (argsObj != null && args == null)
            {
                error = Bad(400, "bad_request", "\"arguments\" must be a JSON object");
                return null;
            }
            int timeoutMs = options.DefaultTimeoutMs;
            object tObj;
            if (body.TryGetValue("timeout_ms", out tObj) && tObj != null)
            {
                if (!(tObj is long) || (long)tObj < 1 || (long)tObj > options.MaxTimeoutMs)
                {
                    error = Bad(400, "bad_request", "\"timeout_ms\" must be an integer from 1 to " + options.MaxTimeoutMs);
                    return null;
                }
                timeoutMs = (int)(long)tObj;
            }
            ToolInfo tool = registry.Find(toolName);
            if (tool == null)
            {
                error = Bad(404, "unknown_tool", "no tool named '" + InputEcho.Shown(toolName) + "' (GET /v1/tools lists them)");
                return null;
            }
            try
            {
                return new CallRequest { Tool = tool, Values = tool.Bind(args), TimeoutMs = timeoutMs };
            }
            catch (ArgumentBindingException e)
            {
                error = Bad(400, "bad_arguments", e.Message);
                return null;
            }
        }

        private static BridgeError Bad(int status, string code, string message)
        {
            return new BridgeError(status, code, message) { Started = false };
        }
    }
}
