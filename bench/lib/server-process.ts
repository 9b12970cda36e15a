// Starts a server as a child process (optionally pinned with taskset), waits for its
// `{"msg":"listening","port":N}` line on stdout, and stops it by pid.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ServerProcessOptions {
  /** Name shown in messages. */
  name: string;
  command: string;
  args: string[];
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** CPU list for `taskset -c` (e.g. "0"); undefined = not pinned. */
  cpus?: string;
  /** File receiving the server's stdout (opened for append, so it can be truncated between runs). */
  stdoutPath: string;
  /** File receiving its stderr. */
  stderrPath: string;
  /** Longest wait for the listening line, in ms. */
  startTimeoutMs?: number;
  /** For a server that prints nothing: the port it was told to use; ready once it accepts a connection. */
  knownPort?: number;
}

export interface ServerProcess {
  readonly name: string;
  /** Pid of the server itself (taskset execs into it, so this is not a wrapper). */
  readonly pid: number;
  readonly port: number;
  /** Bytes in the stdout file now (e.g. the request log). */
  stdoutBytes(): number;
  /** Empties the stdout file; later writes land at its start (append mode). */
  truncateStdout(): void;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

const LISTENING = /"msg":"listening"[^\n]*?"port":(\d+)|"port":(\d+)[^\n]*?"msg":"listening"/;

/** Spawns the server and resolves once it reports its port; rejects (and kills it) on exit or timeout. */
export function startServer(options: ServerProcessOptions): Promise<ServerProcess> {
  const out = openSync(options.stdoutPath, 'a');
  const err = openSync(options.stderrPath, 'a');
  const [command, args] = options.cpus
    ? ['taskset', ['-c', options.cpus, options.command, ...options.args]]
    : [options.command, options.args];
  const child: ChildProcess = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', out, err],
  });
  closeSync(out);
  closeSync(err);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (graceMs = 5000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + (options.startTimeoutMs ?? 15_000);
    const fail = (why: string) => {
      void stop(0);
      let stderr = '';
      try {
        stderr = readFileSync(options.stderrPath, 'utf8').slice(-2000);
      } catch {
        // nothing written
      }
      reject(new Error(`${options.name}: ${why}${stderr ? `\n${stderr}` : ''}`));
    };
    const poll = () => {
      if (child.exitCode !== null || child.signalCode !== null) {
        fail(`exited before listening (code ${child.exitCode}, signal ${child.signalCode})`);
        return;
      }
      const match = LISTENING.exec(readFileSync(options.stdoutPath, 'utf8'));
      const ready = (port: number) =>
        resolve({
          name: options.name,
          pid: child.pid as number,
          port,
          stdoutBytes: () => statSync(options.stdoutPath).size,
          truncateStdout: () => truncateSync(options.stdoutPath, 0),
          stop,
        });
      if (match) {
        ready(Number(match[1] ?? match[2]));
        return;
      }
      const retry = () => {
        if (Date.now() > deadline) fail(options.knownPort ? 'not accepting connections in time' : 'no listening line on stdout in time');
        else setTimeout(poll, 50);
      };
      if (options.knownPort === undefined) {
        retry();
        return;
      }
      const port = options.knownPort;
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        ready(port);
      });
      socket.once('error', () => {
        socket.destroy();
        retry();
      });
    };
    child.once('error', (error) => fail(error.message));
    poll();
  });
}

/** A TCP port free on 127.0.0.1 right now (for servers that cannot report the port they took). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** What `npm run admin -- bootstrap` prints: an organization with its owner and keys. */
export interface Bootstrapped {
  organization: { id: string };
  owner: { id: string; email: string; password: string };
  publishableKey: { key: string };
  secretKey: { key: string };
}

/**
 * Bootstraps an organization into a fresh database in `dir`, then starts the built Cairn server on it
 * (demo region, any free port, `env` added), pinned to `cpus` when given. With `diagnostics`, the diagnostic
 * server (dist/bench/diagnostics/main.js: the same server plus the /_diagnostics/* routes) instead.
 */
export async function startCairn(
  dir: string,
  cpus: string | undefined,
  env: Record<string, string> = {},
  options: { diagnostics?: boolean; startTimeoutMs?: number } = {},
): Promise<{ server: ServerProcess; boot: Bootstrapped; base: string }> {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const fullEnv = {
    PATH: process.env.PATH ?? '',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: join(dir, 'platform.db'),
    LOG_LEVEL: 'info',
    SEED_DEMO: '0',
    ...env,
  };
  const printed = JSON.parse(
    execFileSync(process.execPath, [join(root, 'dist', 'server', 'management', 'admin', 'admin.js'), 'bootstrap', '--empty', '--json'], {
      env: fullEnv,
      encoding: 'utf8',
    }),
  );
  const boot: Bootstrapped = { ...printed, publishableKey: printed.publishable_key, secretKey: printed.secret_key };
  const server = await startServer({
    name: 'cairn',
    command: process.execPath,
    args: [options.diagnostics ? join(root, 'dist', 'bench', 'diagnostics', 'main.js') : join(root, 'dist', 'server', 'main.js')],
    env: fullEnv,
    cwd: root,
    cpus,
    stdoutPath: join(dir, 'server.log'),
    stderrPath: join(dir, 'server.err'),
    startTimeoutMs: options.startTimeoutMs ?? 30_000,
  });
  return { server, boot, base: `http://127.0.0.1:${server.port}` };
}

/** A process's resident memory (VmRSS) in MiB. */
export function rssMb(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

/**
 * Mints a session for the bootstrapped organization's publishable key (POST /v1/sessions with its secret key) and
 * returns the headers a Data API client sends with it.
 */
export async function dataApiHeaders(base: string, boot: Bootstrapped): Promise<Record<string, string>> {
  const minted = await fetch(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { 'X-API-Key': boot.secretKey.key, 'Content-Type': 'application/json' },
    body: JSON.stringify({ publishable_key: boot.publishableKey.key }),
  });
  if (minted.status !== 201) throw new Error(`POST /v1/sessions answered ${minted.status}`);
  const token = ((await minted.json()) as { data: { token: string } }).data.token;
  return { 'X-API-Key': boot.publishableKey.key, 'X-Session-Token': token, 'Content-Type': 'application/json' };
}
