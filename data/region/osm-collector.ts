// Collects OSM entities held as objects (all node positions, routable ways, place and address objects,
// hiking route relations), as the demo generator makes them, and turns them into an OsmExtract.
import { meanPosition, type OsmExtract, type PlaceSource, ringRefs } from './osm-extract.js';
import { bikeOneway, packedAccess, routableHighway, sacScale, type Tags, wayFlags } from './osm-tags.js';
import { placeKind } from './places.js';

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

const EMPTY: Tags = Object.freeze({});

/** Accumulates entities; feed nodes before the ways that use them (PBF order). */
export class OsmCollector {
  /** OSM node id → slot in `lon`/`lat`. */
  readonly slotOf = new Map<number, number>();
  lon: number[] = [];
  lat: number[] = [];
  readonly ways: OsmWay[] = [];
  readonly placeNodes: Array<{ id: number; tags: Tags; slot: number }> = [];
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
      this.placeNodes.push({ id: n.id, tags: n.tags, slot });
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

  /** The flat form buildRegion reads; slots are the collector's own. */
  toExtract(): OsmExtract {
    const lon = Float64Array.from(this.lon);
    const lat = Float64Array.from(this.lat);
    const n = this.ways.length;
    const refStart = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) refStart[i + 1] = refStart[i]! + this.ways[i]!.refs.length;
    const slots = new Int32Array(refStart[n]!);
    const ways = {
      count: n,
      id: new Float64Array(n),
      refStart,
      slots,
      highway: new Uint8Array(n),
      sac: new Uint8Array(n),
      flags: new Uint8Array(n),
      access: new Uint16Array(n),
      oneway: new Int8Array(n),
      name: [] as string[],
      surface: [] as string[],
    };
    this.ways.forEach((w, i) => {
      const t = w.tags ?? EMPTY;
      ways.id[i] = w.id;
      w.refs.forEach((ref, k) => {
        slots[refStart[i]! + k] = this.slotOf.get(ref) ?? -1;
      });
      ways.highway[i] = routableHighway(t)!;
      ways.sac[i] = sacScale(t);
      ways.flags[i] = wayFlags(t);
      ways.access[i] = packedAccess(t);
      ways.oneway[i] = bikeOneway(t);
      ways.name.push(t.name ?? '');
      ways.surface.push(t.surface ?? '');
    });
    return { counts: { ...this.counts }, lon, lat, ways, places: this.placeSources(lon, lat), routes: this.routeSources() };
  }

  /** Place sources of nodes, then ways (position = mean of the way's known nodes). */
  private placeSources(lon: Float64Array, lat: Float64Array): PlaceSource[] {
    const out: PlaceSource[] = [];
    for (const p of this.placeNodes) {
      const [x, y] = meanPosition([p.slot], lon, lat)!;
      out.push({ osmType: 'node', osmId: p.id, tags: p.tags, lon: x, lat: y });
    }
    for (const w of this.placeWays) {
      const slots: number[] = [];
      for (const ref of ringRefs(w.refs)) {
        const s = this.slotOf.get(ref);
        if (s !== undefined) slots.push(s);
      }
      const at = meanPosition(slots, lon, lat);
      if (at) out.push({ osmType: 'way', osmId: w.id, tags: w.tags ?? EMPTY, lon: at[0], lat: at[1] });
    }
    return out;
  }

  private routeSources(): OsmExtract['routes'] {
    return this.routes.map((r) => ({
      id: r.id,
      tags: r.tags ?? EMPTY,
      wayIds: r.members.filter((m) => m.type === 'way').map((m) => m.ref),
    }));
  }
}
