// The admin command: `npm run admin -- <command> [options] [--json]` against the database the server uses:
// PostgreSQL when DATABASE_URL is set, else the SQLite file at DATABASE_PATH.
// Success prints exactly one JSON object on stdout, its objects named and shaped as the management API answers
// them (snake_case); failure prints {"error":{"code","message"}} on stderr and exits non-zero. See docs/operating.md.
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_DATABASE_PATH, isConstraintError, openDatabase } from '../../../data/db.js';
import { applyMigrations, appliedVersions } from '../../../data/migrate.js';
import { isPgConstraintError, PgDatabase } from '../../../data/pg/pg-database.js';
import { applyPgMigrations, appliedPgVersions } from '../../../data/pg/pg-migrate.js';
import type { Repositories } from '../../../data/repositories.js';
import { writePmtiles } from '../../../data/region/pmtiles.js';
import { catalogRegions, installRegion, RegionFolderError, type RegionListing, removeRegion } from '../../../data/region/region-catalog.js';
import { RegionInputError } from '../../../data/region/region-error.js';
import { REGION_FILES } from '../../../data/region/region-folder.js';
import { type SeedResult, seedDemo } from '../../../data/seed.js';
import {
  ADMIN_ERRORS,
  AdminError,
  checkEmail,
  checkName,
  checkPassword,
  invalid,
  parseProducts,
  parseScopes,
  parseSettings,
  SET_KEYS,
  splitList,
} from './admin-args.js';
import { isAllowedOriginPattern, KEY_TYPES, type KeyType } from '../../../data/model/api-key.js';
import { isRole, ROLES } from '../../../data/model/membership.js';
import { DEFAULT_LIMITS, PRODUCTS, type Limits, type OrganizationPatch } from '../../../data/model/organization.js';
import { openStorage, type Storage } from '../../storage.js';
import { keyView, memberView, organizationView } from '../management-views.js';
import type { User } from '../../../data/model/user.js';

export { ADMIN_ERRORS, AdminError, type AdminErrorCode } from './admin-args.js';

const OPTIONS = {
  json: { type: 'boolean' },
  name: { type: 'string' },
  products: { type: 'string' },
  'no-card': { type: 'boolean' },
  email: { type: 'string' },
  password: { type: 'string' },
  org: { type: 'string' },
  user: { type: 'string' },
  role: { type: 'string' },
  type: { type: 'string' },
  scopes: { type: 'string' },
  origins: { type: 'string' },
  id: { type: 'string' },
  empty: { type: 'boolean' },
  region: { type: 'string' },
  out: { type: 'string' },
  path: { type: 'string' },
  from: { type: 'string' },
} as const;
type OptionName = keyof typeof OPTIONS;
type Values = Partial<Record<OptionName, string | boolean>>;

interface CommandSpec {
  summary: string;
  options: readonly OptionName[];
  /** Whether the command takes positional arguments after its name (only `set`). */
  positionals?: boolean;
  /** Runs inside one unit of work (`writes`, for seeding): its reads and writes are one atomic change. */
  run: (stores: Repositories, values: Values, positionals: string[]) => Promise<object>;
}

