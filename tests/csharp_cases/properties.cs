public class Stats : MonoBehaviour
{
    private int _hp;
    public int Hp => _hp;
    public bool IsDead { get => _hp <= 0; }
    public float Ratio { get { return _hp / 100f; } protected set { } }
    public Weapon Current { get; init; } = new Weapon();
    public int this[StatKind kind] => 0;
}
