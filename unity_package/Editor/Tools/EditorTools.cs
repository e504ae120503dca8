// Built-in tools about the editor itself. Every tool runs on Unity's main thread.
using System;
using System.Collections.Generic;
using UnityEditor;
using UnityEditor.Compilation;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace UnityIndex.Bridge
{
    public static class EditorTools
    {
        public enum PlayModeAction { Enter, Exit, Pause, Resume }

        /// <summary>Console message types, named as the console_logs schema lists them (bound before the call is queued).</summary>
        public enum ConsoleLogType { error, exception, assert, warning, log }

        /// <summary>Menu items the bridge refuses: they quit, open modal windows, or build.</summary>
        public static readonly string[] DeniedMenuItems =
        {
            "File/Quit", "File/Exit", "Unity/Quit",
            "Edit/Preferences...", "Unity/Preferences...", "Unity/Settings...", "Edit/Project Settings...",
            "Edit/Clear All PlayerPrefs", "File/Build And Run", "File/Build Settings...", "File/Build Profiles",
        };

        /// <summary>Menu prefixes the bridge refuses: builds, external sites and Unity accounts.</summary>
        public static readonly string[] DeniedMenuPrefixes = { "File/Build", "Help/", "Window/General/Account" };

        [BridgeTool("editor_state", "Editor state: play mode, compiling, active scene, selection, last compilation's errors.")]
        public static object EditorState()
        {
            Scene scene = SceneManager.GetActiveScene();
            Dictionary<string, object> compile = UnityIndexBridge.CompileReport();
            return Json.Obj(
                "state", UnityIndexBridge.State,
                "unity_version", Application.unityVersion,
                "project_path", UnityIndexBridge.ProjectPath.Replace('\\', '/'),
                "is_playing", EditorApplication.isPlaying,
                "is_paused", EditorApplication.isPaused,
                "is_compiling", EditorApplication.isCompiling,
                "is_updating", EditorApplication.isUpdating,
                "active_scene", Json.Obj("name", scene.name, "path", scene.path, "dirty", scene.isDirty, "roots", scene.rootCount),
                "selection", Selection.objects.Length,
                "compile", compile,
                "tools", UnityIndexBridge.Registry.Count);
        }

        [BridgeTool("play_mode", "Enter, exit, pause or resume play mode. Entering or exiting may reload scripts: the bridge is briefly unavailable (state 'reloading').")]
        public static object PlayMode([ToolParam("enter, exit, pause or resume.")] PlayModeAction action)
        {
            switch (action)
            {
                case PlayModeAction.Enter:
                    if (!EditorApplication.isPlaying) EditorApplication.EnterPlaymode();
                    break;
                case PlayModeAction.Exit:
                    if (EditorApplication.isPlaying) EditorApplication.ExitPlaymode();
                    break;
                case PlayModeAction.Pause:
                    if (!EditorApplication.isPlaying) throw new ToolException("not_playing", "pause needs play mode: enter it first");
                    EditorApplication.isPaused = true;
                    break;
                case PlayModeAction.Resume:
                    EditorApplication.isPaused = false;
                    break;
            }
            return Json.Obj("requested", action.ToString().ToLowerInvariant(), "is_playing", EditorApplication.isPlaying, "is_paused", EditorApplication.isPaused);
        }

        [BridgeTool("refresh_assets", "Import changed files (AssetDatabase.Refresh) and request script compilation. Compile errors appear in editor_state once compilation ends (after the reload that follows a successful compile).")]
        public static object RefreshAssets([ToolParam("Also request script compilation.")] bool compile = true)
        {
            AssetDatabase.Refresh();
            if (compile) CompilationPipeline.RequestScriptCompilation();
            return Json.Obj(
                "refreshed", true,
                "compilation_requested", compile,
                "is_compiling", EditorApplication.isCompiling,
                "last_compile", UnityIndexBridge.CompileReport());
        }

        [BridgeTool("console_logs", "Console messages received since scripts last loaded, newest last. Filter by type and text; page with since_seq.")]
        public static object ConsoleLogs(
            [ToolParam("Types to keep: error, exception, assert, warning, log. Default: all.")] ConsoleLogType[] types = null,
            [ToolParam("Keep messages containing this text (case-insensitive).")] string contains = null,
            [ToolParam("Only entries with seq greater than this (the last_seq of a previous answer).")] long since_seq = 0,
            [ToolParam("At most this many entries (1-500).")] int limit = 50)
        {
            string[] names = types == null ? null : Array.ConvertAll(types, delegate (ConsoleLogType t) { return t.ToString(); });
            return UnityIndexBridge.Logs.Query(names, contains, since_seq, Math.Max(1, Math.Min(500, limit)));
        }

        public static bool IsMenuItemDenied(string path)
        {
            string p = (path ?? "").Trim();
            foreach (string d in DeniedMenuItems)
                if (string.Equals(p, d, StringComparison.OrdinalIgnoreCase)) return true;
            foreach (string d in DeniedMenuPrefixes)
                if (p.StartsWith(d, StringComparison.OrdinalIgnoreCase)) return true;
            return false;
        }

        [BridgeTool("execute_menu_item", "Run an editor menu item by path, e.g. 'GameObject/Create Empty'. Quitting, preferences, builds and Help are refused.")]
        public static object ExecuteMenuItem([ToolParam("Menu path, e.g. 'Assets/Reimport All'.")] string path)
        {
            if (IsMenuItemDenied(path)) throw new ToolException("denied", "menu item '" + InputEcho.Shown(path) + "' is on the bridge's deny-list");
            if (!EditorApplication.ExecuteMenuItem(path)) throw new ToolException("menu_item_failed", "Unity could not run menu item '" + InputEcho.Shown(path) + "' (no such item, or disabled now)");
            return Json.Obj("executed", path);
        }
    }
}
