// A stand-in for the Unity editor, for the integration tests: it runs the package's
// Unity-independent core (HTTP server, registry, queue, heartbeat, journal) under plain Mono.
// Its main thread plays Unity's main thread: it drains the queue every few milliseconds, the way
// EditorApplication.update does. Commands on stdin drive it; each answers "OK ..." on stdout:
//   pause | resume            stop / restart draining the queue (a busy or blocked main thread)
//   reload MS                 a domain reload: "OK stopping", stop the server, state "reloading",
//                             block MS ms, restart on a new port with a new token, state "ready"
//   journal_start REASON [PREV_SESSION PREV_SEQ]
//   journal imported|deleted PATH | journal moved PATH FROM
//   owner_only PLATFORM file|dir PATH   OwnerOnly.Apply with the method for PlatformID PLATFORM:
//                             "OK owner_only <method> <ok> <detail>"
//   acl_dacl OWNER_SDDL file|dir  the DACL the Windows branch writes, built by this runtime's
//                             FileSecurity/DirectorySecurity: "OK acl_dacl <sddl> <as read back>"
//   quit
using System;
using System.Collections.Generic;
using System.Threading;
using UnityIndex.Bridge;

public static class HostTools
{
    public static int MainThreadId;

    [BridgeTool("echo", "Returns its text, repeated.")]
    public static object Echo([ToolParam("Text to return.")] string text, [ToolParam("How many times.")] int times = 1)
    {
        var parts = new List<object>();
        for (int i = 0; i < times; i++) parts.Add(text);
        return Json.Obj("text", text, "times", times, "parts", parts);
    }

    [BridgeTool("add", "Adds two integers.")]
    public static long Add([ToolParam("First.")] long a, [ToolParam("Second.")] long b)
    {
        return a + b;
    }

    [BridgeTool("where", "Reports whether it ran on the main (pump) thread.")]
    public static object Where()
    {
        return Json.Obj("main_thread", Thread.CurrentThread.ManagedThreadId == MainThreadId);
    }

    public static int Counter;

    [BridgeTool("counter", "Increments a counter and returns it (proves whether a call ran).")]
    public static int Count()
    {
        return ++Counter;
    }

    [BridgeTool("sleep", "Blocks the main thread.")]
    public static object Sleep([ToolParam("Milliseconds.")] int ms)
    {
        Thread.Sleep(ms);
        return Json.Obj("slept_ms", ms);
    }

    [BridgeTool("later", "Completes from another thread after a delay (a Deferred result).")]
    public static object Later([ToolParam("Milliseconds.")] int ms, [ToolParam("Value to return.")] string value = "done")
    {
        var d = new Deferred();
        new Thread(delegate () { Thread.Sleep(ms); d.Complete(Json.Obj("value", value)); }) { IsBackground = true }.Start();
        return d;
    }

    [BridgeTool("fail", "Fails with a ToolException.")]
    public static object Fail([ToolParam("Error code.")] string code, [ToolParam("Message.")] string message)
    {
        throw new ToolException(code, message);
    }

    [BridgeTool("crash", "Throws an unexpected exception.")]
    public static object Crash()
    {
        throw new InvalidOperationException("boom");
    }

    public enum Mode { Fast, Careful }

    [BridgeTool("kinds", "Echoes typed arguments.")]
    public static object Kinds(
        [ToolParam("A mode.")] Mode mode,
        [ToolParam("Names.")] string[] names,
        [ToolParam("A ratio.")] double ratio = 0.5,
        [ToolParam("A flag.")] bool flag = false,
        [ToolParam("Anything.")] Dictionary<string, object> extra = null)
    {
        return Json.Obj("mode", mode, "names", names, "ratio", ratio, "flag", flag, "extra", extra);
    }

    // Refused by the registry (recorded as warnings): a bad name, and a duplicate name.
    [BridgeTool("Bad-Name", "Not a valid tool name.")]
    public static object BadName() { return null; }

    [BridgeTool("echo", "A duplicate of echo.")]
    public static object EchoAgain() { return null; }
}

public static class Program
{
    private static readonly Queue<string> Commands = new Queue<string>();
    private static readonly object OutLock = new object();

    private static void Say(string line)
    {
        lock (OutLock)
        {
            Console.Out.WriteLine(line);
            Console.Out.Flush();
        }
    }

    private static int IntArg(string[] args, string name, int dflt)
    {
        int i = Array.IndexOf(args, name);
        return i >= 0 && i + 1 < args.Length ? int.Parse(args[i + 1]) : dflt;
    }

