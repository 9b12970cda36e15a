-- OAuth for MCP: refresh tokens (stored as SHA-256), rotated on every use. A family is every refresh token
-- descending from one authorization code; presenting a rotated token again, or redeeming the code twice,
-- revokes the whole family (OAuth 2.1 §4.3.1, §4.1.3).
CREATE TABLE oauth_refresh_tokens (
  token_hash TEXT PRIMARY KEY,
  -- SHA-256 hex of the authorization code the family started from.
  family_id TEXT NOT NULL,
  client_id TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  api_key_id TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  scope TEXT,
  resource TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  -- Set when the token was exchanged for a new pair (rotation).
  used_at TEXT,
  revoked_at TEXT
);
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens (family_id);

-- Families revoked (a code or refresh token presented twice): their access tokens are refused too, and no new
-- refresh token can join them, even one being issued at the moment of the revocation.
CREATE TABLE oauth_revoked_families (
  family_id TEXT PRIMARY KEY,
  revoked_at TEXT NOT NULL
) WITHOUT ROWID;

-- Client ID metadata documents: a client known by URL is kept with the document it served and when it was read.
ALTER TABLE oauth_clients ADD COLUMN fetched_at TEXT;
