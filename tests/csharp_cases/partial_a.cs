using UnityEngine;

public partial class PlayerController : MonoBehaviour
{
    [SerializeField] private float speed = 5f;

    private void Update()
    {
        Move(Input.GetAxis("Horizontal"));
    }
}
