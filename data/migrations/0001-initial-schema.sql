-- Initial schema. Never edit this file once merged: add 0002-*.sql instead.
-- Conventions: ids are uuid text (crypto.randomUUID); timestamps are ISO 8601 UTC text
-- (Date.prototype.toISOString, so they sort as text); booleans are 0/1 integers; lists and maps are JSON text.
-- The one integer time is usage_counters.minute: the epoch minute (floor(epoch ms / 60000)) of a bucket.

CREATE TABLE organizations (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  require_session_token INTEGER NOT NULL DEFAULT 0 CHECK (require_session_token IN (0, 1)),
  quota_data INTEGER NOT NULL DEFAULT 60 CHECK (quota_data >= 0),
  quota_tiles INTEGER NOT NULL DEFAULT 600 CHECK (quota_tiles >= 0),
  -- JSON array of layer names the embed may serve.
  embed_layers TEXT NOT NULL DEFAULT '["trails","itineraries","waypoints","zones"]'
    CHECK (json_valid(embed_layers) AND json_type(embed_layers) = 'array'),
  -- JSON array of origins applied to publishable keys that list none of their own.
  default_allowed_origins TEXT NOT NULL DEFAULT '[]'
    CHECK (json_valid(default_allowed_origins) AND json_type(default_allowed_origins) = 'array'),
  -- JSON object: dimension -> non-negative integer, or null = unlimited. An absent dimension = not granted.
  -- -1 is never written (checked by the store).
  limits TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(limits) AND json_type(limits) = 'object'),
  product_studio INTEGER NOT NULL DEFAULT 0 CHECK (product_studio IN (0, 1)),
  product_data INTEGER NOT NULL DEFAULT 0 CHECK (product_data IN (0, 1)),
  product_intelligence INTEGER NOT NULL DEFAULT 0 CHECK (product_intelligence IN (0, 1)),
  card_on_file INTEGER NOT NULL DEFAULT 0 CHECK (card_on_file IN (0, 1)),
  -- JSON object: AI agent settings (model endpoint, model name, enabled tools).
  ai_settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(ai_settings) AND json_type(ai_settings) = 'object'),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (length(email) BETWEEN 3 AND 320 AND instr(email, '@') > 1),
  -- scrypt$N$r$p$<salt base64>$<hash base64>, per-user random salt.
  password_hash TEXT NOT NULL CHECK (password_hash LIKE 'scrypt$%'),
  name TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE memberships (
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'contributor', 'viewer')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (organization_id, user_id)
) WITHOUT ROWID;
CREATE INDEX memberships_by_user ON memberships (user_id);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type TEXT NOT NULL CHECK (type IN ('pk', 'sk')),
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- JSON array of scopes: embedding, tiles, resources, data, mcp, management.
  scopes TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(scopes) AND json_type(scopes) = 'array'),
  -- JSON array of allowed origins (publishable keys only).
  allowed_origins TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(allowed_origins) AND json_type(allowed_origins) = 'array'),
  -- Publishable keys are public: stored as is. Secret keys: SHA-256 hex of the key, never the key.
  key_value TEXT UNIQUE,
  key_hash TEXT UNIQUE,
  -- Last four characters of the key, to tell keys apart in listings.
  key_hint TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT,
  CHECK (
    (type = 'pk' AND key_value IS NOT NULL AND key_hash IS NULL)
    OR (type = 'sk' AND key_hash IS NOT NULL AND key_value IS NULL)
  )
);
CREATE INDEX api_keys_by_org ON api_keys (organization_id, created_at);

