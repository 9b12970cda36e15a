// Process entry: Cairn as served (./serve.ts); a failed start prints one line and exits 1.

import { serve } from './serve.js';

serve().catch((error: unknown) => {
  process.stderr.write(`cairn: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
