public delegate void HitHandler(Enemy target, int damage);
public delegate TResult Factory<out TResult>() where TResult : Object;

public class Combat
{
    public delegate bool Filter(in Hit hit);
    public HitHandler onHit;
}
