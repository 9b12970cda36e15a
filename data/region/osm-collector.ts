// Collects the OSM entities a region needs (all node positions, routable ways, place and address
// objects, hiking route relations) from any source: the PBF reader or the demo generator.
import { placeKind } from './places.js';
import { routableHighway, type Tags } from './osm-tags.js';

export interface OsmNode {
  id: number;
  lon: number; // degrees
  lat: number; // degrees
  tags?: Tags;
}

export interface OsmWay {
  id: number;
  refs: readonly number[];
  tags?: Tags;
}

export interface OsmMember {
  type: 'node' | 'way' | 'relation';
  ref: number;
  role: string;
}

export interface OsmRelation {
  id: number;
  members: readonly OsmMember[];
  tags?: Tags;
}

/** A way or node kept for the places list, before its position is resolved. */
export interface PlaceSource {
  osmType: 'node' | 'way';
  osmId: number;
  tags: Tags;
  /** Node slots (positions in the collector's coordinate arrays) whose mean is the place's position. */
  slots: number[];
}

const EMPTY: Tags = Object.freeze({});

/** Accumulates entities; feed nodes before the ways that use them (PBF order). */
export class OsmCollector {
  /** OSM node id → slot in `lon`/`lat`. */
  readonly slotOf = new Map<number, number>();
  lon: number[] = [];
  lat: number[] = [];
  readonly ways: OsmWay[] = [];
  readonly placeNodes: PlaceSource[] = [];
  readonly placeWays: OsmWay[] = [];
  readonly routes: OsmRelation[] = [];
  counts = { nodes: 0, ways: 0, relations: 0 };

  addNode(n: OsmNode): void {
    this.counts.nodes++;
    let slot = this.slotOf.get(n.id);
    if (slot === undefined) {
      slot = this.lon.length;
      this.slotOf.set(n.id, slot);
      this.lon.push(n.lon);
      this.lat.push(n.lat);
    } else {
      this.lon[slot] = n.lon;
      this.lat[slot] = n.lat;
    }
    if (n.tags && placeKind(n.tags) !== null) {
      this.placeNodes.push({ osmType: 'node', osmId: n.id, tags: n.tags, slots: [slot] });
    }
  }

  addWay(w: OsmWay): void {
    this.counts.ways++;
    const tags = w.tags ?? EMPTY;
    if (routableHighway(tags) !== null) this.ways.push({ id: w.id, refs: w.refs, tags });
    if (placeKind(tags) !== null) this.placeWays.push({ id: w.id, refs: w.refs, tags });
  }

  addRelation(r: OsmRelation): void {
    this.counts.relations++;
    const t = r.tags;
    if (t && t.type === 'route' && (t.route === 'hiking' || t.route === 'foot')) this.routes.push(r);
  }

  /** Place sources of nodes and ways; way positions use the way's (known) nodes. */
  placeSources(): PlaceSource[] {
    const out = [...this.placeNodes];
    for (const w of this.placeWays) {
      const refs = w.refs.length > 1 && w.refs[0] === w.refs[w.refs.length - 1] ? w.refs.slice(1) : w.refs;
      const slots: number[] = [];
      for (const ref of refs) {
        const s = this.slotOf.get(ref);
        if (s !== undefined) slots.push(s);
      }
      if (slots.length > 0) out.push({ osmType: 'way', osmId: w.id, tags: w.tags ?? EMPTY, slots });
    }
    return out;
  }
}
