public partial class PlayerController : IDamageable
{
    partial void OnMoved(Vector2 delta);

    public void Move(float x)
    {
        transform.Translate(x * speed * Time.deltaTime, 0, 0);
    }
}
