using System;
using UnityEngine;

public class Spawner : MonoBehaviour
{
    public static readonly Func<IntPtr, int> ReadCount = ptr =>
    {
        unsafe { return ((int*)ptr)->CompareTo(*(int*)ptr); }
    };

    public GameObject prefab;

    public void Spawn(Vector3 at)
    {
        Instantiate(prefab, at, Quaternion.identity);
    }
}