    public static int Main(string[] args)
    {
        int pi = Array.IndexOf(args, "--project");
        if (pi < 0 || pi + 1 >= args.Length) { Console.Error.WriteLine("usage: TestHost.exe --project DIR [--max-pending N] [--max-body N] [--timeout-ms N] [--body-timeout-ms N] [--max-concurrent N]"); return 2; }
        string project = args[pi + 1];
        HostTools.MainThreadId = Thread.CurrentThread.ManagedThreadId;

        var registry = new ToolRegistry();
        registry.RegisterAssembly(typeof(HostTools).Assembly);
        foreach (string w in registry.Warnings) Say("WARN " + w);

        var options = new BridgeServerOptions
        {
            MaxPending = IntArg(args, "--max-pending", 32),
            MaxBodyBytes = IntArg(args, "--max-body", 1024 * 1024),
            DefaultTimeoutMs = IntArg(args, "--timeout-ms", 30000),
            BodyTimeoutMs = IntArg(args, "--body-timeout-ms", 10000),
            MaxConcurrentRequests = IntArg(args, "--max-concurrent", 256),
        };
        var queue = new MainThreadQueue(options.MaxPending);
        var heartbeat = new Heartbeat(project, "0.0.0-testhost");
        heartbeat.Log = delegate (string msg) { Say("WARN " + msg); };
        var server = new BridgeServer(registry, queue, options);
        bool paused = false;
        server.Info = delegate { return Json.Obj("state", heartbeat.State, "paused_pump", paused); };
        server.Start();
        heartbeat.Set(server.Port, server.Token, EditorStates.Ready);
        heartbeat.StartTimer();
        var journal = new JournalWriter(project);
        Say("READY " + server.Port);

        var reader = new Thread(delegate ()
        {
            string line;
            while ((line = Console.In.ReadLine()) != null)
                lock (Commands) Commands.Enqueue(line.Trim());
            lock (Commands) Commands.Enqueue("quit");
        }) { IsBackground = true };
        reader.Start();

        while (true)
        {
            string cmd = null;
            lock (Commands) if (Commands.Count > 0) cmd = Commands.Dequeue();
            if (cmd != null)
            {
                string[] parts = cmd.Split(' ');
                switch (parts[0])
                {
                    case "pause": paused = true; Say("OK pause"); break;
                    case "resume": paused = false; Say("OK resume"); break;
                    case "reload":
                    {
                        int oldPort = server.Port;
                        string oldToken = server.Token;
                        Say("OK stopping " + oldPort);
                        server.Stop("reloading", "the editor is reloading scripts; retry shortly");
                        heartbeat.StopTimer();
                        heartbeat.SetState(EditorStates.Reloading);
                        Say("OK reloading " + oldPort);
                        Thread.Sleep(int.Parse(parts[1]));
                        server = new BridgeServer(registry, queue, options);
                        server.Info = delegate { return Json.Obj("state", heartbeat.State, "paused_pump", paused); };
                        for (int i = 0; i < 20; i++)
                        {
                            server.Start();
                            if (server.Port != oldPort && server.Token != oldToken) break;
                            server.Stop();
                        }
                        heartbeat.Set(server.Port, server.Token, EditorStates.Ready);
                        heartbeat.StartTimer();
                        Say("OK reloaded " + server.Port);
                        break;
                    }
                    case "journal_start":
                        journal = new JournalWriter(project);
                        journal.Start(parts[1], parts.Length > 2 ? parts[2] : null, parts.Length > 3 ? long.Parse(parts[3]) : 0);
                        Say("OK journal_start " + journal.Session + " " + journal.Seq);
                        break;
                    case "journal":
                        if (parts[1] == "imported") journal.Append(new[] { parts[2] }, null, null, null);
                        else if (parts[1] == "deleted") journal.Append(null, new[] { parts[2] }, null, null);
                        else journal.Append(null, null, new[] { parts[2] }, new[] { parts[3] });
                        Say("OK journal " + journal.Seq);
                        break;
                    case "owner_only":
                    {
                        var platform = (PlatformID)Enum.Parse(typeof(PlatformID), parts[1]);
                        string target = string.Join(" ", parts, 3, parts.Length - 3);
                        OwnerOnlyResult r = OwnerOnly.Apply(target, parts[2] == "dir", platform);
                        Say("OK owner_only " + r.Method + " " + r.Ok + " " + r.Detail);
                        break;
                    }
                    case "acl_dacl":
                    {
                        try
                        {
                            string dacl = OwnerOnly.OwnerOnlyDacl(parts[1], parts[2] == "dir");
                            Say("OK acl_dacl " + dacl + " " + WindowsAcl.DaclOf(WindowsAcl.Describe(dacl, parts[2] == "dir")));
                        }
                        catch (Exception e)
                        {
                            Say("OK acl_dacl error " + e.GetType().Name + ": " + e.Message);
                        }
                        break;
                    }
                    case "quit":
                        server.Stop("shutting_down", "the editor is closing");
                        heartbeat.Delete();
                        Say("OK quit");
                        return 0;
                    default:
                        Say("ERR unknown command " + cmd);
                        break;
                }
            }
            if (!paused)
            {
                heartbeat.MainThreadTick();
                queue.Pump(50);
            }
            Thread.Sleep(5);
        }
    }
}
