namespace Game.UI
{
    public class Inventory : MonoBehaviour
    {
        [System.Serializable]
        public class Slot
        {
            public Item item;
            public struct Stack { public int count; }
        }

        public enum SortMode { ByName, ByWeight }

        private Slot[] slots;
    }
}
