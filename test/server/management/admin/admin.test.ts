// The admin command run as a real subprocess: `node --import tsx server/management/admin/admin.ts` (always the current source,
// no stale build), plus one run through the built `dist/server/management/admin/admin.js` when that build is up to date.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../../../server/management/admin/admin.js';
import { sqliteStorage } from '../../../../server/storage.js';
import { PUBLISHABLE_KEY_PATTERN, SECRET_KEY_PATTERN } from '../../../../data/credentials.js';
import { openDatabase, type Database } from '../../../../data/db.js';
import { createStores, type Stores } from '../../../../data/stores/stores.js';

const root = resolve(fileURLToPath(new URL('../../../..', import.meta.url)));
const tsxLoader = pathToFileURL(join(root, 'node_modules/tsx/dist/loader.mjs')).href;
const adminSource = join(root, 'server/management/admin/admin.ts');
const adminBuilt = join(root, 'dist/server/management/admin/admin.js');

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as one JSON object (undefined when empty). */
  json: Record<string, any> | undefined;
  /** stderr parsed as `{error:{code,message}}` (undefined when empty). */
  error: { code: string; message: string } | undefined;
}

let dir: string;
let dbPath: string;

function run(args: string[], options: { entry?: string; env?: Record<string, string>; cwd?: string } = {}): Run {
  const entry = options.entry ?? adminSource;
  const nodeArgs = entry.endsWith('.ts') ? ['--import', tsxLoader, entry] : [entry];
  const result = spawnSync(process.execPath, [...nodeArgs, ...args], {
    cwd: options.cwd ?? root,
    env: { ...process.env, DATABASE_PATH: dbPath, ...options.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    json: result.stdout.trim() ? JSON.parse(result.stdout) : undefined,
    error: result.stderr.trim() ? (JSON.parse(result.stderr) as { error: Run['error'] }).error : undefined,
  };
}

/** Runs a command that must succeed with --json and returns its single JSON object. */
function ok(args: string[]): Record<string, any> {
  const r = run([...args, '--json']);
  expect(r.stderr, `stderr of ${args.join(' ')}`).toBe('');
  expect(r.status).toBe(0);
  // Exactly one JSON object on one line.
  expect(r.stdout.trimEnd().split('\n')).toHaveLength(1);
  expect(r.json).toBeTypeOf('object');
  return r.json ?? {};
}

/** Runs a command that must fail and returns its error code and exit status. */
function fail(args: string[]): { status: number | null; code: string | undefined } {
  const r = run([...args, '--json']);
  expect(r.stdout).toBe('');
  expect(r.status).not.toBe(0);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.error?.message).toBeTypeOf('string');
  return { status: r.status, code: r.error?.code };
}

let db: Database;
let stores: Stores;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-admin-'));
  dbPath = join(dir, 'var', 'platform.db');
  // This connection stays open for the whole file: every check below reads what the subprocess committed.
  db = openDatabase(dbPath);
  stores = createStores(db);
});

afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('admin command', () => {
  it('bootstrap creates an organization, an owner, a publishable and a secret key and prints them', () => {
    // --empty: the organization's part only (the demo itineraries need the built workers: tested below on dist/).
    const out = ok(['bootstrap', '--empty']);
    expect(out.owner.email).toBe('owner@demo.cairn.local');
    expect(out.owner.password).toMatch(/^[0-9A-Za-z]{20}$/);
    expect(out.publishable_key.key).toMatch(PUBLISHABLE_KEY_PATTERN);
    expect(out.publishable_key.scopes).toEqual(['embedding', 'data', 'mcp']);
    expect(out.secret_key.key).toMatch(SECRET_KEY_PATTERN);
    expect(stores.organizations.get(out.organization.id)?.products).toEqual(['studio', 'data', 'intelligence']);
    expect(stores.users.verifyPasswordSync(out.owner.email, out.owner.password)?.id).toBe(out.owner.id);
    expect(stores.apiKeys.findSecret(out.secret_key.key)?.organizationId).toBe(out.organization.id);
    expect(stores.collections.get(out.collection.id)?.name).toBe('Demo valley');
    expect(out.embed).toBeUndefined();
  });

  it('bootstrap plans the published demo itineraries a first start plans, and prints an embed URL with a share link', () => {
    const r = run(['bootstrap', '--json'], {
      entry: join(root, 'dist', 'server', 'management', 'admin', 'admin.js'),
      env: { PUBLIC_APP_URL: 'https://maps.example' },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.collection.itineraries).toEqual([
      'Pic de Cairn from the village',
      'Shepherd’s hut circuit',
      'Evening walk to the viewpoint',
    ]);
    expect(out.embed.url).toMatch(
      new RegExp(`^https://maps\\.example/studio/embed\\?collection_id=${out.collection.id}&share_token=share_[0-9a-f]{32}$`),
    );
  });

  it('bootstrap run again creates another organization', () => {
    const before = stores.organizations.count();
    const out = ok(['bootstrap', '--empty', '--name', 'Second demo']);
    expect(out.organization.name).toBe('Second demo');
    expect(stores.organizations.count()).toBe(before + 1);
  });

  it('create-org gives all products and a card by default', () => {
    const out = ok(['create-org', '--name', 'Acme']);
    expect(out.organization).toMatchObject({
      name: 'Acme',
      products: ['studio', 'data', 'intelligence'],
      payment_method_on_file: true,
      settings: { quota_data: 60, quota_tiles: 600 },
    });
    expect(stores.organizations.get(out.organization.id)?.name).toBe('Acme');
  });

  it('create-org honours --products and --no-card', () => {
    const out = ok(['create-org', '--name', 'Lean', '--products', 'data,studio', '--no-card']);
    expect(out.organization).toMatchObject({ products: ['studio', 'data'], payment_method_on_file: false });
  });

  it('create-org refuses a missing name or an unknown product', () => {
    expect(fail(['create-org'])).toEqual({ status: 2, code: 'MISSING_ARGUMENT' });
    expect(fail(['create-org', '--name', 'X', '--products', 'maps'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
  });

  it('create-user creates a user whose password verifies, and refuses a duplicate email', () => {
    const out = ok(['create-user', '--email', 'ana@example.com', '--password', 'long-enough-1']);
    expect(out.user).toMatchObject({ email: 'ana@example.com' });
    expect(JSON.stringify(out)).not.toContain('scrypt');
    expect(stores.users.verifyPasswordSync('ana@example.com', 'long-enough-1')?.id).toBe(out.user.id);
    expect(fail(['create-user', '--email', 'ANA@example.com', '--password', 'long-enough-2'])).toEqual({
      status: 4,
      code: 'CONFLICT',
    });
  });

  it('create-user refuses a malformed email, a short password and missing arguments', () => {
    expect(fail(['create-user', '--email', 'nope', '--password', 'long-enough'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
    expect(fail(['create-user', '--email', 'b@example.com', '--password', 'short'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
    expect(fail(['create-user', '--email', 'b@example.com'])).toEqual({ status: 2, code: 'MISSING_ARGUMENT' });
  });

  it('add-member adds a member with a role and refuses unknown organizations, users and roles', () => {
    const org = ok(['create-org', '--name', 'Members']).organization;
    const user = ok(['create-user', '--email', 'member@example.com', '--password', 'long-enough']).user;
    const out = ok(['add-member', '--org', org.id, '--user', user.id, '--role', 'contributor']);
    expect(out.member).toMatchObject({ user_id: user.id, email: 'member@example.com', role: 'contributor' });
    expect(stores.memberships.get(org.id, user.id)?.role).toBe('contributor');
    expect(ok(['add-member', '--org', org.id, '--user', user.id, '--role', 'viewer']).member.role).toBe('viewer');
    expect(fail(['add-member', '--org', 'nope', '--user', user.id, '--role', 'viewer'])).toEqual({ status: 3, code: 'NOT_FOUND' });
    expect(fail(['add-member', '--org', org.id, '--user', 'nope', '--role', 'viewer'])).toEqual({ status: 3, code: 'NOT_FOUND' });
    expect(fail(['add-member', '--org', org.id, '--user', user.id, '--role', 'guest'])).toEqual({
      status: 2,
      code: 'INVALID_ARGUMENT',
    });
  });

  it('create-key creates a publishable key with scopes and origins, and a secret key shown once', () => {
    const org = ok(['create-org', '--name', 'Keys']).organization;
    const pk = ok([
      'create-key',
      '--org',
      org.id,
      '--type',
      'pk',
      '--name',
      'web',
      '--scopes',
      'embedding,data',
      '--origins',
      'https://example.com,http://localhost:*',
    ]);
    expect(pk.api_key.key).toMatch(PUBLISHABLE_KEY_PATTERN);
    expect(pk.api_key).toMatchObject({
      type: 'pk',
      name: 'web',
      scopes: ['embedding', 'data'],
      allowed_origins: ['https://example.com', 'http://localhost:*'],
    });
    expect(stores.apiKeys.findPublishable(pk.api_key.key)?.id).toBe(pk.api_key.id);
    const sk = ok(['create-key', '--org', org.id, '--type', 'sk', '--name', 'server']);
    expect(sk.api_key.key).toMatch(SECRET_KEY_PATTERN);
    expect(stores.apiKeys.findSecret(sk.api_key.key)?.id).toBe(sk.api_key.id);
    // Printed this once: the stored key keeps only its hash.
    expect(stores.apiKeys.get(sk.api_key.id)?.key).toBeNull();
  });

  it('create-key refuses bad types, scopes and origins, missing names and unknown organizations', () => {
    const org = ok(['create-org', '--name', 'Bad keys']).organization;
    const base = ['create-key', '--org', org.id];
    expect(fail([...base, '--type', 'xk', '--name', 'n'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
    expect(fail([...base, '--type', 'pk', '--name', 'n', '--scopes', 'embedding,admin'])).toEqual({
      status: 2,
      code: 'INVALID_ARGUMENT',
    });
    expect(fail([...base, '--type', 'pk', '--name', 'n', '--origins', 'example.com'])).toEqual({
      status: 2,
      code: 'INVALID_ARGUMENT',
    });
    expect(fail([...base, '--type', 'sk', '--name', 'n', '--origins', 'https://a.com'])).toEqual({
      status: 2,
      code: 'INVALID_ARGUMENT',
    });
    expect(fail([...base, '--type', 'pk'])).toEqual({ status: 2, code: 'MISSING_ARGUMENT' });
    expect(fail(['create-key', '--org', 'nope', '--type', 'pk', '--name', 'n'])).toEqual({ status: 3, code: 'NOT_FOUND' });
  });

  it('revoke-key revokes at once, is idempotent and refuses an unknown id', () => {
    const org = ok(['create-org', '--name', 'Revoke']).organization;
    const sk = ok(['create-key', '--org', org.id, '--type', 'sk', '--name', 'server']);
    expect(stores.apiKeys.findSecret(sk.api_key.key)).toBeDefined();
    const out = ok(['revoke-key', '--id', sk.api_key.id]);
    expect(out.api_key.revoked_at).toEqual(expect.any(String));
    expect(stores.apiKeys.findSecret(sk.api_key.key)).toBeUndefined();
    expect(ok(['revoke-key', '--id', sk.api_key.id]).api_key.revoked_at).toBe(out.api_key.revoked_at);
    expect(fail(['revoke-key', '--id', 'nope'])).toEqual({ status: 3, code: 'NOT_FOUND' });
  });

  it('set changes every documented setting in one call', () => {
    const org = ok(['create-org', '--name', 'Settings']).organization;
    const out = ok([
      'set',
      '--org',
      org.id,
      'require_session_token=true',
      'quota.data=120',
      'quota.tiles=0',
      'products=studio',
      'card=false',
      'status=inactive',
      'embed.layers=trails,zones',
    ]);
    expect(out.organization).toMatchObject({
      settings: { require_session_token: true, quota_data: 120, quota_tiles: 0, embed_layers: ['trails', 'zones'] },
      products: ['studio'],
      payment_method_on_file: false,
      status: 'inactive',
    });
    expect(stores.organizations.get(org.id)).toMatchObject({ requireSessionToken: true, quotaData: 120, status: 'inactive' });
  });

  it('set limits keeps null (unlimited) apart from absent (not granted) and never writes -1', () => {
    const org = ok(['create-org', '--name', 'Limits']).organization;
    const out = ok(['set', '--org', org.id, 'limits.itineraries=10', 'limits.zones=null', 'limits.members=absent']);
    const limits = stores.organizations.get(org.id)?.limits ?? {};
    expect(out.organization.limits).toEqual(limits);
    expect(limits.itineraries).toBe(10);
    expect(limits.zones).toBeNull();
    expect('zones' in limits).toBe(true);
    expect('members' in limits).toBe(false);
    const raw = db.prepare<[string], { limits: string }>('SELECT limits FROM organizations WHERE id = ?').get(org.id);
    expect(raw?.limits).not.toContain('-1');
    expect(JSON.parse(raw?.limits ?? '{}')).toMatchObject({ zones: null });
    expect(fail(['set', '--org', org.id, 'limits.zones=-1'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
  });

  it('set refuses unknown keys, bad values, no pairs and unknown organizations, changing nothing', async () => {
    const org = ok(['create-org', '--name', 'Set errors']).organization;
    const base = ['set', '--org', org.id];
    expect(fail([...base, 'quota.data=1', 'colour=blue'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
    // The same validation in-process (runAdmin is what the subprocess runs), to keep the suite quick.
    for (const pair of [
      'quota.data=-5',
      'quota.tiles=lots',
      'card=yes',
      'status=paused',
      'products=maps',
      'embed.layers=satellite',
      'require_session_token=1',
      'novalue',
      'limits.=3',
      'quota.data=2',
    ]) {
      const r = await runAdmin([...base, 'quota.data=1', pair, '--json'], {}, () => sqliteStorage(openDatabase(dbPath)));
      expect(r.exitCode, pair).toBe(2);
      expect(JSON.parse(r.stderr).error.code, pair).toBe('INVALID_ARGUMENT');
    }
    expect(stores.organizations.get(org.id)?.quotaData).toBe(60);
    expect(fail(base)).toEqual({ status: 2, code: 'MISSING_ARGUMENT' });
    expect(fail(['set', '--org', 'nope', 'card=true'])).toEqual({ status: 3, code: 'NOT_FOUND' });
  });

  it('migrate applies what a database lacks and says so; a second run applies nothing', () => {
    const fresh = join(dir, 'to-migrate.db');
    const first = run(['migrate', '--json'], { env: { DATABASE_PATH: fresh } });
    expect(first.status).toBe(0);
    expect(first.json).toMatchObject({ engine: 'sqlite', applied: [1, 2, 3, 4, 5], versions: [1, 2, 3, 4, 5] });
    const again = run(['migrate', '--json'], { env: { DATABASE_PATH: fresh } });
    expect(again.json).toEqual({ engine: 'sqlite', applied: [], versions: [1, 2, 3, 4, 5] });
  });

  it('an unknown command, no command, or an unknown option fails with a usage error', () => {
    expect(fail(['frobnicate'])).toEqual({ status: 2, code: 'UNKNOWN_COMMAND' });
    expect(fail([])).toEqual({ status: 2, code: 'MISSING_ARGUMENT' });
    expect(fail(['create-org', '--name', 'X', '--colour', 'red'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
    expect(fail(['create-org', '--name', 'X', '--org', 'y'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
    expect(fail(['create-org', 'extra', '--name', 'X'])).toEqual({ status: 2, code: 'INVALID_ARGUMENT' });
  });

  it('without --json the output is still one JSON object, pretty-printed', () => {
    const r = run(['create-org', '--name', 'Pretty']);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').length).toBeGreaterThan(3);
    expect(r.json?.organization.name).toBe('Pretty');
  });

  it('a change made by the command is visible to an already open connection immediately', () => {
    const org = stores.organizations.create({ name: 'Live' });
    expect(stores.organizations.get(org.id)?.requireSessionToken).toBe(false);
    ok(['set', '--org', org.id, 'require_session_token=true', 'limits.itineraries=null']);
    const seen = stores.organizations.get(org.id);
    expect(seen?.requireSessionToken).toBe(true);
    expect(seen?.limits).toEqual({ itineraries: null });
  });

  it('show-org prints the organization with its members and keys', () => {
    const boot = ok(['bootstrap', '--empty']);
    const out = ok(['show-org', '--org', boot.organization.id]);
    expect(out.organization.id).toBe(boot.organization.id);
    expect(out.members).toHaveLength(1);
    expect(out.api_keys.map((k: { type: string }) => k.type).sort()).toEqual(['pk', 'sk']);
    expect(JSON.stringify(out)).not.toContain(boot.secret_key.key);
  });

  it('DATABASE_PATH defaults to var/platform.db under the working directory', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cairn-admin-cwd-'));
    try {
      const r = run(['create-org', '--name', 'Default path', '--json'], { cwd, env: { DATABASE_PATH: '' } });
      expect(r.status).toBe(0);
      expect(existsSync(join(cwd, 'var', 'platform.db'))).toBe(true);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('no database file is created for a usage error', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'cairn-admin-cwd-'));
    try {
      const r = run(['frobnicate'], { cwd, env: { DATABASE_PATH: '' } });
      expect(r.status).toBe(2);
      expect(existsSync(join(cwd, 'var'))).toBe(false);
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

/** The build is current when the built admin command is newer than every TypeScript file under data/ and server/ it compiles from. */
function builtIsCurrent(): boolean {
  if (!existsSync(adminBuilt)) return false;
  const builtAt = statSync(adminBuilt).mtimeMs;
  const sources = [join(root, 'data'), join(root, 'server')];
  const files: string[] = [];
  while (sources.length > 0) {
    const d = sources.pop() as string;
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      if (entry.isDirectory() && entry.name !== 'region') sources.push(join(d, entry.name));
      else if (entry.name.endsWith('.ts')) files.push(join(d, entry.name));
    }
  }
  return files.every((f) => statSync(f).mtimeMs <= builtAt);
}

describe('built admin command', () => {
  it.skipIf(!builtIsCurrent())('node dist/server/management/admin/admin.js runs against the same database (after npm run build:ts)', () => {
    const r = run(['create-org', '--name', 'From dist', '--json'], { entry: adminBuilt });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(stores.organizations.get(r.json?.organization.id)?.name).toBe('From dist');
  });
});