const COMMANDS: Record<string, CommandSpec> = {
  help: { summary: 'list the commands', options: [], run: async () => help() },
  'export-pmtiles': {
    summary:
      "write the region's trail tiles (its tiles.mbtiles) as one PMTiles v3 file a CDN can serve (--region: the region folder, default REGION_PATH)",
    options: ['region', 'out'],
    run: async () => ({}), // needs no database: see exportPmtiles
  },
  regions: {
    summary:
      'list region folders with their bounds, build dates, source extracts and sizes, and any that cannot be loaded and why (--path: a region folder or a folder of them, default REGION_PATH)',
    options: ['path'],
    run: async () => ({}), // needs no database: see listRegions
  },
  'region-add': {
    summary:
      'add the region folder --from to the folder of regions (--path, default REGIONS_PATH) as --name; copied beside it, renamed into place: the servers watching it serve it within seconds',
    options: ['path', 'name', 'from'],
    run: async () => ({}), // needs no database: see changeRegions
  },
  'region-replace': {
    summary:
      'replace region --name in the folder of regions (--path, default REGIONS_PATH) by the region folder --from, atomically: requests in flight finish on the old one',
    options: ['path', 'name', 'from'],
    run: async () => ({}), // needs no database: see changeRegions
  },
  'region-remove': {
    summary: 'remove region --name from the folder of regions (--path, default REGIONS_PATH): the servers stop serving it',
    options: ['path', 'name'],
    run: async () => ({}), // needs no database: see changeRegions
  },
  migrate: {
    summary:
      'apply the schema migrations the database lacks and print them (a server applies them too when it starts; run this first when upgrading several nodes)',
    options: [],
    run: async () => ({}), // runs before any storage is opened: see migrateDatabase
  },
  bootstrap: {
    summary:
      'create an organization with every product, an owner, a pk (embedding,data,mcp), an sk and a public demo collection with published itineraries and an embed URL (--empty: the collection stays empty, no embed URL)',
    options: ['name', 'email', 'password', 'empty'],
    run: async (stores, v) => {
      const password = optionalString(v, 'password');
      if (password !== undefined) checkPassword(password);
      const email = optionalString(v, 'email');
      if (email !== undefined) checkEmail(email);
      if (email !== undefined && (await stores.users.getByEmail(email))) {
        throw new AdminError('CONFLICT', `a user with email '${email}' already exists`);
      }
      const name = optionalString(v, 'name');
      const { publishableKey, secretKey, ...seeded } = await seedDemo(stores, INSIDE_THE_COMMAND, {
        ...(name !== undefined && { organizationName: checkName(name, 'name') }),
        ...(email !== undefined && { ownerEmail: email }),
        ...(password !== undefined && { ownerPassword: password }),
      });
      return { ...seeded, publishable_key: publishableKey, secret_key: secretKey };
    },
  },
  'create-org': {
    summary: 'create an organization (all products and a card on file unless told otherwise)',
    options: ['name', 'products', 'no-card'],
    run: async (stores, v) => {
      const name = checkName(requireString(v, 'name'), 'name');
      const productsArg = optionalString(v, 'products');
      const products = productsArg === undefined ? [...PRODUCTS] : parseProducts(productsArg, '--products');
      const organization = await stores.organizations.create({
        name,
        products,
        cardOnFile: v['no-card'] !== true,
        limits: { ...DEFAULT_LIMITS },
      });
      return { organization: organizationView(organization) };
    },
  },
  'create-user': {
    summary: 'create a user with a scrypt-hashed password',
    options: ['email', 'password'],
    run: async (stores, v) => {
      const email = checkEmail(requireString(v, 'email'));
      const password = checkPassword(requireString(v, 'password'));
      if (await stores.users.getByEmail(email)) throw new AdminError('CONFLICT', `a user with email '${email}' already exists`);
      try {
        return { user: userView(await stores.users.create({ email, password })) };
      } catch (err) {
        if (isConstraintError(err, 'UNIQUE') || isPgConstraintError(err, 'UNIQUE')) {
          throw new AdminError('CONFLICT', `a user with email '${email}' already exists`);
        }
        throw err;
      }
    },
  },
  'add-member': {
    summary: 'make a user a member of an organization with a role (changes the role of an existing member)',
    options: ['org', 'user', 'role'],
    run: async (stores, v) => {
      const orgId = requireString(v, 'org');
      const userId = requireString(v, 'user');
      const role = requireString(v, 'role');
      if (!isRole(role)) throw invalid(`--role must be one of ${ROLES.join(', ')}`);
      await requireOrganization(stores, orgId);
      const user = await stores.users.get(userId);
      if (!user) throw new AdminError('NOT_FOUND', `no user with id '${userId}'`);
      const membership = await stores.memberships.add(orgId, userId, role);
      return { member: memberView({ ...membership, email: user.email, name: user.name }) };
    },
  },
  'create-key': {
    summary: 'create a publishable (pk) or secret (sk) key; the plaintext is printed once',
    options: ['org', 'type', 'name', 'scopes', 'origins'],
    run: async (stores, v) => {
      const orgId = requireString(v, 'org');
      const type = requireString(v, 'type');
      if (!(KEY_TYPES as readonly string[]).includes(type)) throw invalid('--type must be pk or sk');
      const name = checkName(requireString(v, 'name'), 'name');
      const scopes = parseScopes(optionalString(v, 'scopes'), type as KeyType);
      const originsArg = optionalString(v, 'origins');
      const allowedOrigins = originsArg === undefined ? [] : splitList(originsArg);
      for (const o of allowedOrigins) {
        if (!isAllowedOriginPattern(o)) {
          throw invalid(`--origins: '${o}' is not an origin (https://example.com, https://*.example.com, http://localhost:*)`);
        }
      }
      if (type === 'sk' && allowedOrigins.length > 0) throw invalid('--origins applies to publishable keys only');
      await requireOrganization(stores, orgId);
      const created = await stores.apiKeys.create({ organizationId: orgId, type: type as KeyType, name, scopes, allowedOrigins });
      // As POST /v1/management/keys answers it: `key` is the plaintext, shown this once for a secret key.
      return { api_key: { ...keyView(created.apiKey), key: created.plaintext } };
    },
  },
  'revoke-key': {
    summary: 'revoke a key immediately (revoking twice keeps the first time)',
    options: ['id'],
    run: async (stores, v) => {
      const id = requireString(v, 'id');
      const apiKey = await stores.apiKeys.revoke(id);
      if (!apiKey) throw new AdminError('NOT_FOUND', `no key with id '${id}'`);
      return { api_key: keyView(apiKey) };
    },
  },
  set: {
    summary: `change organization settings: set --org ID key=value ... (keys: ${SET_KEYS.join(', ')})`,
    options: ['org'],
    positionals: true,
    run: async (stores, v, pairs) => {
      const orgId = requireString(v, 'org');
      if (pairs.length === 0) throw new AdminError('MISSING_ARGUMENT', `set needs at least one key=value (${SET_KEYS.join(', ')})`);
      const changes = parseSettings(pairs);
      const current = await requireOrganization(stores, orgId);
      const patch: OrganizationPatch = { ...changes.patch };
      if (changes.limits.size > 0) {
        const limits: Limits = { ...current.limits };
        for (const [dimension, value] of changes.limits) {
          if (value === undefined) delete limits[dimension];
          else limits[dimension] = value;
        }
        patch.limits = limits;
      }
      // The command's own unit of work makes the read and the update one atomic change.
      const organization = await stores.organizations.update(orgId, patch);
      return { organization: organizationView(organization as NonNullable<typeof organization>) };
    },
  },
  'show-org': {
    summary: 'print an organization with its members and keys (revoked keys included)',
    options: ['org'],
    run: async (stores, v) => {
      const orgId = requireString(v, 'org');
      const organization = await requireOrganization(stores, orgId);
      return {
        organization: organizationView(organization),
        members: (await stores.memberships.listByOrganization(orgId)).map(memberView),
        api_keys: (await stores.apiKeys.list(orgId, { includeRevoked: true })).map(keyView),
      };
    },
  },
};

