namespace Game.Audio;

using UnityEngine;
using static UnityEngine.Mathf;
using Clip = UnityEngine.AudioClip;

public sealed class MusicPlayer : MonoBehaviour
{
    public Clip current;

    void Fade(float t) => volume = Clamp01(t);
}
