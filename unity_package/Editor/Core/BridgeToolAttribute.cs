// Attributes that turn a static method into a bridge tool. No Unity dependency.
//
//     [BridgeTool("spawn_enemies", "Spawns N enemies at the origin of the active scene.")]
//     public static object SpawnEnemies([ToolParam("How many to spawn (1-100).")] int count = 1) { ... }
//
// Any static method in any editor assembly that can see UnityIndex.Editor is picked up.
using System;

namespace UnityIndex.Bridge
{
    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false, Inherited = false)]
    public sealed class BridgeToolAttribute : Attribute
    {
        public BridgeToolAttribute(string name, string description)
        {
            Name = name;
            Description = description;
        }

        /// <summary>Tool name: a lowercase letter, then lowercase letters, digits and underscores, at most 64 characters and nothing else.</summary>
        public string Name { get; private set; }
        public string Description { get; private set; }
    }

    [AttributeUsage(AttributeTargets.Parameter, AllowMultiple = false, Inherited = false)]
    public sealed class ToolParamAttribute : Attribute
    {
        public ToolParamAttribute(string description)
        {
            Description = description;
        }

        public string Description { get; private set; }
    }

    /// <summary>
    /// Thrown by a tool to report an expected failure (an object that does not exist, a refused
    /// request). The bridge answers HTTP 422 with this code and message instead of a stack trace.
    /// </summary>
    public sealed class ToolException : Exception
    {
        public ToolException(string code, string message) : base(message)
        {
            Code = code;
        }

        public ToolException(string message) : this("tool_error", message) { }

        public string Code { get; private set; }
    }
}
