// The asset change journal: every import, deletion and move Unity reports is appended to
// Library/UnityIndex/journal.jsonl for the indexer (format: docs/editor-bridge.md).
// Each script domain writes its own session, whose "start" line names the session it continues
// (kept in SessionState, which survives domain reloads but not an editor restart).
using System;
using UnityEditor;
using UnityEngine;

namespace UnityIndex.Bridge
{
    [InitializeOnLoad]
    public static class AssetJournal
    {
        private const string SessionKey = "UnityIndex.Journal.Session";
        private const string SeqKey = "UnityIndex.Journal.Seq";
        private static JournalWriter _writer;
        private static bool _warned;

        static AssetJournal()
        {
            EnsureStarted();
        }

        public static JournalWriter Writer { get { EnsureStarted(); return _writer; } }

        private static void EnsureStarted()
        {
            if (_writer != null) return;
            string prev = SessionState.GetString(SessionKey, "");
            int prevSeq = SessionState.GetInt(SeqKey, 0);
            _writer = new JournalWriter(UnityIndexBridge.ProjectPath);
            try
            {
                _writer.Start(prev.Length == 0 ? "editor_start" : "domain_reload", prev, prevSeq);
            }
            catch (Exception e)
            {
                Warn(e);
            }
            Save();
        }

        public static void Record(string[] imported, string[] deleted, string[] moved, string[] movedFrom)
        {
            EnsureStarted();
            try
            {
                _writer.Append(imported, deleted, moved, movedFrom);
            }
            catch (Exception e)
            {
                // The lines' seq numbers were used: readers see the gap and walk the project.
                Warn(e);
            }
            Save();
        }

        private static void Save()
        {
            SessionState.SetString(SessionKey, _writer.Session);
            SessionState.SetInt(SeqKey, (int)_writer.Seq);
        }

        private static void Warn(Exception e)
        {
            if (_warned) return;
            _warned = true;
            Debug.LogWarning("UnityIndex: could not write the asset journal " + _writer.FilePath + ": " + e.Message);
        }
    }

    public sealed class UnityIndexJournalPostprocessor : AssetPostprocessor
    {
        private static void OnPostprocessAllAssets(string[] importedAssets, string[] deletedAssets, string[] movedAssets, string[] movedFromAssetPaths)
        {
            AssetJournal.Record(importedAssets, deletedAssets, movedAssets, movedFromAssetPaths);
        }
    }
}
