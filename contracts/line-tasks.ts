// Wire shapes of the line tasks (analysis, measuring drawn lines, splitting, nearest points).
import type { Activity } from './activity.js';
import type { LonLat, MeasuredLine } from './routing.js';
import type { OnRegion } from './region-ref.js';

export interface AnalyzeInput extends OnRegion {
  activity: Activity;
  coordinates: LonLat[];
}
export interface AnalyzeOutput {
  ok: true;
  analysis: MeasuredLine & {
    matchedFraction: number;
    /** Distance along the line (m) and DEM elevation (m, null where the region has none) at each of its points. */
    elevationProfile: { distance: number; elevation: number | null }[];
  };
}

/** Distance (m) along a line and its ascent and descent (m) from the line's own elevations. */
export interface LineMeasures {
  distance: number;
  ascent: number;
  descent: number;
}

/** A freehand line as drawn, measured: `coordinates` flat lon,lat,ele (degrees, degrees, metres). */
export type MeasuredFreehand = Pick<MeasuredLine, 'coordinates' | 'distance' | 'duration' | 'ascent' | 'descent'>;

export interface MeasureLinesInput extends OnRegion {
  activity: Activity;
  /** One flat lon,lat,ele array per line (NaN = no elevation), at least two points each. */
  lines: number[][];
  /**
   * Where elevations come from: `dem`, the region's elevation model at every point; `recorded`, a line's
   * own elevations when every point of it has one (ascent and descent then measured on them), else the DEM.
   */
  elevation: 'dem' | 'recorded';
}
export interface MeasureLinesOutput {
  ok: true;
  lines: MeasuredFreehand[];
}

export interface SplitLineInput {
  /** Flat lon,lat,ele (NaN = unknown elevation), at least two points. */
  coordinates: number[];
  point: LonLat;
}
export interface SplitLineOutput {
  ok: true;
  /** The point of the line nearest the requested one (lon, lat, interpolated ele), where both parts meet. */
  at: [number, number, number];
  /** The line up to `at` and from `at` on, flat lon,lat,ele, each measured on its own vertices. */
  head: number[];
  tail: number[];
  headMeasures: LineMeasures;
  tailMeasures: LineMeasures;
}

export interface NearestPointsInput {
  points: LonLat[];
  candidates: LonLat[];
  /** Farthest (m) a candidate may be from a point to be its nearest. */
  within: number;
}
export interface NearestPointsOutput {
  ok: true;
  /** For each point, the index of its nearest candidate within `within` (the first on ties), or -1. */
  nearest: number[];
}