CREATE TABLE collections (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  scope TEXT NOT NULL DEFAULT 'organization' CHECK (scope IN ('organization', 'personal')),
  -- The user a personal collection belongs to; NULL for organization collections.
  owner_user_id TEXT REFERENCES users (id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description TEXT NOT NULL DEFAULT '',
  privacy TEXT NOT NULL DEFAULT 'private' CHECK (privacy IN ('public', 'private')),
  created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK ((scope = 'personal') = (owner_user_id IS NOT NULL))
);
-- NULL owners would compare distinct in a plain UNIQUE constraint, hence the expression.
CREATE UNIQUE INDEX collections_name_unique ON collections (organization_id, scope, ifnull(owner_user_id, ''), name);
CREATE INDEX collections_by_owner ON collections (owner_user_id) WHERE owner_user_id IS NOT NULL;

CREATE TABLE itineraries (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description TEXT NOT NULL DEFAULT '',
  activity TEXT NOT NULL DEFAULT 'HIKING_AND_TRAIL'
    CHECK (activity IN ('HIKING_AND_TRAIL', 'WALKING', 'TRAIL_RUNNING', 'MOUNTAIN_BIKING', 'ROAD_CYCLING')),
  privacy TEXT NOT NULL DEFAULT 'private' CHECK (privacy IN ('public', 'private')),
  created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
  -- Bumped by every draft edit (tile caches and the live channel key on it).
  draft_version INTEGER NOT NULL DEFAULT 1 CHECK (draft_version >= 1),
  -- Immutable JSON copy of the draft at publish time; NULL = never published.
  published_snapshot TEXT CHECK (published_snapshot IS NULL OR json_valid(published_snapshot)),
  published_at TEXT,
  published_version INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (organization_id, name),
  CHECK ((published_snapshot IS NULL) = (published_at IS NULL) AND (published_at IS NULL) = (published_version IS NULL))
);

CREATE TABLE collection_itineraries (
  collection_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  itinerary_id TEXT NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  added_at TEXT NOT NULL,
  PRIMARY KEY (collection_id, itinerary_id)
) WITHOUT ROWID;
CREATE INDEX collection_itineraries_by_itinerary ON collection_itineraries (itinerary_id);

CREATE TABLE segment_groups (
  id TEXT PRIMARY KEY,
  itinerary_id TEXT NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  color TEXT NOT NULL,
  -- Displayed speed on the elevation profile, km/h; NULL = the activity's speed model.
  speed REAL CHECK (speed IS NULL OR speed > 0),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX segment_groups_by_itinerary ON segment_groups (itinerary_id);

-- position orders the chain (0-based). Not UNIQUE on purpose: renumbering after insert/split/merge
-- updates rows one by one inside a transaction, and a UNIQUE index would trip on the intermediate states.
CREATE TABLE segments (
  id TEXT PRIMARY KEY,
  itinerary_id TEXT NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 0),
  engine TEXT NOT NULL CHECK (engine IN ('smart', 'freehand')),
  -- Float64 little-endian lon, lat, ele triples (degrees, degrees, metres; NaN = no elevation).
  geometry BLOB NOT NULL CHECK (length(geometry) % 24 = 0),
  distance REAL NOT NULL DEFAULT 0, -- metres
  ascent REAL NOT NULL DEFAULT 0, -- metres
  descent REAL NOT NULL DEFAULT 0, -- metres
  duration REAL NOT NULL DEFAULT 0, -- seconds
  name TEXT,
  description TEXT,
  group_id TEXT REFERENCES segment_groups (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX segments_by_itinerary ON segments (itinerary_id, position);
CREATE INDEX segments_by_group ON segments (group_id) WHERE group_id IS NOT NULL;

CREATE TABLE waypoints (
  id TEXT PRIMARY KEY,
  itinerary_id TEXT NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  position INTEGER NOT NULL CHECK (position >= 0),
  lon REAL NOT NULL CHECK (lon BETWEEN -180 AND 180),
  lat REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
  ele REAL,
  name TEXT,
  kind TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX waypoints_by_itinerary ON waypoints (itinerary_id, position);

CREATE TABLE zones (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  description TEXT NOT NULL DEFAULT '',
  level TEXT NOT NULL CHECK (level IN ('INFO', 'WARNING', 'DANGER', 'PROHIBITED')),
  mode TEXT NOT NULL CHECK (mode IN ('POLYGON', 'CIRCLE', 'CORRIDOR')),
  -- GeoJSON geometry: Polygon (POLYGON), Point (CIRCLE) or LineString (CORRIDOR).
  geometry TEXT NOT NULL CHECK (json_valid(geometry)),
  radius_m REAL CHECK (radius_m IS NULL OR radius_m > 0),
  width_m REAL CHECK (width_m IS NULL OR width_m > 0),
  privacy TEXT NOT NULL DEFAULT 'private' CHECK (privacy IN ('public', 'private')),
  created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  CHECK (mode <> 'CIRCLE' OR radius_m IS NOT NULL),
  CHECK (mode <> 'CORRIDOR' OR width_m IS NOT NULL)
);
CREATE INDEX zones_by_org ON zones (organization_id, created_at);

CREATE TABLE collection_zones (
  collection_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  zone_id TEXT NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
  added_at TEXT NOT NULL,
  PRIMARY KEY (collection_id, zone_id)
) WITHOUT ROWID;
CREATE INDEX collection_zones_by_zone ON collection_zones (zone_id);

CREATE TABLE share_links (
  id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  resource_kind TEXT NOT NULL CHECK (resource_kind IN ('collection', 'itinerary')),
  resource_id TEXT NOT NULL,
  -- SHA-256 hex of the share_ token.
  token_hash TEXT NOT NULL UNIQUE,
  created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
  created_at TEXT NOT NULL,
  -- Set when the link is disabled or rotated; a disabled row is kept for audit and never revived.
  disabled_at TEXT
);
-- At most one live link per resource (rotate = disable + insert, in one transaction).
CREATE UNIQUE INDEX share_links_one_active ON share_links (resource_kind, resource_id) WHERE disabled_at IS NULL;

-- resource_id is polymorphic, so deleting the resource removes its links through triggers.
CREATE TRIGGER collections_delete_share_links AFTER DELETE ON collections BEGIN
  DELETE FROM share_links WHERE resource_kind = 'collection' AND resource_id = OLD.id;
END;
CREATE TRIGGER itineraries_delete_share_links AFTER DELETE ON itineraries BEGIN
  DELETE FROM share_links WHERE resource_kind = 'itinerary' AND resource_id = OLD.id;
END;

CREATE TABLE locks (
  itinerary_id TEXT NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  part_type TEXT NOT NULL CHECK (part_type IN ('segment', 'waypoint', 'segment_group')),
  part_id TEXT NOT NULL,
  holder_user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at TEXT NOT NULL,
  PRIMARY KEY (itinerary_id, part_type, part_id)
) WITHOUT ROWID;
CREATE INDEX locks_by_holder ON locks (holder_user_id);

CREATE TABLE usage_counters (
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- API name, e.g. data, tiles, studio, sessions, mcp, embed.
  api TEXT NOT NULL CHECK (length(api) BETWEEN 1 AND 32),
  -- Epoch minute of the bucket: floor(epoch ms / 60000).
  minute INTEGER NOT NULL CHECK (minute >= 0),
  count INTEGER NOT NULL DEFAULT 0 CHECK (count >= 0),
  PRIMARY KEY (organization_id, api, minute)
) WITHOUT ROWID;

CREATE TABLE oauth_clients (
  id TEXT PRIMARY KEY, -- client_id
  name TEXT,
  -- JSON array of registered redirect URIs.
  redirect_uris TEXT NOT NULL CHECK (json_valid(redirect_uris) AND json_type(redirect_uris) = 'array'),
  token_endpoint_auth_method TEXT NOT NULL DEFAULT 'none',
  -- SHA-256 hex of the client secret, for confidential clients.
  secret_hash TEXT,
  -- Full registration metadata as received (RFC 7591).
  metadata TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata)),
  created_at TEXT NOT NULL
);

CREATE TABLE oauth_codes (
  -- SHA-256 hex of the authorization code.
  code_hash TEXT PRIMARY KEY,
  client_id TEXT NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  -- The publishable key chosen on the consent screen.
  api_key_id TEXT NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  redirect_uri TEXT NOT NULL,
  code_challenge TEXT NOT NULL,
  code_challenge_method TEXT NOT NULL DEFAULT 'S256' CHECK (code_challenge_method = 'S256'),
  scope TEXT,
  resource TEXT,
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  used_at TEXT
);

CREATE TABLE server_settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
