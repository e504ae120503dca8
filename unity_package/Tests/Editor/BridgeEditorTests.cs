// EditMode tests of the built-in tools against the real editor (scene objects, Undo, the server).
using System.Collections.Generic;
using System.IO;
using NUnit.Framework;
using UnityEditor;
using UnityEngine;
using UnityIndex.Bridge;

namespace UnityIndex.Bridge.Tests
{
    [TestFixture]
    public class BridgeEditorTests
    {
        private const string RootName = "UnityIndexTestRoot";

        [TearDown]
        public void TearDown()
        {
            foreach (string name in new[] { RootName, "UnityIndexTestChild", "UnityIndexRenamed" })
            {
                try { Object.DestroyImmediate(ObjectRefs.FindGameObject(name)); } catch (ToolException) { }
            }
        }

        [Test]
        public void CreateRenameReparentDelete_WithUndo()
        {
            var root = (Dictionary<string, object>)SceneTools.CreateGameObject(RootName, null, new[] { "BoxCollider" });
            CollectionAssert.AreEqual(new object[] { "Transform", "BoxCollider" }, (List<object>)root["components"]);
            SceneTools.CreateGameObject("UnityIndexTestChild", null, null);
            var moved = (Dictionary<string, object>)SceneTools.ReparentGameObject("UnityIndexTestChild", RootName);
            Assert.AreEqual(RootName + "/UnityIndexTestChild", moved["path"]);
            SceneTools.RenameGameObject(RootName + "/UnityIndexTestChild", "UnityIndexRenamed");
            Assert.IsNotNull(ObjectRefs.FindGameObject(RootName + "/UnityIndexRenamed"));
            SceneTools.DeleteGameObject(RootName + "/UnityIndexRenamed");
            Assert.Throws<ToolException>(delegate { ObjectRefs.FindGameObject(RootName + "/UnityIndexRenamed"); });
            Undo.PerformUndo();
            Assert.IsNotNull(ObjectRefs.FindGameObject(RootName + "/UnityIndexRenamed"));
        }

        [Test]
        public void SetAndGetComponentProperty()
        {
            SceneTools.CreateGameObject(RootName, null, null);
            var set = (Dictionary<string, object>)ComponentTools.SetComponentProperty(RootName, "Transform", "m_LocalPosition",
                new List<object> { 1L, 2.5, -3L });
            CollectionAssert.AreEqual(new object[] { 1f, 2.5f, -3f }, (List<object>)set["value"]);
            var got = (Dictionary<string, object>)ComponentTools.GetComponent(RootName, "Transform", 200);
            bool found = false;
            foreach (Dictionary<string, object> p in (List<object>)got["properties"])
                if ((string)p["path"] == "m_LocalPosition") found = true;
            Assert.IsTrue(found);
            Assert.Throws<ToolException>(delegate { ComponentTools.SetComponentProperty(RootName, "Transform", "m_Nope", 1L); });
        }

        [Test]
        public void BridgeRunsAndPublishesHeartbeat()
        {
            if (Application.isBatchMode) Assert.Ignore("the bridge is off in batch mode (set " + UnityIndexBridge.BatchModeVariable + "=1)");
            Assert.IsTrue(UnityIndexBridge.IsRunning);
            string path = Path.Combine(Path.Combine(Path.Combine(UnityIndexBridge.ProjectPath, "Library"), "UnityIndex"), "editor.json");
            var hb = (Dictionary<string, object>)Json.Parse(File.ReadAllText(path));
            Assert.AreEqual((long)UnityIndexBridge.Port, hb["port"]);
        }
    }
}
