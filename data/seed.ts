// Demo seeding: an organization with every product, an owner, a publishable and a secret key, a demo collection.
import { generatePassword, hashPasswordSync } from './credentials.js';
import type { Database } from './db.js';
import { isConflict } from './stores/conflict.js';
import { createStores } from './stores/stores.js';
import type { Scope } from './stores/api-key-store.js';
import { DEFAULT_LIMITS, PRODUCTS } from './stores/organization-store.js';

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
 * Always creates a new demo organization (the admin `bootstrap` command). All rows are written in one
 * transaction: on any failure nothing is left behind. The password is hashed before the transaction so the
 * write lock is held only for the inserts.
 */
export function seedDemo(db: Database, options: SeedOptions = {}): SeedResult {
  const password = options.ownerPassword ?? generatePassword();
  const passwordHash = hashPasswordSync(password);
  return db.transaction(() => insertDemo(db, options, password, passwordHash)).immediate();
}

function insertDemo(db: Database, options: SeedOptions, password: string, passwordHash: string): SeedResult {
  const stores = createStores(db);
  let email = options.ownerEmail ?? DEMO_OWNER_EMAIL;
  if (options.ownerEmail === undefined && stores.users.getByEmail(email)) {
    email = `owner-${generatePassword().slice(0, 8).toLowerCase()}@demo.cairn.local`;
  }
  const organization = stores.organizations.create({
    name: options.organizationName ?? DEMO_ORGANIZATION_NAME,
    products: [...PRODUCTS],
    cardOnFile: true,
    limits: { ...DEFAULT_LIMITS },
  });
  const owner = stores.users.createWithHash({ email, passwordHash, name: 'Demo owner' });
  stores.memberships.add(organization.id, owner.id, 'owner');
  const pk = stores.apiKeys.create({
    organizationId: organization.id,
    type: 'pk',
    name: 'Demo publishable key',
    scopes: [...DEMO_PUBLISHABLE_SCOPES],
  });
  const sk = stores.apiKeys.create({ organizationId: organization.id, type: 'sk', name: 'Demo secret key' });
  const collection = stores.collections.create({
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
 * The emptiness check and the inserts share one IMMEDIATE transaction, so two processes starting at once
 * seed only once.
 */
export function seedDemoIfEmpty(db: Database, options: SeedOptions = {}): SeedResult | undefined {
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM organizations');
  if ((count.get()?.n ?? 0) > 0) return undefined;
  // Hash outside the write lock, then re-check inside it.
  const password = options.ownerPassword ?? generatePassword();
  const passwordHash = hashPasswordSync(password);
  return db.transaction(() => ((count.get()?.n ?? 0) > 0 ? undefined : insertDemo(db, options, password, passwordHash))).immediate();
}
