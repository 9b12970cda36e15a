-- The restrictions a segment's line crosses for its itinerary's activity (toll ways, access-restricted ways), as
-- routed or measured: a JSON array of {kind, from, to} (metres along the segment). The planner asks before keeping
-- a placement through one; reading a saved segment never asks again.
ALTER TABLE segments ADD COLUMN hazards TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(hazards) AND json_type(hazards) = 'array');
