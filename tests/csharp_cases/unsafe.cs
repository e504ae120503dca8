public unsafe struct PixelBuffer
{
    public fixed byte data[64];
    private int* cursor;

    public void Clear(Color32* dst, int n)
    {
        Span<Vertex> tmp = stackalloc Vertex[n];
        fixed (byte* p = data) { *p = 0; }
        a.B(x * y);
    }
}
