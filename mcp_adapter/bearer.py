"""The secret of an HTTP `Authorization` header, read one way by `serve --token` and the editor
tools' access rule (no MCP import: the CLI loads this before it needs the SDK)."""

from __future__ import annotations


def bearer(header: str | bytes) -> bytes:
    """The credentials of an `Authorization: Bearer <token>` header, empty for another scheme.
    The scheme is case-insensitive (RFC 9110 11.1): `bearer x` was refused as a wrong token."""
    value = header.encode("latin-1", "replace") if isinstance(header, str) else header
    scheme, _, credentials = value.strip().partition(b" ")
    return credentials.lstrip(b" ") if scheme.lower() == b"bearer" else b""
