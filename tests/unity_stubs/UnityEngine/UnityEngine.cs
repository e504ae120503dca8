// Stubs of UnityEngine (2021.3 signatures), only the members unity_package uses.
using System;
using System.Collections;

namespace UnityEngine
{
    public class Object
    {
        public string name { get { throw null; } set { } }
        public int GetInstanceID() { throw null; }
        public static void DestroyImmediate(Object obj) { }
        public override bool Equals(object other) { throw null; }
        public override int GetHashCode() { throw null; }
        public static bool operator ==(Object x, Object y) { throw null; }
        public static bool operator !=(Object x, Object y) { throw null; }
        public static implicit operator bool(Object exists) { throw null; }
    }

    public class Component : Object
    {
        public GameObject gameObject { get { throw null; } }
        public Transform transform { get { throw null; } }
    }

    public class Transform : Component, IEnumerable
    {
        protected Transform() { }
        public Transform parent { get { throw null; } set { } }
        public int childCount { get { throw null; } }
        public Transform GetChild(int index) { throw null; }
        public Transform Find(string n) { throw null; }
        public IEnumerator GetEnumerator() { throw null; }
    }

    public sealed class GameObject : Object
    {
        public GameObject(string name) { }
        public Transform transform { get { throw null; } }
        public string tag { get { throw null; } set { } }
        public bool activeSelf { get { throw null; } }
        public bool activeInHierarchy { get { throw null; } }
        public Component[] GetComponents(Type type) { throw null; }
    }

    public class ScriptableObject : Object
    {
        public static T CreateInstance<T>() where T : ScriptableObject { throw null; }
    }

    public enum LogType
    {
        Error = 0,
        Assert = 1,
        Warning = 2,
        Log = 3,
        Exception = 4,
    }

    public static class Application
    {
        public delegate void LogCallback(string condition, string stackTrace, LogType type);
        public static event LogCallback logMessageReceivedThreaded { add { } remove { } }
        public static string dataPath { get { throw null; } }
        public static string unityVersion { get { throw null; } }
        public static bool isBatchMode { get { throw null; } }
    }

    public static class Debug
    {
        public static void Log(object message) { }
        public static void LogWarning(object message) { }
        public static void LogError(object message) { }
    }

    public struct Color
    {
        public float r, g, b, a;
        public Color(float r, float g, float b, float a) { this.r = r; this.g = g; this.b = b; this.a = a; }
    }

    public struct Vector2
    {
        public float x, y;
        public Vector2(float x, float y) { this.x = x; this.y = y; }
    }

    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
    }

    public struct Vector4
    {
        public float x, y, z, w;
        public Vector4(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
    }

    public struct Quaternion
    {
        public float x, y, z, w;
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
    }
}

namespace UnityEngine.SceneManagement
{
    public struct Scene
    {
        public string name { get { throw null; } set { } }
        public string path { get { throw null; } }
        public bool isDirty { get { throw null; } }
        public bool isLoaded { get { throw null; } }
        public int rootCount { get { throw null; } }
        public GameObject[] GetRootGameObjects() { throw null; }
    }

    public class SceneManager
    {
        public static int sceneCount { get { throw null; } }
        public static Scene GetActiveScene() { throw null; }
        public static Scene GetSceneAt(int index) { throw null; }
    }
}