function help(): object {
  return {
    usage: 'npm run -s admin -- <command> [options] [--json]',
    commands: Object.fromEntries(
      Object.entries(COMMANDS).map(([name, spec]) => [name, { summary: spec.summary, options: spec.options.map((o) => `--${o}`) }]),
    ),
    environment: {
      DATABASE_URL: 'postgres://… when the server runs on PostgreSQL (then DATABASE_PATH is not used)',
      DATABASE_PATH: `SQLite file (default ${DEFAULT_DATABASE_PATH})`,
    },
  };
}

function optionalString(values: Values, name: OptionName): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

function requireString(values: Values, name: OptionName): string {
  const v = optionalString(values, name);
  if (v === undefined) throw new AdminError('MISSING_ARGUMENT', `--${name} is required`);
  if (v.trim() === '') throw invalid(`--${name} must not be empty`);
  return v;
}

/** `export-pmtiles`: the region folder's tile archive written as one PMTiles file. */
function exportPmtiles(values: Values, env: AdminEnvironment): object {
  const region = optionalString(values, 'region') ?? env.REGION_PATH;
  if (!region) throw new AdminError('MISSING_ARGUMENT', '--region (or REGION_PATH) is required');
  const out = requireString(values, 'out');
  const mbtiles = join(region, REGION_FILES.tiles);
  if (!existsSync(mbtiles)) throw invalid(`${mbtiles} does not exist: import the region first (npm run import)`);
  const written = writePmtiles(mbtiles, out);
  return { pmtiles: { file: written.file, tiles: written.tiles, tile_contents: written.contents, bytes: written.bytes } };
}

/**
 * `regions`: the region folders under --path (or REGIONS_PATH, or REGION_PATH), each checked as the server checks it
 * at start.
 */
