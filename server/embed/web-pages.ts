// The studio's browser front end (server/embed/web/): the ES modules, styles and page templates of the embed page and
// the planner. Its files are served under /studio/assets from the source tree (system-routes.ts), and its templates
// read once here.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../paths.js';

/** The front end's folder: served as it is (no build step: the browser loads the modules). */
export const WEB_DIR = join(REPO_ROOT, 'server', 'embed', 'web');

/** Where the pages find their scripts and styles (the route of system-routes.ts). */
export const ASSETS_PATH = '/studio/assets';

/** A page template of the front end (`embed.html`), read once. */
export function pageTemplate(name: 'embed.html' | 'planner.html'): string {
  return readFileSync(join(WEB_DIR, name), 'utf8');
}
