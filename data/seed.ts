// Demo seeding: an organization with every product, an owner, a publishable and a secret key, a demo collection.
import { generatePassword, hashPassword } from './credentials.js';
import type { Repositories } from './repositories.js';
import { isConflict } from './model/conflict.js';
import type { Scope } from './model/api-key.js';
import { DEFAULT_LIMITS, PRODUCTS } from './model/organization.js';

export const DEMO_ORGANIZATION_NAME = 'Cairn demo';
export const DEMO_OWNER_EMAIL = 'owner@demo.cairn.local';
export const DEMO_COLLECTION_NAME = 'Demo valley';
export const DEMO_PUBLISHABLE_SCOPES: readonly Scope[] = ['embedding', 'data', 'mcp'];

export interface SeedOptions {
  /** Organization name (default 'Cairn demo'). */
  organizationName?: string;
  /** Owner email (default owner@demo.cairn.local; when taken, a random owner-xxxx@demo.cairn.local). */
  ownerEmail?: string;
  /** Owner password (default: 20 random base62 characters, returned in the result). */
  ownerPassword?: string;
}

/** Everything created, with the plaintexts that exist only now (print them once, never store them). */
export interface SeedResult {
  organization: { id: string; name: string };
  owner: { id: string; email: string; password: string };
  publishableKey: { id: string; key: string; scopes: Scope[] };
  secretKey: { id: string; key: string };
  collection: { id: string; name: string };
}

/**
 * The write boundary seeding runs in (the server's unit of work): `fn`'s writes commit together or not at all.
 * On SQLite it holds the write lock from its first statement; on PostgreSQL it is SERIALIZABLE.
 */
export interface Atomic {
  write<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Always creates a new demo organization (the admin `bootstrap` command). All rows are written in one unit of
 * work: on any failure nothing is left behind. The password is hashed first (off the main thread), so the unit
 * holds the database only for the inserts.
 */
export async function seedDemo(repositories: Repositories, writes: Atomic, options: SeedOptions = {}): Promise<SeedResult> {
  const password = options.ownerPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return writes.write(() => insertDemo(repositories, options, password, passwordHash));
}

async function insertDemo(r: Repositories, options: SeedOptions, password: string, passwordHash: string): Promise<SeedResult> {
  let email = options.ownerEmail ?? DEMO_OWNER_EMAIL;
  if (options.ownerEmail === undefined && (await r.users.getByEmail(email))) {
    email = `owner-${generatePassword().slice(0, 8).toLowerCase()}@demo.cairn.local`;
  }
  const organization = await r.organizations.create({
    name: options.organizationName ?? DEMO_ORGANIZATION_NAME,
    products: [...PRODUCTS],
    cardOnFile: true,
    limits: { ...DEFAULT_LIMITS },
  });
  const owner = await r.users.createWithHash({ email, passwordHash, name: 'Demo owner' });
  await r.memberships.add(organization.id, owner.id, 'owner');
  const pk = await r.apiKeys.create({
    organizationId: organization.id,
    type: 'pk',
    name: 'Demo publishable key',
    scopes: [...DEMO_PUBLISHABLE_SCOPES],
  });
  const sk = await r.apiKeys.create({ organizationId: organization.id, type: 'sk', name: 'Demo secret key' });
  const collection = await r.collections.create({
    organizationId: organization.id,
    name: DEMO_COLLECTION_NAME,
    description: 'Routes in the demo valley.',
    privacy: 'public',
    createdBy: owner.id,
  });
  // A new organization holds no collection yet, so its name cannot be taken.
  if (isConflict(collection)) throw new Error('the demo collection name is taken');
  return {
    organization: { id: organization.id, name: organization.name },
    owner: { id: owner.id, email: owner.email, password },
    publishableKey: { id: pk.apiKey.id, key: pk.plaintext, scopes: pk.apiKey.scopes },
    secretKey: { id: sk.apiKey.id, key: sk.plaintext },
    collection: { id: collection.id, name: collection.name },
  };
}

/**
 * Seeds the demo when the database holds no organization (first `npm start`); returns undefined otherwise.
 * The emptiness check and the inserts share one unit of work, so two processes (or nodes) starting at once
 * seed only once.
 */
export async function seedDemoIfEmpty(
  repositories: Repositories,
  writes: Atomic,
  options: SeedOptions = {},
): Promise<SeedResult | undefined> {
  if ((await repositories.organizations.count()) > 0) return undefined;
  const password = options.ownerPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);
  return writes.write(async () =>
    (await repositories.organizations.count()) > 0 ? undefined : insertDemo(repositories, options, password, passwordHash),
  );
}
