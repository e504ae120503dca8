// Built-in tools that read and write component properties through SerializedObject, the way the
// Inspector does (so prefab overrides, dirty flags and Undo behave as for a user edit).
using System;
using System.Collections;
using System.Collections.Generic;
using System.Globalization;
using UnityEditor;
using UnityEngine;

namespace UnityIndex.Bridge
{
    public static class ComponentTools
    {
        [BridgeTool("get_component", "A component's serialized properties (path, type, value), as the Inspector shows them. Without 'component', lists the GameObject's components.")]
        public static object GetComponent(
            [ToolParam("GameObject (id or path).")] string target,
            [ToolParam("Component type name; 'Name#1' for the second of that type.")] string component = null,
            [ToolParam("At most this many properties (1-1000).")] int max_properties = 200)
        {
            GameObject go = ObjectRefs.FindGameObject(target);
            if (component == null) return ObjectRefs.Describe(go, true);
            Component c = ObjectRefs.FindComponent(go, component);
            max_properties = Math.Max(1, Math.Min(1000, max_properties));
            var so = new SerializedObject(c);
            SerializedProperty it = so.GetIterator();
            var props = new List<object>();
            bool truncated = false;
            bool enterChildren = true;
            while (it.NextVisible(enterChildren))
            {
                enterChildren = it.propertyType == SerializedPropertyType.Generic; // structs and arrays: list their children
                if (it.propertyPath == "m_Script") continue;
                if (props.Count >= max_properties) { truncated = true; break; }
                var p = Json.Obj("path", it.propertyPath, "type", it.propertyType.ToString());
                object value = Read(it);
                if (value != null || it.propertyType == SerializedPropertyType.ObjectReference) p["value"] = value;
                if (it.isArray && it.propertyType != SerializedPropertyType.String) p["size"] = it.arraySize;
                props.Add(p);
            }
            return Json.Obj("gameobject", ObjectRefs.PathOf(go.transform), "component", c.GetType().Name, "properties", props, "truncated", truncated);
        }

        /// <summary>A property's value as JSON, or null for containers and unsupported types.</summary>
        public static object Read(SerializedProperty p)
        {
            switch (p.propertyType)
            {
                case SerializedPropertyType.Integer: return p.longValue;
                case SerializedPropertyType.LayerMask: return p.intValue;
                case SerializedPropertyType.ArraySize: return p.intValue;
                case SerializedPropertyType.Character: return p.intValue;
                case SerializedPropertyType.Boolean: return p.boolValue;
                case SerializedPropertyType.Float: return p.doubleValue;
                case SerializedPropertyType.String: return p.stringValue;
                case SerializedPropertyType.Enum:
                    int i = p.enumValueIndex;
                    return i >= 0 && i < p.enumNames.Length ? (object)p.enumNames[i] : p.intValue;
                case SerializedPropertyType.Color:
                    Color c = p.colorValue;
                    return new List<object> { c.r, c.g, c.b, c.a };
                case SerializedPropertyType.Vector2:
                    Vector2 v2 = p.vector2Value;
                    return new List<object> { v2.x, v2.y };
                case SerializedPropertyType.Vector3:
                    Vector3 v3 = p.vector3Value;
                    return new List<object> { v3.x, v3.y, v3.z };
                case SerializedPropertyType.Vector4:
                    Vector4 v4 = p.vector4Value;
                    return new List<object> { v4.x, v4.y, v4.z, v4.w };
                case SerializedPropertyType.Quaternion:
                    Quaternion q = p.quaternionValue;
                    return new List<object> { q.x, q.y, q.z, q.w };
                case SerializedPropertyType.ObjectReference:
                    UnityEngine.Object o = p.objectReferenceValue;
                    if (o == null) return null;
                    string asset = AssetDatabase.GetAssetPath(o);
                    var d = Json.Obj("id", o.GetInstanceID(), "name", o.name, "type", o.GetType().Name);
                    if (!string.IsNullOrEmpty(asset)) d["asset"] = asset;
                    return d;
                default:
                    return null;
            }
        }

