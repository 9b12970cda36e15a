// Wire shapes of import and export: the formats, the problems a file can have, what an import loses and the
// plan it makes, shared by the transfer task module and the transfer operations.
import type { ItineraryView } from './itinerary-view.js';

export const EXPORT_FORMATS = ['gpx', 'kml', 'geojson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Why a file cannot be imported (the message table's keys). */
export type ProblemKey =
  | 'empty'
  | 'not_text'
  | 'malformed_xml'
  | 'malformed_xml_at'
  | 'not_gpx_or_kml'
  | 'malformed_json'
  | 'json_too_deep'
  | 'not_geojson'
  | 'kmz_broken'
  | 'kmz_encrypted'
  | 'kmz_no_kml'
  | 'kmz_too_large'
  | 'no_line'
  | 'out_of_range'
  | 'too_short';

/** What a malformed XML file claimed to be (its root element), named in the message. */
export type XmlFormat = 'gpx' | 'kml' | 'xml';

/** The kinds of loss, in the order the warnings list them. Stable, machine-readable: clients branch on them. */
export const LOSS_KINDS = [
  'track_point_time',
  'track_point_extension',
  'waypoint_time',
  'waypoint_symbol',
  'waypoint_moved_onto_track',
  'waypoint_same_track_point',
  'style',
  'feature_properties',
  'other_geometry',
  'route',
] as const;
export type LossKind = (typeof LOSS_KINDS)[number];

/** One loss as the worker reports it: the kind, how many, and for moved waypoints the farthest move (metres). */
export interface ImportLoss {
  kind: LossKind;
  count: number;
  /** waypoint_moved_onto_track: the longest distance a waypoint was moved, in metres, rounded up. */
  distance_m?: number;
}

/** Distance within which a waypoint counts as lying on the line (metres); farther ones are moved onto it. */
export const SPLIT_DISTANCE_M = 25;
/** Distance within which a bare point is a track point drawn again (metres). */
export const DECORATION_DISTANCE_M = 1;

export interface ImportPlan {
  /** One flat lon,lat,ele array per segment (NaN where the file gave no elevation); neighbours share their junction. */
  lines: number[][];
  /** W0..Wn: exactly lines.length + 1 junctions, in order. */
  waypoints: { name?: string; kind?: string; description?: string; coordinates: number[] }[];
  /** What the file holds that the itinerary does not keep, by kind (empty when nothing is lost). */
  losses: ImportLoss[];
}

export interface ReadImportInput {
  /** The uploaded file: bytes, or the document itself when the transport already parsed JSON. */
  content: unknown;
  /** Lower-cased media type without parameters; empty when none was given. */
  mediaType: string;
  /** Most bytes a KMZ's KML may unpack to. */
  inflateLimit: number;
}
export interface ReadImportOutput {
  ok: true;
  /** The file's own name, its first track's name and its description, cleaned (lib/import-text.ts). */
  name?: string;
  trackName?: string;
  description?: string;
  plan: ImportPlan;
}
export interface WriteExportInput {
  view: ItineraryView;
  format: ExportFormat;
}

/** A file that cannot be imported: the problem, rendered in the caller's language by the transfer operations. */
export interface ImportFileProblem {
  ok: false;
  problem: { key: ProblemKey; params: Record<string, string | number> };
}
