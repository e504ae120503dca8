using UnityEngine;

namespace Tools
{
#if UNITY_EDITOR
    public class LevelTool : Editor
#else
    public class LevelTool : MonoBehaviour
#endif
    {
        public int gridSize = 4;

        void OnEnable() { }
    }
}
