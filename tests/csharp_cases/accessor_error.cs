using System;
using UnityEngine;

public class NativeCounter : MonoBehaviour
{
    private IntPtr m_Buffer;

    public unsafe int Value
    {
        get { return *(int*)m_Buffer; }
        set { *(int*)m_Buffer = value - *(int*)m_Buffer; }
    }

    public int Doubled => Value * 2;

    public void ResetCounter(Transform owner)
    {
        Value = 0;
    }
}