        [BridgeTool("set_component_property", "Set one serialized property of a component (path as get_component shows it). Numbers, booleans, strings, enum names, [x,y,z] vectors, [r,g,b,a] colours, object references (id or 'Assets/...' path, or null). Undoable.")]
        public static object SetComponentProperty(
            [ToolParam("GameObject (id or path).")] string target,
            [ToolParam("Component type name; 'Name#1' for the second of that type.")] string component,
            [ToolParam("Property path, e.g. 'm_Mass' or 'speed' or 'items.Array.data[0]'.")] string property,
            [ToolParam("The new value (JSON).")] object value)
        {
            GameObject go = ObjectRefs.FindGameObject(target);
            Component c = ObjectRefs.FindComponent(go, component);
            var so = new SerializedObject(c);
            SerializedProperty p = so.FindProperty(property);
            if (p == null) throw new ToolException("not_found", c.GetType().Name + " has no serialized property '" + InputEcho.Shown(property) + "' (get_component lists them)");
            Write(p, value);
            so.ApplyModifiedProperties(); // records Undo and marks the scene dirty
            return Json.Obj("path", p.propertyPath, "type", p.propertyType.ToString(), "value", Read(p));
        }

        private static ToolException Bad(SerializedProperty p, string expected)
        {
            return new ToolException("bad_value", "property '" + p.propertyPath + "' (" + p.propertyType + ") needs " + expected);
        }

        private static double Num(object v, SerializedProperty p)
        {
            if (v is long) return (long)v;
            if (v is double) return (double)v;
            throw Bad(p, "a number");
        }

        private static float[] Floats(object v, int n, SerializedProperty p)
        {
            var list = v as IList;
            if (list == null || list.Count != n) throw Bad(p, "an array of " + n + " numbers");
            var f = new float[n];
            for (int i = 0; i < n; i++) f[i] = (float)Num(list[i], p);
            return f;
        }

        public static void Write(SerializedProperty p, object v)
        {
            switch (p.propertyType)
            {
                case SerializedPropertyType.Integer:
                case SerializedPropertyType.LayerMask:
                case SerializedPropertyType.ArraySize:
                case SerializedPropertyType.Character:
                    if (!(v is long)) throw Bad(p, "an integer");
                    if (p.propertyType == SerializedPropertyType.Integer) p.longValue = (long)v;
                    else p.intValue = (int)(long)v;
                    break;
                case SerializedPropertyType.Boolean:
                    if (!(v is bool)) throw Bad(p, "true or false");
                    p.boolValue = (bool)v;
                    break;
                case SerializedPropertyType.Float:
                    p.doubleValue = Num(v, p);
                    break;
                case SerializedPropertyType.String:
                    if (!(v is string)) throw Bad(p, "a string");
                    p.stringValue = (string)v;
                    break;
                case SerializedPropertyType.Enum:
                    if (v is long) { p.intValue = (int)(long)v; break; }
                    int idx = v is string ? Array.IndexOf(p.enumNames, (string)v) : -1;
                    if (idx < 0) throw Bad(p, "one of " + string.Join(", ", p.enumNames));
                    p.enumValueIndex = idx;
                    break;
                case SerializedPropertyType.Color:
                    float[] c = Floats(v, 4, p);
                    p.colorValue = new Color(c[0], c[1], c[2], c[3]);
                    break;
                case SerializedPropertyType.Vector2:
                    float[] a2 = Floats(v, 2, p);
                    p.vector2Value = new Vector2(a2[0], a2[1]);
                    break;
                case SerializedPropertyType.Vector3:
                    float[] a3 = Floats(v, 3, p);
                    p.vector3Value = new Vector3(a3[0], a3[1], a3[2]);
                    break;
                case SerializedPropertyType.Vector4:
                    float[] a4 = Floats(v, 4, p);
                    p.vector4Value = new Vector4(a4[0], a4[1], a4[2], a4[3]);
                    break;
                case SerializedPropertyType.Quaternion:
                    float[] q = Floats(v, 4, p);
                    p.quaternionValue = new Quaternion(q[0], q[1], q[2], q[3]);
                    break;
                case SerializedPropertyType.ObjectReference:
                    if (v == null) { p.objectReferenceValue = null; break; }
                    string s = v is long ? ((long)v).ToString(CultureInfo.InvariantCulture) : v as string;
                    if (s == null) throw Bad(p, "an instance id, an 'Assets/...' path, or null");
                    p.objectReferenceValue = ObjectRefs.FindAnyObject(s);
                    break;
                default:
                    throw new ToolException("unsupported", "setting " + p.propertyType + " properties is not supported; set their children instead");
            }
        }
    }
}
