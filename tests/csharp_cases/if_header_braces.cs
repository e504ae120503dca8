namespace Tools;

#if UNITY_EDITOR
public class Inspector : Editor {
#else
public class Inspector : MonoBehaviour {
#endif
    public int gridSize;
    void OnEnable() { }
}

public class Other : MonoBehaviour {
    public float speed;
}
