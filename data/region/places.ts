// Places of a region (peaks, huts, shelters, viewpoints, settlements, addresses): kinds and records.
import type { Tags } from './osm-tags.js';
import type { PlaceKind } from '../../contracts/region-lookup.js';

export interface Place {
  /** Index in the region's places list. */
  id: number;
  osmType: 'node' | 'way';
  osmId: number;
  kind: PlaceKind;
  /** `name` tag, "" when untagged. */
  name: string;
  lon: number; // degrees; for a way, the mean of its nodes
  lat: number; // degrees
  /** Metres: the DEM at the position, else the `ele` tag, else null. */
  ele: number | null;
  /** Metres from the `ele` tag, null when absent or unreadable. */
  eleTag: number | null;
  houseNumber: string | null; // addr:housenumber
  street: string | null; // addr:street
}

/**
 * The kind of an OSM object as a place, or null. The first match wins in this order:
 * natural=peak, tourism=alpine_hut|wilderness_hut, amenity=shelter, tourism=viewpoint,
 * place=town|village|hamlet, then addr:housenumber + addr:street (an address).
 */
export function placeKind(tags: Tags): PlaceKind | null {
  if (tags.natural === 'peak') return 'peak';
  const tourism = tags.tourism;
  if (tourism === 'alpine_hut' || tourism === 'wilderness_hut') return tourism;
  if (tags.amenity === 'shelter') return 'shelter';
  if (tourism === 'viewpoint') return 'viewpoint';
  const place = tags.place;
  if (place === 'town' || place === 'village' || place === 'hamlet') return place;
  if (tags['addr:housenumber'] !== undefined && tags['addr:street'] !== undefined) return 'address';
  return null;
}
