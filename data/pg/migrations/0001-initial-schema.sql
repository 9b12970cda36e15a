-- The PostgreSQL schema: the same tables as data/migrations/ (the SQLite schema, 0001-0004), in PostgreSQL's own
-- types. Versioned on its own (schema_migrations here counts these files only); never edit a file once merged.
-- Conventions: ids are uuid text (crypto.randomUUID); timestamps are timestamptz (millisecond values, read back as
-- ISO 8601 UTC strings); lists and maps are json (kept as written: key order survives, unlike jsonb); `seq` columns
-- give rows the insertion order SQLite's rowid gives them (ties on created_at are broken by it).

CREATE TABLE organizations (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  require_session_token boolean NOT NULL DEFAULT false,
  quota_data bigint NOT NULL DEFAULT 60 CHECK (quota_data >= 0),
  quota_tiles bigint NOT NULL DEFAULT 600 CHECK (quota_tiles >= 0),
  embed_layers json NOT NULL DEFAULT '["trails","itineraries","waypoints","zones"]' CHECK (json_typeof(embed_layers) = 'array'),
  embed_planner boolean NOT NULL DEFAULT false,
  default_allowed_origins json NOT NULL DEFAULT '[]' CHECK (json_typeof(default_allowed_origins) = 'array'),
  limits json NOT NULL DEFAULT '{}' CHECK (json_typeof(limits) = 'object'),
  product_studio boolean NOT NULL DEFAULT false,
  product_data boolean NOT NULL DEFAULT false,
  product_intelligence boolean NOT NULL DEFAULT false,
  card_on_file boolean NOT NULL DEFAULT false,
  ai_settings json NOT NULL DEFAULT '{}' CHECK (json_typeof(ai_settings) = 'object'),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL CHECK (char_length(email) BETWEEN 3 AND 320 AND strpos(email, '@') > 1),
  password_hash text NOT NULL CHECK (password_hash LIKE 'scrypt$%'),
  name text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- Emails are unique without regard to case (SQLite: COLLATE NOCASE, which folds ASCII only, as lower() does here
-- for the addresses the API accepts).
CREATE UNIQUE INDEX users_email_unique ON users (lower(email));

CREATE TABLE memberships (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'contributor', 'viewer')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_by_user ON memberships (user_id);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('pk', 'sk')),
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  scopes json NOT NULL DEFAULT '[]' CHECK (json_typeof(scopes) = 'array'),
  allowed_origins json NOT NULL DEFAULT '[]' CHECK (json_typeof(allowed_origins) = 'array'),
  key_value text UNIQUE,
  key_hash text UNIQUE,
  key_hint text NOT NULL,
  created_at timestamptz NOT NULL,
  revoked_at timestamptz,
  CHECK (
    (type = 'pk' AND key_value IS NOT NULL AND key_hash IS NULL)
    OR (type = 'sk' AND key_hash IS NOT NULL AND key_value IS NULL)
  )
);
CREATE INDEX api_keys_by_org ON api_keys (organization_id, created_at);

CREATE TABLE collections (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  scope text NOT NULL DEFAULT 'organization' CHECK (scope IN ('organization', 'personal')),
  owner_user_id text REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('public', 'private')),
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((scope = 'personal') = (owner_user_id IS NOT NULL))
);
CREATE UNIQUE INDEX collections_name_unique ON collections (organization_id, scope, coalesce(owner_user_id, ''), name);
CREATE INDEX collections_by_org ON collections (organization_id, created_at);
CREATE INDEX collections_by_owner ON collections (owner_user_id) WHERE owner_user_id IS NOT NULL;

CREATE TABLE itineraries (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  activity text NOT NULL DEFAULT 'HIKING_AND_TRAIL'
    CHECK (activity IN ('HIKING_AND_TRAIL', 'WALKING', 'TRAIL_RUNNING', 'MOUNTAIN_BIKING', 'ROAD_CYCLING')),
  privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('public', 'private')),
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  draft_version integer NOT NULL DEFAULT 1 CHECK (draft_version >= 1),
  published_snapshot json,
  published_at timestamptz,
  published_version integer,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  UNIQUE (organization_id, name),
  CHECK ((published_snapshot IS NULL) = (published_at IS NULL) AND (published_at IS NULL) = (published_version IS NULL))
);

CREATE TABLE collection_itineraries (
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  itinerary_id text NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (collection_id, itinerary_id)
);
CREATE INDEX collection_itineraries_by_itinerary ON collection_itineraries (itinerary_id);

