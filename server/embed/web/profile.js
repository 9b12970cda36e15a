// The elevation profile the embed page and the planner draw under the map: distance along the itinerary against
// elevation, each stretch filled in the colour of its segment's group. One module for both pages.

/** @typedef {import('./types.js').Itinerary} Itinerary */

/** A segment's colour when it belongs to no group. */
export const DEFAULT_COLOUR = '#d9480f';

/**
 * Great-circle metres between two [lon, lat] positions.
 * @param {number[]} a
 * @param {number[]} b
 */
function metres(a, b) {
  const rad = Math.PI / 180;
  const dLat = (b[1] - a[1]) * rad;
  const dLon = (b[0] - a[0]) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * rad) * Math.cos(b[1] * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

/**
 * Draws `view` (an itinerary as the Studio API answers it) on `canvas`; false when it has no elevations to show.
 * @param {HTMLCanvasElement} canvas
 * @param {Itinerary} view
 */
export function drawProfile(canvas, view) {
  /** @type {Record<string, string>} */
  const colours = {};
  for (const g of view.groups) colours[g.id] = g.color;
  /** @type {{ d: number, e: number, colour: string }[]} */
  const points = [];
  let distance = 0;
  let previous = null;
  for (const s of view.segments) {
    const colour = (s.groupId && colours[s.groupId]) || DEFAULT_COLOUR;
    for (const c of s.geometry.coordinates) {
      if (previous) distance += metres(previous, c);
      previous = c;
      if (c.length > 2) points.push({ d: distance, e: c[2], colour });
    }
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return false;
  const width = (canvas.width = canvas.clientWidth * (window.devicePixelRatio || 1));
  const height = (canvas.height = canvas.clientHeight * (window.devicePixelRatio || 1));
  ctx.clearRect(0, 0, width, height);
  if (points.length < 2) return false;
  let low = Infinity;
  let high = -Infinity;
  for (const p of points) {
    low = Math.min(low, p.e);
    high = Math.max(high, p.e);
  }
  const span = Math.max(high - low, 10);
  const total = points[points.length - 1].d || 1;
  const x = (/** @type {number} */ d) => (d / total) * width;
  const y = (/** @type {number} */ e) => height - 6 - ((e - low) / span) * (height - 12);
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1];
    const b = points[i];
    ctx.beginPath();
    ctx.moveTo(x(a.d), height);
    ctx.lineTo(x(a.d), y(a.e));
    ctx.lineTo(x(b.d), y(b.e));
    ctx.lineTo(x(b.d), height);
    ctx.closePath();
    ctx.globalAlpha = 0.35;
    ctx.fillStyle = b.colour;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.beginPath();
    ctx.moveTo(x(a.d), y(a.e));
    ctx.lineTo(x(b.d), y(b.e));
    ctx.strokeStyle = b.colour;
    ctx.lineWidth = 2;
    ctx.stroke();
  }
  return true;
}
