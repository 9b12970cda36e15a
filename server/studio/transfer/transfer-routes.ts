// Route definitions of this group of Studio operations (DESIGN §6). Operations not listed here are still
// declared in ../operations.ts and answer 501 until they are built.

import type { RouteDef } from '../../http/route.js';
import type { StudioDeps } from '../studio-deps.js';

export function transferRoutes(_deps: StudioDeps): RouteDef[] {
  return [];
}
