// Runs one doc example against a real server: a shell script, a GraphQL document, a JSON request, URLs, a TS module.

import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../helpers/server.js';

/** What the docs' placeholders stand for on the test's server and its demo organization. */
export interface DemoValues {
  url: string;
  /** The database the admin command works on for this example. */
  databasePath: string;
  organizationId: string;
  ownerId: string;
  ownerPassword: string;
  publishableKey: string;
  secretKey: string;
  /** A key the example may revoke (`KEY_ID`). */
  keyId: string;
  collectionId: string;
  /** The demo itinerary "Pic de Cairn from the village". */
  itineraryId: string;
  sessionToken: string;
  userToken: string;
}

/**
 * An answer as the doc shows one: the HTTP status (none for a command that made no HTTP call) and the parsed body
 * (the text when it is not JSON).
 */
export interface Answer {
  status?: number;
  body: unknown;
}

/** Rewrites the docs' example addresses to the test server's: all a sample answer needs (its "…" stay open). */
export function substituteHosts(text: string, v: DemoValues): string {
  return text.replaceAll(/https?:\/\/(localhost:8080|cairn\.example|data\.example\.com)/g, v.url);
}

/** Rewrites the docs' addresses and placeholders to the test's real values. */
export function substitute(text: string, v: DemoValues): string {
  const byName: Record<string, string> = {
    collection_id: v.collectionId,
    itinerary_id: v.itineraryId,
    organization_id: v.organizationId,
    password: v.ownerPassword,
    publishable_key: v.publishableKey,
    session_token: v.sessionToken,
  };
  const named = (whole: string, name: string) => (name in byName ? whole.replace('…', byName[name] as string) : whole);
  return substituteHosts(text, v)
    .replaceAll('/srv/cairn/platform.db', v.databasePath)
    .replaceAll(/\bORG_ID\b/g, v.organizationId)
    .replaceAll(/\bKEY_ID\b/g, v.keyId)
    .replaceAll(/\bCOLLECTION_ID\b/g, v.collectionId)
    .replaceAll(/\bITINERARY_ID\b/g, v.itineraryId)
    .replaceAll('pk_…', v.publishableKey)
    .replaceAll('sk_…', v.secretKey)
    .replaceAll('sess_…', v.sessionToken)
    .replaceAll('usr_…', v.userToken)
    .replaceAll(/\b(\w+)=…/g, named)
    .replaceAll(/"(\w+)":\s*"…"/g, named);
}

/**
 * Runs a program to its end without blocking this process's event loop (a blocked loop misses the server closing
 * idle keep-alive sockets, and the next fetch fails on one); killed after `timeoutMs`.
 */
