// Built-in tools for scenes and GameObjects. Every change is recorded with Undo.
using System;
using System.Collections.Generic;
using UnityEditor;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace UnityIndex.Bridge
{
    public static class SceneTools
    {
        [BridgeTool("scene_hierarchy", "The active scene's GameObjects, depth-first, paged: id, name, path, components, child count.")]
        public static object SceneHierarchy(
            [ToolParam("Skip this many objects (from next_offset of a previous page).")] int offset = 0,
            [ToolParam("At most this many objects (1-500).")] int limit = 100,
            [ToolParam("Deepest level listed (0 = roots only; -1 = all).")] int max_depth = -1,
            [ToolParam("List only below this GameObject (id or path).")] string root = null,
            [ToolParam("Include component names.")] bool components = true)
        {
            limit = Math.Max(1, Math.Min(500, limit));
            offset = Math.Max(0, offset);
            Scene scene = SceneManager.GetActiveScene();
            var stack = new List<KeyValuePair<Transform, int>>();
            if (root != null)
            {
                stack.Add(new KeyValuePair<Transform, int>(ObjectRefs.FindGameObject(root).transform, 0));
            }
            else
            {
                GameObject[] roots = scene.GetRootGameObjects();
                for (int i = roots.Length - 1; i >= 0; i--) stack.Add(new KeyValuePair<Transform, int>(roots[i].transform, 0));
            }
            var page = new List<object>();
            int index = 0;
            bool more = false;
            while (stack.Count > 0)
            {
                KeyValuePair<Transform, int> top = stack[stack.Count - 1];
                stack.RemoveAt(stack.Count - 1);
                if (index >= offset)
                {
                    if (page.Count == limit) { more = true; break; }
                    Dictionary<string, object> d = ObjectRefs.Describe(top.Key.gameObject, components);
                    d["depth"] = top.Value;
                    page.Add(d);
                }
                index++;
                if (max_depth >= 0 && top.Value >= max_depth) continue;
                for (int c = top.Key.childCount - 1; c >= 0; c--)
                    stack.Add(new KeyValuePair<Transform, int>(top.Key.GetChild(c), top.Value + 1));
            }
            return Json.Obj(
                "scene", Json.Obj("name", scene.name, "path", scene.path),
                "offset", offset,
                "objects", page,
                "next_offset", more ? (object)(offset + page.Count) : null);
        }

        [BridgeTool("find_gameobjects", "Find GameObjects in the loaded scenes by name (substring, case-insensitive), tag and/or component type.")]
        public static object FindGameObjects(
            [ToolParam("Part of the name.")] string name = null,
            [ToolParam("Exact tag.")] string tag = null,
            [ToolParam("Component type name, e.g. 'Rigidbody' or 'PlayerController'.")] string component = null,
            [ToolParam("Include inactive objects.")] bool include_inactive = true,
            [ToolParam("At most this many results (1-500).")] int limit = 50)
        {
            if (name == null && tag == null && component == null)
                throw new ToolException("bad_arguments", "give at least one of name, tag, component");
            limit = Math.Max(1, Math.Min(500, limit));
            var found = new List<object>();
            int matched = 0;
            var stack = new List<Transform>();
            for (int s = 0; s < SceneManager.sceneCount; s++)
            {
                Scene scene = SceneManager.GetSceneAt(s);
                if (!scene.isLoaded) continue;
                foreach (GameObject r in scene.GetRootGameObjects()) stack.Add(r.transform);
            }
            while (stack.Count > 0)
            {
                Transform t = stack[stack.Count - 1];
                stack.RemoveAt(stack.Count - 1);
                GameObject go = t.gameObject;
                if (!include_inactive && !go.activeInHierarchy) continue;
                for (int c = t.childCount - 1; c >= 0; c--) stack.Add(t.GetChild(c));
                if (name != null && go.name.IndexOf(name, StringComparison.OrdinalIgnoreCase) < 0) continue;
                if (tag != null && go.tag != tag) continue;
                if (component != null && !HasComponent(go, component)) continue;
                matched++;
                if (found.Count < limit) found.Add(ObjectRefs.Describe(go, true));
            }
            return Json.Obj("objects", found, "matched", matched, "truncated", matched > found.Count);
        }

        private static bool HasComponent(GameObject go, string typeName)
        {
            foreach (Component c in go.GetComponents(typeof(Component)))
            {
                if (c == null) continue;
                Type t = c.GetType();
                if (string.Equals(t.Name, typeName, StringComparison.OrdinalIgnoreCase) || t.FullName == typeName) return true;
            }
            return false;
        }

        [BridgeTool("create_gameobject", "Create a GameObject (optionally under a parent, with components). Undoable.")]
        public static object CreateGameObject(
            [ToolParam("Name of the new object.")] string name,
            [ToolParam("Parent GameObject (id or path); default: scene root.")] string parent = null,
            [ToolParam("Component types to add, e.g. ['Rigidbody', 'BoxCollider'].")] string[] components = null)
        {
            Transform parentT = parent == null ? null : ObjectRefs.FindGameObject(parent).transform;
            var types = new List<Type>();
            if (components != null)
                foreach (string c in components) types.Add(ObjectRefs.FindComponentType(c));
            var go = new GameObject(name);
            Undo.RegisterCreatedObjectUndo(go, "Create " + name);
            if (parentT != null) Undo.SetTransformParent(go.transform, parentT, "Create " + name);
            foreach (Type t in types) Undo.AddComponent(go, t);
            return ObjectRefs.Describe(go, true);
        }

        [BridgeTool("rename_gameobject", "Rename a GameObject. Undoable.")]
        public static object RenameGameObject([ToolParam("GameObject (id or path).")] string target, [ToolParam("New name.")] string new_name)
        {
            GameObject go = ObjectRefs.FindGameObject(target);
            Undo.RecordObject(go, "Rename " + go.name);
            go.name = new_name;
            return ObjectRefs.Describe(go, false);
        }

        [BridgeTool("reparent_gameobject", "Move a GameObject under another (or to the scene root), keeping its world position. Undoable.")]
        public static object ReparentGameObject(
            [ToolParam("GameObject to move (id or path).")] string target,
            [ToolParam("New parent (id or path); omit for the scene root.")] string parent = null)
        {
            GameObject go = ObjectRefs.FindGameObject(target);
            Transform parentT = parent == null ? null : ObjectRefs.FindGameObject(parent).transform;
            for (Transform p = parentT; p != null; p = p.parent)
                if (p == go.transform) throw new ToolException("bad_parent", "cannot parent '" + go.name + "' under itself or its own child");
            Undo.SetTransformParent(go.transform, parentT, "Reparent " + go.name);
            return ObjectRefs.Describe(go, false);
        }

        [BridgeTool("delete_gameobject", "Delete a GameObject and its children. Undoable.")]
        public static object DeleteGameObject([ToolParam("GameObject (id or path).")] string target)
        {
            GameObject go = ObjectRefs.FindGameObject(target);
            string path = ObjectRefs.PathOf(go.transform);
            Undo.DestroyObjectImmediate(go);
            return Json.Obj("deleted", path);
        }

        [BridgeTool("instantiate_prefab", "Instantiate a prefab asset into the active scene (linked to the prefab). Undoable.")]
        public static object InstantiatePrefab(
            [ToolParam("Prefab asset path, e.g. 'Assets/Prefabs/Enemy.prefab'.")] string asset_path,
            [ToolParam("Parent GameObject (id or path); default: scene root.")] string parent = null,
            [ToolParam("Name for the instance; default: the prefab's.")] string name = null)
        {
            var prefab = AssetDatabase.LoadAssetAtPath(asset_path, typeof(GameObject)) as GameObject;
            if (prefab == null) throw new ToolException("not_found", "no prefab at '" + InputEcho.Shown(asset_path) + "'");
            Transform parentT = parent == null ? null : ObjectRefs.FindGameObject(parent).transform;
            var go = PrefabUtility.InstantiatePrefab(prefab, parentT) as GameObject;
            if (go == null) throw new ToolException("instantiate_failed", "Unity could not instantiate '" + InputEcho.Shown(asset_path) + "'");
            Undo.RegisterCreatedObjectUndo(go, "Instantiate " + prefab.name);
            if (!string.IsNullOrEmpty(name)) go.name = name;
            return ObjectRefs.Describe(go, true);
        }

        [BridgeTool("select_objects", "Set the editor selection: GameObjects (id or path) or assets ('Assets/...'). An empty list clears it.")]
        public static object SelectObjects([ToolParam("Objects to select.")] string[] targets)
        {
            var objects = new List<UnityEngine.Object>();
            foreach (string t in targets) objects.Add(ObjectRefs.FindAnyObject(t));
            Selection.objects = objects.ToArray();
            return Json.Obj("selected", objects.Count);
        }
    }
}
