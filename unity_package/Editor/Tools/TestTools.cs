// The run_editmode_tests tool: runs EditMode tests through the Test Framework's TestRunnerApi and
// answers when the run finishes (a Deferred result; give the call a generous timeout).
using System;
using System.Collections.Generic;
using UnityEditor.TestTools.TestRunner.Api;
using UnityEngine;

namespace UnityIndex.Bridge
{
    public static class TestTools
    {
        private static bool _running;

        [BridgeTool("run_editmode_tests", "Run EditMode tests (all, or filtered) and return counts and failures. Pass a generous timeout_ms: the call answers when the run ends.")]
        public static object RunEditModeTests(
            [ToolParam("Regular expressions matched against full test names (NUnit group names). Default: all.")] string[] filter = null,
            [ToolParam("Test assembly names to run, e.g. ['MyGame.Tests'].")] string[] assemblies = null,
            [ToolParam("NUnit categories to run.")] string[] categories = null,
            [ToolParam("At most this many failures reported in detail.")] int max_failures = 20)
        {
            if (_running) throw new ToolException("busy", "a test run started by the bridge is still going");
            var f = new Filter { testMode = TestMode.EditMode };
            if (filter != null && filter.Length > 0) f.groupNames = filter;
            if (assemblies != null && assemblies.Length > 0) f.assemblyNames = assemblies;
            if (categories != null && categories.Length > 0) f.categoryNames = categories;
            var api = ScriptableObject.CreateInstance<TestRunnerApi>();
            var result = new Deferred();
            var callbacks = new Collector(api, result, Math.Max(0, max_failures));
            api.RegisterCallbacks(callbacks);
            _running = true;
            try
            {
                api.Execute(new ExecutionSettings(f));
            }
            catch (Exception)
            {
                _running = false;
                api.UnregisterCallbacks(callbacks);
                throw;
            }
            return result;
        }

        private sealed class Collector : ICallbacks
        {
            private readonly TestRunnerApi _api;
            private readonly Deferred _result;
            private readonly int _maxFailures;
            private readonly List<object> _failures = new List<object>();

            public Collector(TestRunnerApi api, Deferred result, int maxFailures)
            {
                _api = api;
                _result = result;
                _maxFailures = maxFailures;
            }

            public void RunStarted(ITestAdaptor testsToRun) { }

            public void TestStarted(ITestAdaptor test) { }

            public void TestFinished(ITestResultAdaptor result)
            {
                if (result.HasChildren || result.TestStatus != TestStatus.Failed || _failures.Count >= _maxFailures) return;
                string stack = result.StackTrace ?? "";
                string[] lines = stack.Split('\n');
                _failures.Add(Json.Obj("name", result.FullName, "message", (result.Message ?? "").Trim(),
                    "stack", string.Join("\n", lines, 0, Math.Min(lines.Length, 4)).TrimEnd()));
            }

            public void RunFinished(ITestResultAdaptor result)
            {
                _running = false;
                _api.UnregisterCallbacks(this);
                _result.Complete(Json.Obj(
                    "status", result.TestStatus.ToString().ToLowerInvariant(),
                    "passed", result.PassCount,
                    "failed", result.FailCount,
                    "skipped", result.SkipCount,
                    "inconclusive", result.InconclusiveCount,
                    "duration_s", Math.Round(result.Duration, 3),
                    "failures", _failures));
            }
        }
    }
}