function listRegions(values: Values, env: AdminEnvironment): object {
  const path = optionalString(values, 'path') ?? (env.REGIONS_PATH || env.REGION_PATH);
  if (!path) throw new AdminError('MISSING_ARGUMENT', '--path (or REGIONS_PATH, or REGION_PATH) is required');
  try {
    const { regions, unusable } = catalogRegions(path);
    return { regions: regions.map(regionView), unusable };
  } catch (e) {
    if (e instanceof RegionInputError) throw invalid(e.message);
    throw e;
  }
}

/** `region-add`, `region-replace`, `region-remove`: a change to the folder of regions the servers watch. */
function changeRegions(command: 'region-add' | 'region-replace' | 'region-remove', values: Values, env: AdminEnvironment): object {
  const root = optionalString(values, 'path') ?? env.REGIONS_PATH;
  if (!root) throw new AdminError('MISSING_ARGUMENT', '--path (or REGIONS_PATH) is required');
  const name = requireString(values, 'name');
  try {
    if (command === 'region-remove') {
      removeRegion(root, name);
      return { removed: { name, path: join(root, name) } };
    }
    const from = requireString(values, 'from');
    return { region: regionView(installRegion(root, name, from, { replace: command === 'region-replace' })) };
  } catch (e) {
    if (e instanceof RegionFolderError) throw e.code === 'INVALID_ARGUMENT' ? invalid(e.message) : new AdminError(e.code, e.message);
    if (e instanceof RegionInputError) throw invalid(e.message);
    throw e;
  }
}

function regionView(r: RegionListing) {
  return {
    name: r.name,
    path: r.path,
    bounds: r.bounds,
    built_at: r.builtAt,
    source: r.source,
    osm_timestamp: r.osmTimestamp,
    attribution: r.attribution,
    counts: r.counts,
    bytes: r.bytes,
  };
}

/** `migrate`: applies what the database lacks, on whichever engine the environment names, and reports it. */
async function migrateDatabase(env: AdminEnvironment): Promise<object> {
  if (env.DATABASE_URL) {
    const pg = new PgDatabase(env.DATABASE_URL, { max: 1 });
    try {
      const applied = await applyPgMigrations(pg);
      return { engine: 'postgresql', applied, versions: await appliedPgVersions(pg) };
    } finally {
      await pg.close();
    }
  }
  const db = openDatabase(env.DATABASE_PATH || DEFAULT_DATABASE_PATH, { migrate: false });
  try {
    const applied = applyMigrations(db);
    return { engine: 'sqlite', applied, versions: appliedVersions(db) };
  } finally {
    db.close();
  }
}

/** A user as the admin command prints it (no password hash). */
function userView(user: User) {
  return { id: user.id, email: user.email, name: user.name, created_at: user.createdAt };
}

/** Seeding inside a command: already in the command's unit of work, so it writes in place. */
const INSIDE_THE_COMMAND = { write: <T>(fn: () => Promise<T>) => fn() };

async function requireOrganization(stores: Repositories, id: string) {
  const org = await stores.organizations.get(id);
  if (!org) throw new AdminError('NOT_FOUND', `no organization with id '${id}'`);
  return org;
}

export interface AdminResult {
  exitCode: number;
  /** One JSON document (with a trailing newline) for stdout, on success. */
  stdout: string;
  /** One JSON line `{"error":{"code","message"}}` for stderr, on failure. */
  stderr: string;
}

export interface AdminEnvironment {
  DATABASE_PATH?: string | undefined;
  DATABASE_URL?: string | undefined;
  /** The region folder `export-pmtiles` and `regions` read when not told. */
  REGION_PATH?: string | undefined;
  /** The folder of regions `regions` lists and `region-add`, `region-replace` and `region-remove` change when not told. */
  REGIONS_PATH?: string | undefined;
}

/**
 * Runs one admin command. `argv` excludes the node binary and script (`['create-org', '--name', 'X']`).
 * `open` is injectable so tests can pass their own storage; by default the database the environment names is
 * opened (and migrated) only after the arguments validate, and closed afterwards.
 */
