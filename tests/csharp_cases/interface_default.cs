namespace Game.Combat
{
    public interface IDamageable
    {
        int Health { get; }
        void TakeDamage(int amount);
        bool IsAlive => Health > 0;
        void Kill() { TakeDamage(Health); }
        static IDamageable None => null;
    }
}
