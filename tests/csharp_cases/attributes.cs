using UnityEngine;

[CreateAssetMenu(fileName = "NewWeapon", menuName = "DungeonCrawler/Weapon")]
public class WeaponData : ScriptableObject
{
    [field: SerializeField] public int Damage { get; private set; }

    [SerializeField, Range(0, 10)]
    [Tooltip("Seconds between attacks")]
    private float cooldown;

    [RequireComponent(typeof(PlayerController))]
    [HideInInspector] public GameObject owner;
}
