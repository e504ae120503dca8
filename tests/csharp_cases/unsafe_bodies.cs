using Unity.Collections.LowLevel.Unsafe;
using UnityEngine;

namespace Game.Audio
{
    public unsafe class SampleMixer : MonoBehaviour
    {
        [SerializeField] private int channels = 2;

        public static int CompareSamples(void* a, void* b)
        {
            return ((short*)a)->CompareTo(*(short*)b);
        }

        public void Attenuate(void* buffer, int count)
        {
            for (var i = 0; i < count; i++)
                *(float*)buffer = *(float*)buffer - *(float*)buffer * 0.5f;
        }

        public float Peak { get; private set; }

        private void OnAudioFilterRead(float[] data, int channelCount)
        {
            Peak = Mathf.Max(Peak, data[0]);
        }
    }

    public struct MixerState
    {
        public int voices;
    }
}
