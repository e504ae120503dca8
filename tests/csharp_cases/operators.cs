public readonly struct Money
{
    public readonly long cents;

    public Money(long c) { cents = c; }

    public static Money operator +(Money a, Money b) => new Money(a.cents + b.cents);
    public static bool operator ==(Money a, Money b) => a.cents == b.cents;
    public static bool operator !=(Money a, Money b) => !(a == b);
    public static implicit operator decimal(Money m) => m.cents / 100m;
    public static explicit operator Money(Price p) => new Money(p.Cents);

    ~Money() { }
}
