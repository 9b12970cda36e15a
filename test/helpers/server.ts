// Starts the real server (compiled dist/server/main.js, or with `diagnostics` the diagnostic server
// dist/bench/diagnostics/main.js: the same server plus the /_diagnostics/* routes) on a free port with a
// temporary database.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const MAIN_JS = join(REPO_ROOT, 'dist', 'server', 'main.js');
export const DIAGNOSTIC_MAIN_JS = join(REPO_ROOT, 'dist', 'bench', 'diagnostics', 'main.js');

/** What the helpers below need of a server under test: a process (startServer) or the app in-process (./in-process.ts). */
export interface ServerUnderTest {
  url: string;
  dataDir: string;
  /** The environment the admin command needs to reach this server's database (default: DATABASE_PATH in dataDir). */
  adminEnv?: Record<string, string>;
  /** The fetch that reaches it: the global one over a socket, or one through the pipeline in-process. */
  fetch: typeof fetch;
  /** Everything the server logged so far. */
  stdout(): string;
  stop(): Promise<unknown>;
  /**
   * In-process only: commits the app's open write batch now. A synchronous child process (the admin command) blocks
   * this event loop, so a batch left open would hold the database's write lock against it.
   */
  commitPending?(): void;
}

export interface RunningServer extends ServerUnderTest {
  port: number;
  proc: ChildProcess;
  stderr(): string;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Waits until stdout contains `text` (log lines are flushed once per event-loop turn). */
  waitForOutput(text: string, timeoutMs?: number): Promise<void>;
}

/**
 * Starts the server on a fresh temporary database, or on `options.dataDir` (kept after stop, so a test can
 * restart a server on the same database). With CAIRN_TEST_CLUSTER=1 in the test's environment, a suite gets a
 * scaled-out deployment instead (three nodes on PostgreSQL and Redis behind HAProxy: ./cluster.ts), unless it
 * needs the SQLite file itself (`dataDir`) or asks for one process (`alone`).
 */
export async function startServer(
  env: Record<string, string> = {},
  options: { dataDir?: string; alone?: boolean; diagnostics?: boolean } = {},
): Promise<RunningServer> {
  if (process.env.CAIRN_TEST_CLUSTER === '1' && !options.alone && options.dataDir === undefined) {
    const { startCluster } = await import('./cluster.js');
    return startCluster(env, { diagnostics: options.diagnostics });
  }
  const entry = options.diagnostics ? DIAGNOSTIC_MAIN_JS : MAIN_JS;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run "npm run build" first (npm test does).`);
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'cairn-test-'));
  const proc = spawn(process.execPath, [entry], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: join(dataDir, 'platform.db'),
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));

  const waitForOutput = async (text: string, timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (Date.now() > until) throw new Error(`timed out waiting for "${text}"; stdout:\n${out}\nstderr:\n${err}`);
      if (proc.exitCode !== null) throw new Error(`server exited (${proc.exitCode}); stderr:\n${err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await waitForOutput('"msg":"listening"', 30_000);
  const line = out.split('\n').find((l) => l.includes('"msg":"listening"')) as string;
  const port = (JSON.parse(line) as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    proc,
    dataDir,
    fetch: globalThis.fetch,
    stdout: () => out,
    stderr: () => err,
    waitForOutput,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      const code = await exited;
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** Parsed JSON log lines of a server's stdout. */
export function logLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Runs the admin command against a running server's database and returns its JSON output. */
export function admin<T = Record<string, any>>(server: ServerUnderTest, ...args: string[]): T {
  server.commitPending?.();
  const run = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'server', 'management', 'admin', 'admin.js'), ...args, '--json'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...(server.adminEnv ?? { DATABASE_PATH: join(server.dataDir, 'platform.db') }) },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`admin ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}

export interface Bootstrapped {
  organization: { id: string; name: string };
  owner: { id: string; email: string; password: string };
  publishableKey: { id: string; key: string; scopes: string[] };
  secretKey: { id: string; key: string };
  collection: { id: string; name: string };
}

/** What `admin bootstrap --json` prints (the API's snake_case), as the tests hold it. */
export function fromBootstrapOutput(printed: Record<string, any>): Bootstrapped {
  const { publishable_key, secret_key, ...rest } = printed;
  return { ...rest, publishableKey: publishable_key, secretKey: secret_key } as Bootstrapped;
}

/** A publishable key made with the admin command: its id and the key itself (`pk_…`). */
export function createPublishableKey(
  server: ServerUnderTest,
  organizationId: string,
  options: { name: string; scopes: string; origins?: string },
): { id: string; plaintext: string } {
  const origins = options.origins === undefined ? [] : ['--origins', options.origins];
  const created = admin(
    server,
    'create-key',
    '--org',
    organizationId,
    '--type',
    'pk',
    '--name',
    options.name,
    '--scopes',
    options.scopes,
    ...origins,
  );
  return { id: created.api_key.id, plaintext: created.api_key.key };
}

/** A fresh organization with an owner, a pk (embedding, data, mcp), an sk and a public collection. */
export function bootstrap(server: ServerUnderTest): Bootstrapped {
  return fromBootstrapOutput(admin(server, 'bootstrap', '--empty'));
}

/** Signs a user in (POST /v1/login) and returns the `usr_` token; fails the test on any other status. */
export async function login(server: ServerUnderTest, email: string, password: string): Promise<string> {
  const res = await server.fetch(`${server.url}/v1/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email} answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

/** Mints a session for a publishable key of the organization (POST /v1/sessions with its secret key). */
export async function mintSession(
  server: ServerUnderTest,
  org: Bootstrapped,
  publishableKey = org.publishableKey.key,
): Promise<{ token: string; expires_at: string }> {
  const res = await server.fetch(`${server.url}/v1/sessions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': org.secretKey.key },
    body: JSON.stringify({ publishable_key: publishableKey }),
  });
  if (res.status !== 201) throw new Error(`session minting answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { data: { token: string; expires_at: string } }).data;
}

/** The token of a fresh session (see mintSession). */
export async function mintSessionToken(
  server: ServerUnderTest,
  org: Bootstrapped,
  publishableKey = org.publishableKey.key,
): Promise<string> {
  return (await mintSession(server, org, publishableKey)).token;
}

/**
 * Studio calls as the organization's owner (its publishable key and X-User-Id): the parsed body, or an error naming
 * the status when it is 300 or more.
 */
export function ownerCalls(server: ServerUnderTest, org: Bootstrapped) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await server.fetch(`${server.url}${path}`, {
      method,
      headers: { 'X-API-Key': org.publishableKey.key, 'X-User-Id': org.owner.id, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/**
 * A Studio or management call as a signed-in member (`Authorization: Bearer usr_…`): the parsed body, or an error
 * naming the status when it is 300 or more.
 */
export async function callAs(server: ServerUnderTest, token: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await server.fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
