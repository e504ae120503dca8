using System.Collections.Generic;
using UnityEngine;

namespace DungeonCrawler.Pooling
{
    public class ObjectPool<T> : Singleton<ObjectPool<T>> where T : Component
    {
        private readonly Stack<T> _free = new Stack<T>();
        public Dictionary<string, List<Enemy>> byName;

        public TItem Spawn<TItem>(TItem prefab, Vector3 at) where TItem : MonoBehaviour, IPoolable
        {
            var health = GetComponent<Health>();
            return Object.Instantiate(prefab, at, Quaternion.identity);
        }
    }
}
