-- Whether the organization's members may open the planner inside its embeds (the planner page may then be framed by
-- the allowed origins of the publishable key it is opened with).
ALTER TABLE organizations ADD COLUMN embed_planner INTEGER NOT NULL DEFAULT 0 CHECK (embed_planner IN (0, 1));
