// How tools name objects: an instance id ("12345" or 12345 as a string), or a hierarchy path in a
// loaded scene ("Level/Enemies/Goblin", a leading "/" allowed), or for assets an "Assets/..." path.
using System;
using System.Collections.Generic;
using System.Globalization;
using UnityEditor;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace UnityIndex.Bridge
{
    public static class ObjectRefs
    {
        public static GameObject FindGameObject(string target)
        {
            if (string.IsNullOrEmpty(target)) throw new ToolException("bad_target", "no GameObject named: give an instance id or a hierarchy path");
            int id;
            if (int.TryParse(target, NumberStyles.Integer, CultureInfo.InvariantCulture, out id))
            {
                UnityEngine.Object o = EditorUtility.InstanceIDToObject(id);
                var go = o as GameObject;
                if (go != null) return go;
                var c = o as Component;
                if (c != null) return c.gameObject;
                throw new ToolException("not_found", "no GameObject with instance id " + id);
            }
            string path = target.TrimStart('/');
            int slash = path.IndexOf('/');
            string rootName = slash < 0 ? path : path.Substring(0, slash);
            string rest = slash < 0 ? null : path.Substring(slash + 1);
            for (int s = 0; s < SceneManager.sceneCount; s++)
            {
                Scene scene = SceneManager.GetSceneAt(s);
                if (!scene.isLoaded) continue;
                foreach (GameObject root in scene.GetRootGameObjects())
                {
                    if (root.name != rootName) continue;
                    if (rest == null) return root;
                    Transform t = root.transform.Find(rest);
                    if (t != null) return t.gameObject;
                }
            }
            throw new ToolException("not_found", "no GameObject at path '" + InputEcho.Shown(target) + "' in the loaded scenes (paths are Root/Child/..., or pass an instance id)");
        }

        public static string PathOf(Transform t)
        {
            var parts = new List<string>();
            while (t != null)
            {
                parts.Add(t.name);
                t = t.parent;
            }
            parts.Reverse();
            return string.Join("/", parts.ToArray());
        }

        /// <summary>A compact description of a GameObject.</summary>
        public static Dictionary<string, object> Describe(GameObject go, bool withComponents)
        {
            var d = Json.Obj("id", go.GetInstanceID(), "name", go.name, "path", PathOf(go.transform));
            if (!go.activeSelf) d["active"] = false;
            if (go.tag != "Untagged") d["tag"] = go.tag;
            if (withComponents) d["components"] = ComponentNames(go);
            int children = go.transform.childCount;
            if (children > 0) d["children"] = children;
            return d;
        }

        public static List<object> ComponentNames(GameObject go)
        {
            var names = new List<object>();
            foreach (Component c in go.GetComponents(typeof(Component)))
            {
                // A missing script shows as a null component.
                names.Add(c == null ? "<missing script>" : c.GetType().Name);
            }
            return names;
        }

        /// <summary>The component of a type name ("Rigidbody", "UnityEngine.Rigidbody"); "Name#2" picks the third.</summary>
        public static Component FindComponent(GameObject go, string typeName)
        {
            int index = 0;
            int hash = typeName.LastIndexOf('#');
            if (hash > 0)
            {
                if (!int.TryParse(typeName.Substring(hash + 1), NumberStyles.Integer, CultureInfo.InvariantCulture, out index) || index < 0)
                    throw new ToolException("bad_component", "bad component index in '" + InputEcho.Shown(typeName) + "'");
                typeName = typeName.Substring(0, hash);
            }
            int seen = 0;
            foreach (Component c in go.GetComponents(typeof(Component)))
            {
                if (c == null) continue;
                Type t = c.GetType();
                if (!string.Equals(t.Name, typeName, StringComparison.OrdinalIgnoreCase) && t.FullName != typeName) continue;
                if (seen++ == index) return c;
            }
            throw new ToolException("not_found", "'" + go.name + "' has no component '" + InputEcho.Shown(typeName) + "' (it has: "
                + string.Join(", ", ComponentNames(go).ConvertAll(delegate (object o) { return (string)o; }).ToArray()) + ")");
        }

        /// <summary>A Component type by short or full name, from any loaded assembly.</summary>
        public static Type FindComponentType(string typeName)
        {
            Type found = null;
            foreach (Type t in TypeCache.GetTypesDerivedFrom<Component>())
            {
                if (t.FullName == typeName) return t;
                if (t.Name == typeName && found == null) found = t;
            }
            if (found == null) throw new ToolException("not_found", "no Component type named '" + InputEcho.Shown(typeName) + "'");
            return found;
        }

        public static UnityEngine.Object FindAnyObject(string target)
        {
            if (target.StartsWith("Assets/", StringComparison.Ordinal) || target.StartsWith("Packages/", StringComparison.Ordinal))
            {
                UnityEngine.Object asset = AssetDatabase.LoadAssetAtPath(target, typeof(UnityEngine.Object));
                if (asset == null) throw new ToolException("not_found", "no asset at '" + InputEcho.Shown(target) + "'");
                return asset;
            }
            int id;
            if (int.TryParse(target, NumberStyles.Integer, CultureInfo.InvariantCulture, out id))
            {
                UnityEngine.Object o = EditorUtility.InstanceIDToObject(id);
                if (o == null) throw new ToolException("not_found", "no object with instance id " + id);
                return o;
            }
            return FindGameObject(target);
        }
    }
}