function runProgram(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One command of a shell example, what it printed, the statuses its curl calls answered, what the doc expects. */
export interface ShellStep {
  command: string;
  stdout: string;
  statuses: number[];
  expected?: { status: number; body?: unknown };
}

/**
 * Splits a shell block into commands (joining `\` continuations); a comment line `# 201 {…}` after a command is
 * the status and answer the doc expects of it.
 */
export function shellCommands(script: string, v: DemoValues): Pick<ShellStep, 'command' | 'expected'>[] {
  const commands: Pick<ShellStep, 'command' | 'expected'>[] = [];
  for (const line of script.replaceAll(/\\\n/g, ' ').split('\n')) {
    const answer = /^#\s*(\d{3})(?:\s+(.+))?$/.exec(line.trim());
    const last = commands[commands.length - 1];
    if (answer && last) {
      const body = answer[2] ? { body: JSON.parse(substituteHosts(answer[2], v)) } : {};
      last.expected = { status: Number(answer[1]), ...body };
    } else if (line.trim() !== '' && !line.trim().startsWith('#')) commands.push({ command: substitute(line, v) });
  }
  return commands;
}

/**
 * Runs a shell example with bash, each command in turn in one shell (so variables carry over), `set -e`: a failing
 * command fails the example. curl reports each status on stderr; npm runs from the repository (the admin command),
 * other commands in a folder holding the test fixtures the docs name (ridge-walk.gpx).
 */
export async function runShell(script: string, v: DemoValues): Promise<{ steps: ShellStep[]; exitCode: number | null; stderr: string }> {
  const commands = shellCommands(script, v);
  const cwd = mkdtempSync(join(tmpdir(), 'cairn-doc-sh-'));
  copyFileSync(join(REPO_ROOT, 'test', 'fixtures', 'transfer', 'ridge-walk.gpx'), join(cwd, 'ridge-walk.gpx'));
  const prelude = [
    'set -eo pipefail',
    `curl() { command curl -w '%{stderr}@@status %{http_code}\\n' "$@"; }`,
    `npm() { (cd "$REPO_ROOT" && command npm "$@"); }`,
  ];
  const body = commands.map((c, i) => `printf '\\n@@step ${i}\\n'; printf '@@step ${i}\\n' >&2\n${c.command}`);
  try {
    const run = await runProgram('bash', ['-c', [...prelude, ...body].join('\n')], {
      cwd,
      timeoutMs: 120_000,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? cwd,
        REPO_ROOT,
        DATABASE_PATH: v.databasePath,
        PK: v.publishableKey,
        CAIRN_PUBLISHABLE_KEY: v.publishableKey,
        SK: v.secretKey,
        CAIRN_SECRET_KEY: v.secretKey,
        SESSION: v.sessionToken,
        MEMBER_ID: v.ownerId,
      },
    });
    const outs = run.stdout.split(/\n?@@step \d+\n/).slice(1);
    const errs = run.stderr.split(/@@step \d+\n/).slice(1);
    const steps = commands.map((c, i) => ({
      ...c,
      stdout: (outs[i] ?? '').trim(),
      statuses: [...(errs[i] ?? '').matchAll(/@@status (\d{3})/g)].map((m) => Number(m[1])),
    }));
    return { steps, exitCode: run.status, stderr: run.stderr.replaceAll(/@@(step|status) \d+\n/g, '') };
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

/** The answer of a shell command as the doc shows it: its last curl status, if any, and what it printed. */
export function stepAnswer(step: ShellStep): Answer {
  return { status: step.statuses[step.statuses.length - 1], body: parseBody(step.stdout) };
}

/** POST /graphql with the demo publishable key and a session token, as docs/data-api.md says. */
export async function runGraphql(query: string, variables: string | undefined, v: DemoValues): Promise<Answer> {
  const res = await fetch(`${v.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-API-Key': v.publishableKey, 'X-Session-Token': v.sessionToken },
    body: JSON.stringify({ query: substitute(query, v), variables: variables ? JSON.parse(substitute(variables, v)) : undefined }),
  });
  return { status: res.status, body: parseBody(await res.text()) };
}

/**
 * A call named by a marker (`POST /v1/collections {"name":""}`), as a signed-in member (`as: member`) or with the
 * demo key, a session and the owner in X-User-Id.
 */
export async function runCall(call: string, body: string | undefined, as: string | undefined, v: DemoValues): Promise<Answer> {
  const [, method = '', path = '', inline] = /^(\w+)\s+(\S+)\s*(.*)$/.exec(call) ?? [];
  const json = body ?? (inline || undefined);
  const credentials: Record<string, string> =
    as === 'member'
      ? { Authorization: `Bearer ${v.userToken}` }
      : { 'X-API-Key': v.publishableKey, 'X-Session-Token': v.sessionToken, 'X-User-Id': v.ownerId };
  const res = await fetch(`${v.url}${substitute(path, v)}`, {
    method,
    headers: { ...credentials, ...(json ? { 'Content-Type': 'application/json' } : {}) },
    body: json ? substitute(json, v) : undefined,
  });
  return { status: res.status, body: parseBody(await res.text()) };
}

/** Every absolute URL with a path in a block (HTML, a map's set-up), after substitution. */
export function blockUrls(text: string, v: DemoValues): string[] {
  const urls = [...substitute(text, v).matchAll(/https?:\/\/[^\s'"`<>)]+/g)].map((m) => m[0]);
  return [...new Set(urls)].filter((u) => new URL(u).pathname !== '/');
}

/** GETs a URL with the demo publishable key (the tile docs say to add it to each request). */
export async function statusOf(url: string, v: DemoValues): Promise<number> {
  const res = await fetch(url, { headers: { 'X-API-Key': v.publishableKey } });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Runs a TypeScript example as an ES module with tsx, `append` added at its end (what a reader would write next),
 * with the keys in the environment the example reads; answers what it printed.
 */
export async function runTypeScript(
  code: string,
  append: string,
  v: DemoValues,
): Promise<{ stdout: string; stderr: string; exitCode: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-doc-ts-'));
  try {
    // The module resolves the project's packages (the MCP SDK) as a reader's project would.
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, 'example.mts'), `${substitute(code, v)}\n${substitute(append, v)}\n`);
    const run = await runProgram(process.execPath, ['--import', 'tsx', 'example.mts'], {
      cwd: dir,
      timeoutMs: 60_000,
      env: { PATH: process.env.PATH ?? '', CAIRN_PUBLISHABLE_KEY: v.publishableKey, CAIRN_SECRET_KEY: v.secretKey },
    });
    return { stdout: run.stdout.trim(), stderr: run.stderr, exitCode: run.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
