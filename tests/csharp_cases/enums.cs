namespace Game
{
    [System.Flags]
    public enum Layer : byte
    {
        None = 0,
        Ground = 1 << 0,
        [InspectorName("Water Surface")] Water = 1 << 1,
    }
}
