using UnityEngine;

public class Labels : MonoBehaviour
{
    private const string Open = "{";
    private const char Close = '}';
    // } a closing brace in a comment
    /* { an opening brace in a block comment */
    private static readonly string Path = @"C:\{folder}\";

    public string Format(int a, int b)
    {
        var s = $"{a}{{b}}" + $@"{b}
}";
        char c = '{';
        return s + Open + c + "\"}" + $"{(a > b ? "}" : "{")}";
    }

    public unsafe int Peek(void* p)
    {
        return ((int*)p)->CompareTo(*(int*)p);
    }

    public string Name { get; set; }
}
