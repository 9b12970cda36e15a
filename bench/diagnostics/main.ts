// The diagnostic server: Cairn exactly as served (server/serve.ts, same configuration and environment) plus the
// /_diagnostics/* routes the benchmarks and the time-budget tests call. Built with the server into
// dist/bench/diagnostics/main.js; the production entry (server/main.ts) never registers these routes.

import { serve } from '../../server/serve.js';
import { diagnosticRoutes } from './diagnostic-routes.js';
import { directionsPeerRoute } from './directions-peer-route.js';

serve({ extraRoutes: ({ dataApi }) => [...diagnosticRoutes(), ...directionsPeerRoute(dataApi.resolvers)] }).catch((error: unknown) => {
  process.stderr.write(`cairn diagnostics: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
