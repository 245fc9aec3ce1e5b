-- Render metering: the first time a chart presents a minted token to the embed origin (it fetches
-- the verification keys with the token id), and a lookup of frame origins by origin alone, for the
-- embed page's frame-ancestors.

ALTER TABLE chart_mints ADD COLUMN rendered_at timestamptz;

CREATE INDEX frame_origins_origin ON frame_origins (origin);
