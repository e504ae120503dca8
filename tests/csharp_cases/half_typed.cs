using UnityEngine;

public class Enemy : MonoBehaviour
{
    public int hp;

    void Update()
    {
        if (hp > 

    void Start()
    {
        target = FindObjectOfType<Player>();
    }

    public float Speed { get; set; }

    public void Hit(int dmg) { hp -= dmg; }
}
