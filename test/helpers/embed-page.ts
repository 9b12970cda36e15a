// The embed page in the browser tests: a published itinerary to show, and what the page has drawn.

import type { Frame } from 'playwright-core';
import { type Bootstrapped, ownerCalls, type RunningServer } from './server.js';

/** "Valley traverse" (a smart and a freehand segment, group "Day 1" in #2b8a3e), published and filed in the org's collection. */
export async function publishTraverse(server: RunningServer, org: Bootstrapped): Promise<string> {
  const call = ownerCalls(server, org);
  const id = (await call('POST', '/v1/itineraries', { name: 'Valley traverse', privacy: 'public' })).data.id as string;
  await call('POST', `/v1/itineraries/${id}/segments`, { engine: 'smart', from: [1.551, 42.4952], to: [1.5603, 42.4999] });
  await call('POST', `/v1/itineraries/${id}/segments`, {
    engine: 'freehand',
    coordinates: [
      [1.5603, 42.4999],
      [1.5703, 42.5049],
    ],
  });
  const view = (await call('GET', `/v1/itineraries/${id}`)).data;
  await call('POST', `/v1/itineraries/${id}/segment-groups`, { name: 'Day 1', color: '#2b8a3e', segment_ids: [view.segments[0].id] });
  await call('POST', `/v1/itineraries/${id}/publish`);
  await call('PUT', `/v1/collections/${org.collection.id}/itineraries/${id}`);
  return id;
}

/** Resolves once the embed's map has its overlay and is idle (all visible tiles loaded and drawn). */
export function mapIdle(frame: Frame): Promise<string> {
  return frame.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const timeout = setTimeout(() => resolve('timeout'), 20_000);
        const wait = () => {
          const state = (globalThis as any).cairnEmbed;
          const map = state?.map;
          if (map?.loaded() && Object.keys(map.getStyle().sources).length > 1 && state.profileDrawn) {
            map.once('idle', () => {
              clearTimeout(timeout);
              resolve('idle');
            });
            map.triggerRepaint();
          } else setTimeout(wait, 100);
        };
        wait();
      }),
  );
}

export interface Drawn {
  errors: string[];
  /** Rendered features of the itinerary layer. */
  itineraryFeatures: number;
  /** Their segment-group colours. */
  groupColours: string[];
  /** Painted pixels of the elevation profile. */
  painted: number;
  stats: string;
  /** What the map says went wrong (#map-notice), or null while it is hidden. */
  notice: string | null;
}

/** What the embed in `frame` has drawn, and what it says. */
export function drawn(frame: Frame): Promise<Drawn> {
  return frame.evaluate(() => {
    const s = (globalThis as any).cairnEmbed;
    const doc = (globalThis as any).document;
    const canvas = doc.getElementById('profile-canvas');
    const pixels: Uint8ClampedArray = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) painted++;
    const itinerary = s.map.queryRenderedFeatures().filter((f: any) => f.sourceLayer === 'itineraries');
    const notice = doc.getElementById('map-notice');
    return {
      errors: s.errors,
      itineraryFeatures: itinerary.length,
      groupColours: [...new Set(itinerary.map((f: any) => f.properties.color))] as string[],
      painted,
      stats: doc.getElementById('profile-stats').textContent as string,
      notice: notice.hidden ? null : (notice.textContent as string),
    };
  });
}