export async function runAdmin(
  argv: string[],
  env: AdminEnvironment = process.env,
  open: () => Storage | Promise<Storage> = () =>
    openStorage({ databasePath: env.DATABASE_PATH || DEFAULT_DATABASE_PATH, databaseUrl: env.DATABASE_URL }),
): Promise<AdminResult> {
  let pretty = true;
  let storage: Storage | undefined;
  try {
    const { values, positionals } = (() => {
      try {
        return parseArgs({ args: argv, options: OPTIONS, strict: true, allowPositionals: true });
      } catch (err) {
        throw invalid((err as Error).message);
      }
    })();
    pretty = values.json !== true;
    const [command, ...rest] = positionals;
    if (command === undefined) throw new AdminError('MISSING_ARGUMENT', `a command is required: ${Object.keys(COMMANDS).join(', ')}`);
    const spec = COMMANDS[command];
    if (!spec) throw new AdminError('UNKNOWN_COMMAND', `unknown command '${command}' (${Object.keys(COMMANDS).join(', ')})`);
    for (const name of Object.keys(values) as OptionName[]) {
      if (name !== 'json' && !spec.options.includes(name)) throw invalid(`${command} does not take --${name}`);
    }
    if (!spec.positionals && rest.length > 0) throw invalid(`${command} takes no positional arguments (got '${rest[0]}')`);
    let result: object;
    if (command === 'help') {
      result = help();
    } else if (command === 'migrate') {
      result = await migrateDatabase(env);
    } else if (command === 'export-pmtiles') {
      result = exportPmtiles(values, env);
    } else if (command === 'regions') {
      result = listRegions(values, env);
    } else if (command === 'region-add' || command === 'region-replace' || command === 'region-remove') {
      result = changeRegions(command, values, env);
    } else {
      storage = await open();
      const { repositories } = storage;
      // One unit of work per command, as the server writes. On SQLite it takes the write lock first (BEGIN
      // IMMEDIATE) and waits on busy_timeout while the server writes: a deferred transaction that reads and then
      // writes would fail at once with "database is locked" whenever the server committed in between. On
      // PostgreSQL it is SERIALIZABLE, retried when it collides with a server node's write.
      result = await storage.unitOfWork().write(() => spec.run(repositories, values, rest));
    }
    return { exitCode: 0, stdout: `${JSON.stringify(result, null, pretty ? 2 : undefined)}\n`, stderr: '' };
  } catch (err) {
    const adminError =
      err instanceof AdminError
        ? err
        : err instanceof TypeError
          ? invalid(err.message)
          : new AdminError('INTERNAL_ERROR', err instanceof Error ? err.message : String(err));
    return {
      exitCode: ADMIN_ERRORS[adminError.code],
      stdout: '',
      stderr: `${JSON.stringify({ error: { code: adminError.code, message: adminError.message } })}\n`,
    };
  } finally {
    await storage?.close();
  }
}

function isMain(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

/**
 * The command line: `runAdmin`, then for `bootstrap` (unless `--empty`) the demo content a first start also plans
 * (itineraries routed on a worker pool, a share link and its embed URL), added to the printed object.
 */
export async function runAdminCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<AdminResult> {
  const result = await runAdmin(argv, env);
  if (result.exitCode !== 0 || argv[0] !== 'bootstrap' || argv.includes('--empty')) return result;
  const printed = JSON.parse(result.stdout) as Omit<SeedResult, 'publishableKey' | 'secretKey'> & {
    publishable_key: SeedResult['publishableKey'];
    secret_key: SeedResult['secretKey'];
  };
  const seeded: SeedResult = { ...printed, publishableKey: printed.publishable_key, secretKey: printed.secret_key };
  // Loaded only here: the other commands need no worker pool and no server code.
  const { seedDemoContentOffline } = await import('../../seeding.js');
  const demo = await seedDemoContentOffline(seeded, env);
  const out = { ...printed, collection: { ...printed.collection, itineraries: demo.itineraries }, embed: { url: demo.embedUrl } };
  return { ...result, stdout: `${JSON.stringify(out, null, argv.includes('--json') ? undefined : 2)}\n` };
}

if (isMain()) {
  runAdminCli(process.argv.slice(2)).then(
    (result) => {
      if (result.stdout) process.stdout.write(result.stdout);
      if (result.stderr) process.stderr.write(result.stderr);
      process.exitCode = result.exitCode;
    },
    (error: unknown) => {
      process.stderr.write(
        `${JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: error instanceof Error ? error.message : String(error) } })}\n`,
      );
      process.exitCode = 1;
    },
  );
}
