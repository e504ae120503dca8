namespace Game.Data
{
    public record WeaponStats(string Name, int Damage);

    public readonly record struct GridPos(int X, int Y)
    {
        public GridPos Offset(int dx) => new GridPos(X + dx, Y);
    }

    public record struct Cell(Tile Tile);
}
