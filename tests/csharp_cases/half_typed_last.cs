public class Spawner : MonoBehaviour
{
    public GameObject prefab;

    void Spawn()
    {
        Instantiate(prefab, transform.
}

public class After : MonoBehaviour
{
    public int x;
}
