using System;
using UnityEngine.Events;

public class Health : MonoBehaviour
{
    public event Action<int> Damaged, Healed;
    public UnityEvent onDeath;

    private EventHandler<DeathArgs> _died;
    public event EventHandler<DeathArgs> Died
    {
        add { _died += value; }
        remove { _died -= value; }
    }
}
