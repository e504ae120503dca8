// EditMode tests of the bridge's Unity-independent core, run inside Unity's Test Runner.
using System;
using System.Collections.Generic;
using System.IO;
using NUnit.Framework;
using UnityIndex.Bridge;

namespace UnityIndex.Bridge.Tests
{
    public static class SampleTools
    {
        [BridgeTool("sample_add", "Adds.")]
        public static long Add([ToolParam("First.")] long a, [ToolParam("Second.")] long b = 2) { return a + b; }
    }

    [TestFixture]
    public class BridgeCoreTests
    {
        private string _dir;

        [SetUp]
        public void SetUp()
        {
            _dir = Path.Combine(Path.GetTempPath(), "unityindex-tests-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(_dir);
        }

        [TearDown]
        public void TearDown()
        {
            try { Directory.Delete(_dir, true); } catch (Exception) { }
        }

        [Test]
        public void Json_RoundTrips()
        {
            string text = "{\"a\":[1,2.5,\"x\\n\\u00e9\",true,null],\"b\":{}}";
            object parsed = Json.Parse(text);
            Assert.AreEqual(text.Replace("\\u00e9", "\u00e9"), Json.Serialize(parsed));
            var d = (Dictionary<string, object>)parsed;
            Assert.AreEqual(1L, ((List<object>)d["a"])[0]);
        }

        [Test]
        public void Json_RejectsBadInput()
        {
            Assert.Throws<JsonException>(delegate { Json.Parse("{\"a\":1,}"); });
            Assert.Throws<JsonException>(delegate { Json.Parse("[1] x"); });
            Assert.Throws<JsonException>(delegate { Json.Parse("{\"a\":1,\"a\":2}"); });
        }

        [Test]
        public void Registry_BuildsSchemaAndBindsArguments()
        {
            var registry = new ToolRegistry();
            Assert.IsTrue(registry.Register(typeof(SampleTools).GetMethod("Add")));
            ToolInfo tool = registry.Find("sample_add");
            Assert.AreEqual("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"integer\",\"description\":\"First.\"},"
                + "\"b\":{\"type\":\"integer\",\"description\":\"Second.\",\"default\":2}},\"required\":[\"a\"],\"additionalProperties\":false}",
                Json.Serialize(tool.InputSchema));
            object[] values = tool.Bind(Json.Obj("a", 40L));
            Assert.AreEqual(42L, tool.Method.Invoke(null, values));
            Assert.Throws<ArgumentBindingException>(delegate { tool.Bind(Json.Obj("a", "x")); });
            Assert.Throws<ArgumentBindingException>(delegate { tool.Bind(Json.Obj("c", 1L)); });
        }

        [Test]
        public void Registry_FindsEveryBuiltInTool()
        {
            var registry = new ToolRegistry();
            registry.RegisterAssembly(typeof(UnityIndexBridge).Assembly);
            var names = new List<string>();
            foreach (ToolInfo t in registry.All()) names.Add(t.Name);
            names.Sort(StringComparer.Ordinal);
            CollectionAssert.AreEqual(new[]
            {
                "console_logs", "create_gameobject", "delete_gameobject", "editor_state", "execute_menu_item",
                "find_gameobjects", "get_component", "instantiate_prefab", "play_mode", "refresh_assets",
                "rename_gameobject", "reparent_gameobject", "run_editmode_tests", "scene_hierarchy",
                "select_objects", "set_component_property",
            }, names);
            Assert.AreEqual(0, registry.Warnings.Count);
        }

        [Test]
        public void Queue_RunsOnPumpAndHonoursCapacity()
        {
            var queue = new MainThreadQueue(1);
            var item = new WorkItem("x", delegate { return 7; });
            Assert.IsTrue(queue.TryEnqueue(item));
            Assert.IsFalse(queue.TryEnqueue(new WorkItem("y", delegate { return 8; })));
            Assert.AreEqual(1, queue.Pump(50));
            bool started;
            Assert.IsTrue(item.Wait(0, out started));
            Assert.AreEqual(7, item.Result);
        }

        [Test]
        public void Journal_WritesNumberedLines()
        {
            var journal = new JournalWriter(_dir);
            journal.Start("editor_start", null, 0);
            journal.Append(new[] { "Assets/A.cs" }, new[] { "Assets/B.cs" }, new[] { "Assets/D.cs" }, new[] { "Assets/C.cs" });
            string[] lines = File.ReadAllLines(journal.FilePath);
            Assert.AreEqual(4, lines.Length);
            var moved = (Dictionary<string, object>)Json.Parse(lines[3]);
            Assert.AreEqual("moved", moved["op"]);
            Assert.AreEqual(4L, moved["seq"]);
            Assert.AreEqual("Assets/C.cs", moved["from"]);
            Assert.AreEqual(journal.Session, moved["session"]);
        }

        [Test]
        public void Heartbeat_IsWrittenAtomically()
        {
            var hb = new Heartbeat(_dir, "test");
            hb.Set(1234, "tok", EditorStates.Ready);
            var d = (Dictionary<string, object>)Json.Parse(File.ReadAllText(hb.FilePath));
            Assert.AreEqual(1L, d["protocol"]);
            Assert.AreEqual(1234L, d["port"]);
            Assert.AreEqual("tok", d["token"]);
            Assert.AreEqual("ready", d["state"]);
            Assert.AreEqual(0, Directory.GetFiles(Path.GetDirectoryName(hb.FilePath), "*.tmp", SearchOption.AllDirectories).Length);
        }

        [Test]
        public void OwnerOnly_SelectsByPlatform()
        {
            Assert.AreEqual(OwnerOnlyMethod.WindowsAcl, OwnerOnly.Select(PlatformID.Win32NT));
            Assert.AreEqual(OwnerOnlyMethod.PosixChmod, OwnerOnly.Select(PlatformID.Unix));
            Assert.AreEqual(OwnerOnlyMethod.PosixChmod, OwnerOnly.Select(PlatformID.MacOSX));
            Assert.AreEqual(OwnerOnlyMethod.None, OwnerOnly.Select(PlatformID.WinCE));
            Assert.AreEqual("D:P(A;OICI;FA;;;BA)", WindowsAcl.DaclOf(WindowsAcl.Describe(OwnerOnly.OwnerOnlyDacl("O:BA", true), true)));
        }

        /// <summary>The real branch of this editor's platform (Windows: the ACL; macOS, Linux: chmod).</summary>
        [Test]
        public void OwnerOnly_WorksOnThisPlatform()
        {
            string file = Path.Combine(_dir, "secret.json");
            File.WriteAllText(file, "{}");
            OwnerOnlyResult r = OwnerOnly.Apply(file, false);
            Assert.IsTrue(r.Ok, r.Method + ": " + r.Detail);
            r = OwnerOnly.Apply(_dir, true);
            Assert.IsTrue(r.Ok, r.Method + ": " + r.Detail);
            Assert.AreEqual("{}", File.ReadAllText(file)); // the owner still reads it
        }

        [Test]
        public void MenuDenyList_RefusesQuitAndPreferences()
        {
            Assert.IsTrue(EditorTools.IsMenuItemDenied("File/Quit"));
            Assert.IsTrue(EditorTools.IsMenuItemDenied("file/exit"));
            Assert.IsTrue(EditorTools.IsMenuItemDenied("Edit/Preferences..."));
            Assert.IsTrue(EditorTools.IsMenuItemDenied("File/Build And Run"));
            Assert.IsFalse(EditorTools.IsMenuItemDenied("GameObject/Create Empty"));
        }
    }
}
