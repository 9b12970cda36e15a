-- The PostgreSQL twin of data/migrations/0005-waypoint-description.sql: a waypoint's own text, null when
-- it has none.
ALTER TABLE waypoints ADD COLUMN description text;
