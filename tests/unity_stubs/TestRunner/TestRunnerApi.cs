// Stubs of the Unity Test Framework's editor API (com.unity.test-framework 1.1.33, assembly
// UnityEditor.TestRunner), only the members unity_package uses.
using System;
using UnityEngine;

namespace UnityEditor.TestTools.TestRunner.Api
{
    [Flags]
    public enum TestMode
    {
        EditMode = 1 << 0,
        PlayMode = 1 << 1,
    }

    public enum TestStatus
    {
        Skipped,
        Passed,
        Failed,
        Inconclusive,
    }

    public interface ITestAdaptor
    {
        string Name { get; }
        string FullName { get; }
    }

    public interface ITestResultAdaptor
    {
        string FullName { get; }
        TestStatus TestStatus { get; }
        string Message { get; }
        string StackTrace { get; }
        bool HasChildren { get; }
        double Duration { get; }
        int PassCount { get; }
        int FailCount { get; }
        int SkipCount { get; }
        int InconclusiveCount { get; }
    }

    public interface ICallbacks
    {
        void RunStarted(ITestAdaptor testsToRun);
        void RunFinished(ITestResultAdaptor result);
        void TestStarted(ITestAdaptor test);
        void TestFinished(ITestResultAdaptor result);
    }

    [Serializable]
    public class Filter
    {
        public TestMode testMode;
        public string[] testNames;
        public string[] groupNames;
        public string[] categoryNames;
        public string[] assemblyNames;
    }

    public class ExecutionSettings
    {
        public ExecutionSettings(params Filter[] filtersToExecute) { }
    }

    public class TestRunnerApi : ScriptableObject
    {
        public string Execute(ExecutionSettings executionSettings) { throw null; }
        public void RegisterCallbacks<T>(T testCallbacks, int priority = 0) where T : ICallbacks { }
        public void UnregisterCallbacks<T>(T testCallbacks) where T : ICallbacks { }
    }
}
