// The server under test on a folder of demo valleys (REGIONS_PATH, looked at every 200 ms), with an organization whose
// Data API quota no test reaches, and its GraphQL as the tests of several regions ask it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DemoPlacement } from '../../../data/region/demo-region.js';
import { writeValley } from '../../helpers/demo-valleys.js';
import { admin, bootstrap, type Bootstrapped, type RunningServer, startServer } from '../../helpers/server.js';
import { type Caller, callerOf, mintSession, postGraphql } from '../data-api/data-api-client.js';

type Json = any;

export interface RegionsServer {
  /** The folder of regions. */
  root: string;
  server: RunningServer;
  org: Bootstrapped;
  caller: Caller;
  /** A GraphQL answer's body (status 200 checked). */
  graphql(query: string, variables?: Record<string, unknown>): Promise<Json>;
  /** A GraphQL answer's data, no error allowed. */
  data(query: string, variables?: Record<string, unknown>): Promise<Json>;
  stop(): Promise<void>;
}

/** Writes each valley as a region folder under a new folder and starts the server on it. */
export async function startOnValleys(valleys: Record<string, DemoPlacement>): Promise<RegionsServer> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-regions-'));
  for (const [name, placement] of Object.entries(valleys)) await writeValley(join(root, name), placement);
  const server = await startServer({ SEED_DEMO: '0', REGIONS_PATH: root, REGIONS_POLL_MS: '200' });
  const org = bootstrap(server);
  admin(server, 'set', '--org', org.organization.id, 'quota.data=1000000');
  const caller = callerOf(org, await mintSession(server, org));
  const graphql = async (query: string, variables: Record<string, unknown> = {}) => {
    const r = await postGraphql(server, caller, { query, variables });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  return {
    root,
    server,
    org,
    caller,
    graphql,
    async data(query, variables = {}) {
      const body = await graphql(query, variables);
      expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
      return body.data;
    },
    async stop() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
