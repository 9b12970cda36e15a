-- A waypoint's own text (what is there, when it is open…): null when it has none. Imports keep a file's
-- waypoint descriptions here (GPX desc and cmt, KML and GeoJSON description).
ALTER TABLE waypoints ADD COLUMN description TEXT;