CREATE TABLE segment_groups (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  itinerary_id text NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  name text NOT NULL,
  color text NOT NULL,
  speed double precision CHECK (speed IS NULL OR speed > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX segment_groups_by_itinerary ON segment_groups (itinerary_id);

CREATE TABLE segments (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  itinerary_id text NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 0),
  engine text NOT NULL CHECK (engine IN ('smart', 'freehand')),
  -- Float64 little-endian lon, lat, ele triples (degrees, degrees, metres; NaN = no elevation).
  geometry bytea NOT NULL CHECK (octet_length(geometry) % 24 = 0),
  distance double precision NOT NULL DEFAULT 0,
  ascent double precision NOT NULL DEFAULT 0,
  descent double precision NOT NULL DEFAULT 0,
  duration double precision NOT NULL DEFAULT 0,
  name text,
  description text,
  group_id text REFERENCES segment_groups (id) ON DELETE SET NULL,
  hazards json NOT NULL DEFAULT '[]' CHECK (json_typeof(hazards) = 'array'),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX segments_by_itinerary ON segments (itinerary_id, position);
CREATE INDEX segments_by_group ON segments (group_id) WHERE group_id IS NOT NULL;

CREATE TABLE waypoints (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  itinerary_id text NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  position integer NOT NULL CHECK (position >= 0),
  lon double precision NOT NULL CHECK (lon BETWEEN -180 AND 180),
  lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
  ele double precision,
  name text,
  kind text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX waypoints_by_itinerary ON waypoints (itinerary_id, position);

CREATE TABLE zones (
  id text PRIMARY KEY,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 200),
  description text NOT NULL DEFAULT '',
  level text NOT NULL CHECK (level IN ('INFO', 'WARNING', 'DANGER', 'PROHIBITED')),
  mode text NOT NULL CHECK (mode IN ('POLYGON', 'CIRCLE', 'CORRIDOR')),
  geometry json NOT NULL,
  radius_m double precision CHECK (radius_m IS NULL OR radius_m > 0),
  width_m double precision CHECK (width_m IS NULL OR width_m > 0),
  privacy text NOT NULL DEFAULT 'private' CHECK (privacy IN ('public', 'private')),
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (mode <> 'CIRCLE' OR radius_m IS NOT NULL),
  CHECK (mode <> 'CORRIDOR' OR width_m IS NOT NULL)
);
CREATE INDEX zones_by_org ON zones (organization_id, created_at);

CREATE TABLE collection_zones (
  collection_id text NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
  zone_id text NOT NULL REFERENCES zones (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL,
  PRIMARY KEY (collection_id, zone_id)
);
CREATE INDEX collection_zones_by_zone ON collection_zones (zone_id);

CREATE TABLE share_links (
  id text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  resource_kind text NOT NULL CHECK (resource_kind IN ('collection', 'itinerary')),
  resource_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL,
  disabled_at timestamptz
);
CREATE UNIQUE INDEX share_links_one_active ON share_links (resource_kind, resource_id) WHERE disabled_at IS NULL;

-- resource_id is polymorphic, so deleting the resource removes its links through triggers.
CREATE FUNCTION delete_share_links() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM share_links WHERE resource_kind = TG_ARGV[0] AND resource_id = OLD.id;
  RETURN OLD;
END;
$$;
CREATE TRIGGER collections_delete_share_links AFTER DELETE ON collections
  FOR EACH ROW EXECUTE FUNCTION delete_share_links('collection');
CREATE TRIGGER itineraries_delete_share_links AFTER DELETE ON itineraries
  FOR EACH ROW EXECUTE FUNCTION delete_share_links('itinerary');

CREATE TABLE locks (
  itinerary_id text NOT NULL REFERENCES itineraries (id) ON DELETE CASCADE,
  part_type text NOT NULL CHECK (part_type IN ('segment', 'waypoint', 'segment_group')),
  part_id text NOT NULL,
  holder_user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (itinerary_id, part_type, part_id)
);
CREATE INDEX locks_by_holder ON locks (holder_user_id);
CREATE INDEX locks_by_expiry ON locks (expires_at);

CREATE TABLE usage_counters (
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  api text NOT NULL CHECK (char_length(api) BETWEEN 1 AND 32),
  minute bigint NOT NULL CHECK (minute >= 0),
  count bigint NOT NULL DEFAULT 0 CHECK (count >= 0),
  PRIMARY KEY (organization_id, api, minute)
);

CREATE TABLE oauth_clients (
  id text PRIMARY KEY,
  name text,
  redirect_uris json NOT NULL CHECK (json_typeof(redirect_uris) = 'array'),
  token_endpoint_auth_method text NOT NULL DEFAULT 'none',
  secret_hash text,
  metadata json NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  fetched_at timestamptz
);

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  api_key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  code_challenge_method text NOT NULL DEFAULT 'S256' CHECK (code_challenge_method = 'S256'),
  scope text,
  resource text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE server_settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  updated_at timestamptz NOT NULL
);

CREATE TABLE oauth_refresh_tokens (
  token_hash text PRIMARY KEY,
  family_id text NOT NULL,
  client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  api_key_id text NOT NULL REFERENCES api_keys (id) ON DELETE CASCADE,
  scope text,
  resource text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX oauth_refresh_tokens_family ON oauth_refresh_tokens (family_id);

CREATE TABLE oauth_revoked_families (
  family_id text PRIMARY KEY,
  revoked_at timestamptz NOT NULL
);
