using UnityEngine;
using UnityEngine.UI;

[RequireComponent(typeof(Rigidbody2D))]
public class Shooter : MonoBehaviour
{
    public UnityEngine.UI.Button fireButton;
    private Bullet[] pool;
    private Weapon? weapon;

    void Fire(Transform origin)
    {
        var rb = GetComponent<Rigidbody2D>();
        Bullet b = Instantiate(pool[0]) as Bullet;
        if (origin.parent is Turret t) { t.Aim(); }
        var hit = (RaycastHit2D)Physics2D.Raycast(origin.position, Vector2.up);
        try { GameManager.Instance.Score(1); }
        catch (MissingReferenceException e) { Debug.LogException(e); }
        foreach (Enemy enemy in FindObjectsOfType<Enemy>()) { }
        var list = new System.Collections.Generic.List<(Enemy, Weapon)>();
        int n = weapon.ammo;
        fireButton.onClick.AddListener(Fire2);
    }
}
