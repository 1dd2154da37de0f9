"""Who is signed in: sessions, limits, security headers."""
