// Stubs of UnityEditor (2021.3 signatures), only the members unity_package uses.
using System;
using System.Collections;
using System.Collections.Generic;
using System.Reflection;
using UnityEngine;

namespace UnityEditor
{
    [AttributeUsage(AttributeTargets.Class)]
    public class InitializeOnLoadAttribute : Attribute { }

    public static class EditorApplication
    {
        public delegate void CallbackFunction();
        public static CallbackFunction update;
        public static event Action quitting { add { } remove { } }
        public static bool isPlaying { get { throw null; } set { } }
        public static bool isPaused { get { throw null; } set { } }
        public static bool isCompiling { get { throw null; } }
        public static bool isUpdating { get { throw null; } }
        public static void EnterPlaymode() { }
        public static void ExitPlaymode() { }
        public static void QueuePlayerLoopUpdate() { }
        public static bool ExecuteMenuItem(string menuItemPath) { throw null; }
    }

    public static class AssemblyReloadEvents
    {
        public delegate void AssemblyReloadCallback();
        public static event AssemblyReloadCallback beforeAssemblyReload { add { } remove { } }
        public static event AssemblyReloadCallback afterAssemblyReload { add { } remove { } }
    }

    public class SessionState
    {
        public static string GetString(string key, string defaultValue) { throw null; }
        public static void SetString(string key, string value) { }
        public static int GetInt(string key, int defaultValue) { throw null; }
        public static void SetInt(string key, int value) { }
    }

    public static class TypeCache
    {
        public struct MethodCollection : IEnumerable<MethodInfo>
        {
            public IEnumerator<MethodInfo> GetEnumerator() { throw null; }
            IEnumerator IEnumerable.GetEnumerator() { throw null; }
        }

        public struct TypeCollection : IEnumerable<Type>
        {
            public IEnumerator<Type> GetEnumerator() { throw null; }
            IEnumerator IEnumerable.GetEnumerator() { throw null; }
        }

        public static MethodCollection GetMethodsWithAttribute<T>() where T : Attribute { throw null; }
        public static TypeCollection GetTypesDerivedFrom<T>() { throw null; }
    }

    public class AssetPostprocessor { }

    public sealed class AssetDatabase
    {
        public static void Refresh() { }
        public static UnityEngine.Object LoadAssetAtPath(string assetPath, Type type) { throw null; }
        public static string GetAssetPath(UnityEngine.Object assetObject) { throw null; }
    }

    public sealed class EditorUtility
    {
        public static UnityEngine.Object InstanceIDToObject(int instanceID) { throw null; }
    }

    public class Undo
    {
        public static void RegisterCreatedObjectUndo(UnityEngine.Object objectToUndo, string name) { }
        public static void RecordObject(UnityEngine.Object objectToUndo, string name) { }
        public static void SetTransformParent(Transform transform, Transform newParent, string name) { }
        public static void DestroyObjectImmediate(UnityEngine.Object objectToUndo) { }
        public static Component AddComponent(GameObject gameObject, Type type) { throw null; }
        public static void PerformUndo() { }
    }

    public sealed class PrefabUtility
    {
        public static UnityEngine.Object InstantiatePrefab(UnityEngine.Object assetComponentOrGameObject, Transform parent) { throw null; }
    }

    public class Selection
    {
        public static UnityEngine.Object[] objects { get { throw null; } set { } }
    }

    public enum SerializedPropertyType
    {
        Generic = -1,
        Integer = 0,
        Boolean = 1,
        Float = 2,
        String = 3,
        Color = 4,
        ObjectReference = 5,
        LayerMask = 6,
        Enum = 7,
        Vector2 = 8,
        Vector3 = 9,
        Vector4 = 10,
        Rect = 11,
        ArraySize = 12,
        Character = 13,
        AnimationCurve = 14,
        Bounds = 15,
        Gradient = 16,
        Quaternion = 17,
        ExposedReference = 18,
        FixedBufferSize = 19,
        Vector2Int = 20,
        Vector3Int = 21,
        RectInt = 22,
        BoundsInt = 23,
        ManagedReference = 24,
        Hash128 = 25,
    }

    public class SerializedObject : IDisposable
    {
        public SerializedObject(UnityEngine.Object obj) { }
        public SerializedProperty GetIterator() { throw null; }
        public SerializedProperty FindProperty(string propertyPath) { throw null; }
        public bool ApplyModifiedProperties() { throw null; }
        public void Dispose() { }
    }

    public class SerializedProperty : IDisposable
    {
        internal SerializedProperty() { }
        public string propertyPath { get { throw null; } }
        public SerializedPropertyType propertyType { get { throw null; } }
        public bool isArray { get { throw null; } }
        public int arraySize { get { throw null; } set { } }
        public bool NextVisible(bool enterChildren) { throw null; }
        public int intValue { get { throw null; } set { } }
        public long longValue { get { throw null; } set { } }
        public bool boolValue { get { throw null; } set { } }
        public double doubleValue { get { throw null; } set { } }
        public string stringValue { get { throw null; } set { } }
        public int enumValueIndex { get { throw null; } set { } }
        public string[] enumNames { get { throw null; } }
        public Color colorValue { get { throw null; } set { } }
        public Vector2 vector2Value { get { throw null; } set { } }
        public Vector3 vector3Value { get { throw null; } set { } }
        public Vector4 vector4Value { get { throw null; } set { } }
        public Quaternion quaternionValue { get { throw null; } set { } }
        public UnityEngine.Object objectReferenceValue { get { throw null; } set { } }
        public void Dispose() { }
    }
}

namespace UnityEditor.Compilation
{
    public enum CompilerMessageType
    {
        Error = 0,
        Warning = 1,
        Info = 2,
    }

    public struct CompilerMessage
    {
        public string message;
        public string file;
        public int line;
        public int column;
        public CompilerMessageType type;
    }

    public static class CompilationPipeline
    {
        public static event Action<object> compilationStarted { add { } remove { } }
        public static event Action<object> compilationFinished { add { } remove { } }
        public static event Action<string, CompilerMessage[]> assemblyCompilationFinished { add { } remove { } }
        public static void RequestScriptCompilation() { }
    }
}
