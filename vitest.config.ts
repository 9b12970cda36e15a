import { defineConfig } from 'vitest/config';
import { clusterUnavailable } from './test/helpers/cluster.js';

/**
 * End-to-end suites that run a second time through a scaled-out deployment: three nodes on PostgreSQL and Redis
 * behind HAProxy (test/helpers/cluster.ts), by CAIRN_TEST_CLUSTER=1, which makes `startServer` start one: the suites
 * of state that several nodes share (sessions and quotas, the Studio's writes, locks and their guards, the live
 * channel, tiles of published content, OAuth and MCP, the agent). Suites that read or write the SQLite file
 * themselves, restart a server on it, or test one process's HTTP edge stay out; so do those of stateless reads
 * (region fields, trail tiles), which a second node changes nothing about; those pass through it too (run one so with
 * `CAIRN_TEST_CLUSTER=1 npx vitest run --project one-process <file>`).
 */
const SCALED_OUT_SUITES = [
  'test/server/auth/sessions.e2e.test.ts',
  'test/server/auth/organization-rules.e2e.test.ts',
  'test/server/studio/itineraries/itinerary-chain.e2e.test.ts',
  'test/server/studio/itineraries/itinerary-crud.e2e.test.ts',
  'test/server/studio/itineraries/itinerary-guards.e2e.test.ts',
  'test/server/data-api/graphql-http.e2e.test.ts',
  'test/server/tiles/overlay-tiles.e2e.test.ts',
  'test/server/live/live-channel.e2e.test.ts',
  'test/server/mcp/mcp-server.e2e.test.ts',
  'test/server/mcp/mcp-oauth.e2e.test.ts',
  'test/server/mcp/mcp-tool-results.e2e.test.ts',
  'test/server/oauth/oauth-errors.e2e.test.ts',
  'test/server/auth/sign-in-throttle.e2e.test.ts',
  'test/server/embed/embed-page.e2e.test.ts',
  'test/server/agent/agent.e2e.test.ts',
];

export default defineConfig(async () => {
  // The scaled-out pass needs PostgreSQL, Redis and HAProxy; without them it is left out, saying why.
  const unavailable = await clusterUnavailable();
  if (unavailable) console.warn(`scaled-out suites skipped: ${unavailable}`);
  return {
    test: {
      passWithNoTests: false,
      testTimeout: 30_000,
      hookTimeout: 120_000,
      pool: 'forks',
      projects: [
        { extends: true, test: { name: 'one-process', include: ['test/**/*.test.ts'] } },
        ...(unavailable
          ? []
          : [
              {
                extends: true as const,
                test: {
                  name: 'scaled-out',
                  include: SCALED_OUT_SUITES,
                  env: { CAIRN_TEST_CLUSTER: '1' },
                  // Each suite starts three nodes: one suite at a time, after the one-process suites, keeps this
                  // machine's cores for them.
                  fileParallelism: false,
                  sequence: { groupOrder: 1 },
                },
              },
            ]),
      ],
    },
  };
});
