using UnityEngine;

public class DebugDraw : MonoBehaviour
{
#if UNITY_EDITOR
    public void Draw(Color c) { Gizmos.color = c; }
    private bool showLabels;
#else
    public void Draw(Color c) { }
#endif

#if UNITY_EDITOR && !UNITY_WEBGL
    void OnDrawGizmos() { }
#elif DEVELOPMENT_BUILD
    void OnGUI() { }
#endif
}
