// The repositories: one interface per aggregate, every method asynchronous, so that the core never knows
// which database answers. The better-sqlite3 adapter (./stores/, synchronous statements on one connection)
// stands behind them today (./repositories-sqlite.ts); a second adapter implements the same interfaces and
// passes the same contract suite (test/data/repositories.contract.ts).

import type { Conflict } from './model/conflict.js';
import type { ApiKey, ApiKeyCreate, ApiKeyPatch, CreatedApiKey, Scope } from './model/api-key.js';
import type {
  Collection,
  CollectionCreate,
  CollectionListOptions,
  CollectionPatch,
  CollectionScope,
  HoldingListOptions,
} from './model/collection.js';
import type { CollectionItineraryOptions, GroupedItinerary, GroupedListOptions, Itinerary, ItineraryCreate } from './model/itinerary.js';
import type { AcquireResult, Lock, LockPart } from './model/lock.js';
import type { MemberWithUser, Membership, MembershipWithOrganization, Role } from './model/membership.js';
import type { OAuthClient, OAuthCode, OAuthCodeCreate, OAuthRefreshGrant, RefreshRotation } from './model/oauth.js';
import type {
  AiSettings,
  Limits,
  Organization,
  OrganizationCreate,
  OrganizationPatch,
  OrganizationStatus,
  Product,
} from './model/organization.js';
import type { SegmentGroupRecord } from './model/segment-group.js';
import type { SegmentRecord } from './model/segment.js';
import type { ShareLink, ShareLinkMint, ShareResourceKind } from './model/share-link.js';
import type { UsageBucket, UsageDay, UsageQuery } from './model/usage.js';
import type { User, UserCreate } from './model/user.js';
import type { WaypointRecord } from './model/waypoint.js';
import type { Zone, ZoneCreate, ZonePatch } from './model/zone.js';

export interface ApiKeyRepository {
  /**
   * Creates a key and returns it with its plaintext. Secret keys are stored as SHA-256 only, so the plaintext
   * returned here cannot be recovered later. Unknown organization: SQLite FOREIGNKEY constraint error.
   */
  create(input: ApiKeyCreate): Promise<CreatedApiKey>;
  get(id: string): Promise<ApiKey | undefined>;
  /** Finds a publishable key by its value. Revoked keys are returned only with includeRevoked. */
  findPublishable(
    value: string,
    options?: {
      includeRevoked?: boolean;
    },
  ): Promise<ApiKey | undefined>;
  /** Finds a secret key by its plaintext (hashed here). Revoked keys are returned only with includeRevoked. */
  findSecret(
    plaintext: string,
    options?: {
      includeRevoked?: boolean;
    },
  ): Promise<ApiKey | undefined>;
  /** Finds a secret key by the SHA-256 hex of its plaintext. */
  findSecretByHash(
    hash: string,
    options?: {
      includeRevoked?: boolean;
    },
  ): Promise<ApiKey | undefined>;
  /** The organization's keys, oldest first; revoked ones only with includeRevoked. */
  list(
    organizationId: string,
    options?: {
      includeRevoked?: boolean;
    },
  ): Promise<ApiKey[]>;
  /** Changes name, scopes and/or allowed origins. Undefined when the key does not exist. */
  update(id: string, patch: ApiKeyPatch): Promise<ApiKey | undefined>;
  rename(id: string, name: string): Promise<ApiKey | undefined>;
  setScopes(id: string, scopes: Scope[]): Promise<ApiKey | undefined>;
  setAllowedOrigins(id: string, allowedOrigins: string[]): Promise<ApiKey | undefined>;
  /** Revokes the key at once (idempotent: a second call keeps the first time). Undefined when unknown. */
  revoke(id: string): Promise<ApiKey | undefined>;
}

export interface CollectionRepository {
  /** Creates a collection; a name taken in the same organization, scope and owner is a Conflict. */
  create(input: CollectionCreate): Promise<Collection | Conflict>;
  get(id: string): Promise<Collection | undefined>;
  /** The collection holding `name` in the same organization, scope and owner (for 409 metadata). */
  findByName(organizationId: string, scope: CollectionScope, ownerUserId: string | null, name: string): Promise<Collection | undefined>;
  /** One page of an organization's collections, oldest first, with the total matching the filters. */
  list(
    organizationId: string,
    options?: CollectionListOptions,
  ): Promise<{
    items: Collection[];
    total: number;
  }>;
  delete(id: string): Promise<boolean>;
  /** Files an itinerary in the collection (idempotent). */
  addItinerary(collectionId: string, itineraryId: string): Promise<void>;
  removeItinerary(collectionId: string, itineraryId: string): Promise<boolean>;
  itineraryIds(collectionId: string): Promise<string[]>;
  /** Files a zone in the collection (idempotent). */
  addZone(collectionId: string, zoneId: string): Promise<void>;
  removeZone(collectionId: string, zoneId: string): Promise<boolean>;
  zoneIds(collectionId: string): Promise<string[]>;
  /**
   * Partial update: undefined fields keep their value. A name taken in the same organization, scope and owner
   * is a Conflict; undefined when the collection does not exist.
   */
  update(id: string, patch: CollectionPatch): Promise<Collection | Conflict | undefined>;
  /** Every collection of the organization, both scopes (plan limit `collections`). */
  countByOrganization(organizationId: string): Promise<number>;
  /** One page of a user's personal collections (optionally within one organization), oldest first. */
  listPersonal(
    ownerUserId: string,
    options?: {
      organizationId?: string;
      publicOnly?: boolean;
      limit?: number;
      offset?: number;
    },
  ): Promise<{
    items: Collection[];
    total: number;
  }>;
  /** One page of the collections an itinerary or a zone is filed in, as `options` lets the caller see them. */
  listHolding(
    kind: 'itinerary' | 'zone',
    itemId: string,
    options: HoldingListOptions,
  ): Promise<{
    items: Collection[];
    total: number;
  }>;
  /** Whether the itinerary is filed in the collection. */
  holdsItinerary(collectionId: string, itineraryId: string): Promise<boolean>;
  /** Whether the zone is filed in the collection. */
  holdsZone(collectionId: string, zoneId: string): Promise<boolean>;
}

export interface ItineraryRepository {
  /** Creates an itinerary (draft version 1, never published); a name taken in the organization is a Conflict. */
  create(input: ItineraryCreate): Promise<Itinerary | Conflict>;
  get(id: string): Promise<Itinerary | undefined>;
  /** The itinerary holding `name` in the organization (for 409 metadata). */
  findByName(organizationId: string, name: string): Promise<Itinerary | undefined>;
  list(
    organizationId: string,
    options?: {
      publicOnly?: boolean;
      limit?: number;
      offset?: number;
    },
  ): Promise<{
    items: Itinerary[];
    total: number;
  }>;
  listByCollection(collectionId: string): Promise<Itinerary[]>;
  /** Marks a draft edit: bumps draft_version and returns the itinerary as bumped (undefined when unknown). */
  bumpDraftVersion(id: string): Promise<Itinerary | undefined>;
  /** Stores `snapshot` (JSON-serializable) as the published version of the current draft. */
  publish(id: string, snapshot: unknown): Promise<Itinerary | undefined>;
  /** The published snapshot, parsed; undefined when never published or unknown. */
  publishedSnapshot(id: string): Promise<unknown>;
  /**
   * Changes the descriptive fields (omitted ones keep their value) and, with `bumpDraft`, marks a draft edit
   * at once. A name taken in the organization is a Conflict; undefined when the itinerary does not exist.
   */
  update(
    id: string,
    patch: Partial<Pick<Itinerary, 'name' | 'description' | 'activity' | 'privacy'>>,
    options?: { bumpDraft?: boolean },
  ): Promise<Itinerary | Conflict | undefined>;
  delete(id: string): Promise<boolean>;
  /** One page of the itineraries filed in a collection, in filing order, with the total matching the filters. */
  listInCollection(
    collectionId: string,
    options: CollectionItineraryOptions,
  ): Promise<{
    items: Itinerary[];
    total: number;
  }>;
  /**
   * One page of the organizations' itineraries ordered by group (the first of `collectionIds` holding each, then
   * those in none), then by creation. `total` counts every itinerary matching the filters.
   */
  listGrouped(options: GroupedListOptions): Promise<{
    items: GroupedItinerary[];
    total: number;
  }>;
}

export interface LockRepository {
  /** Live locks of an itinerary. */
  list(itineraryId: string, now: number): Promise<Lock[]>;
  /** The live lock on one part, if any. */
  get(itineraryId: string, part: LockPart, now: number): Promise<Lock | undefined>;
  /** Removes the locks that lapsed by `now` (of one itinerary, or all) and returns them. */
  expire(now: number, itineraryId?: string): Promise<Lock[]>;
  /**
   * Takes (or renews) the locks on every part for `userId`, all or nothing: if another member holds a live
   * lock on any part, nothing changes and that part and holder are returned. Lapsed locks are taken over
   * (call `expire` first to learn whose they were).
   */
  acquire(itineraryId: string, userId: string, parts: readonly LockPart[], now: number, ttlMs?: number): Promise<AcquireResult>;
  /**
   * For a guarded write: the holder that blocks `userId` from changing `parts`: another member's id, NO_HOLDER
   * when a part is not locked at all, or undefined when the caller holds every part.
   */
  blockingHolder(itineraryId: string, userId: string, parts: readonly LockPart[], now: number): Promise<string | undefined>;
  /** Another member's live lock anywhere on the itinerary (blocks publishing). */
  heldByOther(itineraryId: string, userId: string, now: number): Promise<Lock | undefined>;
  /** Releases the caller's locks on the given parts, or all of them; returns the locks released. */
  release(itineraryId: string, userId: string, parts?: readonly LockPart[]): Promise<Lock[]>;
  /** Drops every lock on parts that no longer exist, whoever held them; returns the locks dropped. */
  dropParts(itineraryId: string, parts: readonly LockPart[]): Promise<Lock[]>;
}

export interface MembershipRepository {
  /**
   * Makes the user a member with `role`; an existing membership keeps its creation time and takes the new
   * role (idempotent). Unknown organization or user: SQLite FOREIGNKEY constraint error.
   */
  add(organizationId: string, userId: string, role: Role): Promise<Membership>;
  get(organizationId: string, userId: string): Promise<Membership | undefined>;
  /** Changes the role of an existing member; undefined when not a member. */
  setRole(organizationId: string, userId: string, role: Role): Promise<Membership | undefined>;
  remove(organizationId: string, userId: string): Promise<boolean>;
  listByOrganization(organizationId: string): Promise<MemberWithUser[]>;
  listByUser(userId: string): Promise<MembershipWithOrganization[]>;
}

export interface OAuthRepository {
  /** Registers a client: public (PKCE alone) or with a secret, returned here once (kept as its hash). */
  registerClient(input: {
    name?: string | null;
    redirectUris: string[];
    metadata?: Record<string, unknown>;
    tokenEndpointAuthMethod?: 'none' | 'client_secret_post' | 'client_secret_basic';
  }): Promise<OAuthClient & { secret?: string }>;
  /** Keeps (or refreshes) a client known by the URL of its client ID metadata document. */
  saveUrlClient(input: {
    id: string;
    name?: string | null;
    redirectUris: string[];
    metadata: Record<string, unknown>;
  }): Promise<OAuthClient>;
  getClient(id: string): Promise<OAuthClient | undefined>;
  /** Whether `secret` is this client's secret (constant time); false for public clients. */
  checkClientSecret(id: string, secret: string): Promise<boolean>;
  /** Issues an authorization code (43 base64url characters) and returns it in clear; only its hash is kept. */
  createCode(input: OAuthCodeCreate, now?: number): Promise<{ code: string; record: OAuthCode }>;
  /** Redeems a code once: undefined when unknown, expired or already used. The caller then checks PKCE. */
  consumeCode(code: string, now?: number): Promise<OAuthCode | undefined>;
  /** Whether this code was issued and has been redeemed already (a second redemption is an attack signal). */
  codeRedeemed(code: string): Promise<boolean>;
  /** Deletes expired refresh tokens, and codes expired for longer than `keepMs`; returns how many codes. */
  purgeExpiredCodes(now?: number, keepMs?: number): Promise<number>;
  /** Issues a refresh token for a grant (only its hash is kept); undefined when the family has been revoked. */
  issueRefreshToken(grant: OAuthRefreshGrant, ttlMs: number, now?: number): Promise<string | undefined>;
  /** Exchanges a refresh token once for a successor (rotation), for its own client; a used one presented again revokes its family. */
  rotateRefreshToken(token: string, clientId: string, ttlMs: number, now?: number): Promise<RefreshRotation>;
  /** Revokes a family: its refresh tokens, its access tokens and any token still to join it. */
  revokeFamily(familyId: string, now?: number): Promise<void>;
  familyRevoked(familyId: string): Promise<boolean>;
}

export interface OrganizationRepository {
  /** Creates an organization. Defaults: active, no session requirement, quotas 60/600, no products, no card. */
  create(input: OrganizationCreate): Promise<Organization>;
  get(id: string): Promise<Organization | undefined>;
  list(): Promise<Organization[]>;
  count(): Promise<number>;
  /**
   * Applies a partial update (read-modify-write in one transaction). `limits`, when given, replaces the whole
   * map; use setLimit to change one dimension. Returns undefined when the organization does not exist.
   */
  update(id: string, patch: OrganizationPatch): Promise<Organization | undefined>;
  /** Settings a dashboard edits: session requirement, quotas, embed layers, default origins. */
  updateSettings(
    id: string,
    settings: Pick<
      OrganizationPatch,
      'requireSessionToken' | 'quotaData' | 'quotaTiles' | 'embedLayers' | 'embedPlanner' | 'defaultAllowedOrigins'
    >,
  ): Promise<Organization | undefined>;
  /** Sets one limit dimension: a number, null (unlimited), or undefined to remove it (not granted). */
  setLimit(id: string, dimension: string, value: number | null | undefined): Promise<Organization | undefined>;
  setLimits(id: string, limits: Limits): Promise<Organization | undefined>;
  setProducts(id: string, products: Product[]): Promise<Organization | undefined>;
  setCardOnFile(id: string, cardOnFile: boolean): Promise<Organization | undefined>;
  setStatus(id: string, status: OrganizationStatus): Promise<Organization | undefined>;
  setAiSettings(id: string, aiSettings: AiSettings): Promise<Organization | undefined>;
  /** Deletes the organization and (by cascade) everything it owns. Returns whether a row was deleted. */
  delete(id: string): Promise<boolean>;
}

export interface SegmentGroupRepository {
  /** The itinerary's groups in creation order. */
  listByItinerary(itineraryId: string): Promise<SegmentGroupRecord[]>;
  upsert(record: SegmentGroupRecord): Promise<void>;
  delete(itineraryId: string, id: string): Promise<boolean>;
}

export interface SegmentRepository {
  /** The itinerary's segments in chain order. */
  listByItinerary(itineraryId: string): Promise<SegmentRecord[]>;
  /** Inserts or replaces a segment (keyed by id, never moved to another itinerary). */
  upsert(record: SegmentRecord): Promise<void>;
  delete(itineraryId: string, id: string): Promise<boolean>;
}

export interface SettingsRepository {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /**
   * Returns the stored value, storing `create()` first when absent. Safe against a concurrent first start:
   * whichever process inserts first wins and both read the same value back.
   */
  getOrCreate(key: string, create: () => string): Promise<string>;
  delete(key: string): Promise<boolean>;
}

export interface ShareLinkRepository {
  /**
   * Mints a new link for the resource and returns it with its token (shown once: only the hash is kept).
   * A live link for the same resource is disabled in the same transaction, since its token cannot be shown again.
   */
  mint(input: ShareLinkMint): Promise<{
    link: ShareLink;
    token: string;
  }>;
  /** Replaces the live link with a new token; undefined when the resource has no live link. */
  rotate(
    kind: ShareResourceKind,
    resourceId: string,
    createdBy?: string | null,
  ): Promise<
    | {
        link: ShareLink;
        token: string;
      }
    | undefined
  >;
  /** Disables the live link; false when there was none. */
  disable(kind: ShareResourceKind, resourceId: string): Promise<boolean>;
  getActive(kind: ShareResourceKind, resourceId: string): Promise<ShareLink | undefined>;
  /**
   * The live link a presented token opens; undefined for a malformed, unknown, rotated or disabled token
   * (callers answer the same opaque 401 for all of them). The lookup is by SHA-256, so it leaks no timing
   * about the stored token.
   */
  findByToken(token: string): Promise<ShareLink | undefined>;
}

export interface UsageRepository {
  /** Adds `by` (default 1) to the bucket and returns its new count. */
  increment(organizationId: string, api: string, minute: number, by?: number): Promise<number>;
  get(organizationId: string, api: string, minute: number): Promise<number>;
  /** Per-minute buckets in [fromMinute, toMinute), empty buckets omitted. */
  query(q: UsageQuery): Promise<UsageBucket[]>;
  /** Per-UTC-day totals per API in [fromMinute, toMinute). */
  queryDaily(q: Omit<UsageQuery, 'api'>): Promise<UsageDay[]>;
  /** Deletes buckets older than `beforeMinute`; returns how many. */
  prune(beforeMinute: number): Promise<number>;
}

export interface UserRepository {
  /** Creates a user, hashing the password. A taken email throws a SQLite UNIQUE constraint error. */
  create(input: UserCreate): Promise<User>;
  /** Creates a user from an already computed hash (see credentials.hashPassword, which does not block). */
  createWithHash(input: { email: string; passwordHash: string; name?: string | null | undefined }): Promise<User>;
  get(id: string): Promise<User | undefined>;
  getByEmail(email: string): Promise<User | undefined>;
  count(): Promise<number>;
  setPasswordHash(id: string, passwordHash: string): Promise<boolean>;
  /**
   * Returns the user when the email exists and the password matches, otherwise undefined. An unknown email
   * still runs one scrypt against a dummy hash, so timing does not reveal which emails exist.
   */
  verifyPassword(email: string, password: string): Promise<User | undefined>;
}

export interface WaypointRepository {
  /** The itinerary's waypoints in chain order. */
  listByItinerary(itineraryId: string): Promise<WaypointRecord[]>;
  /** Inserts or replaces a waypoint (keyed by id, never moved to another itinerary). */
  upsert(record: WaypointRecord): Promise<void>;
  delete(itineraryId: string, id: string): Promise<boolean>;
}

export interface ZoneRepository {
  /** Creates a zone. CIRCLE needs radiusM, CORRIDOR needs widthM (CHECK constraint error otherwise). */
  create(input: ZoneCreate): Promise<Zone>;
  get(id: string): Promise<Zone | undefined>;
  list(
    organizationId: string,
    options?: {
      publicOnly?: boolean;
      limit?: number;
      offset?: number;
    },
  ): Promise<{
    items: Zone[];
    total: number;
  }>;
  listByCollection(collectionId: string): Promise<Zone[]>;
  /** Partial update: undefined fields keep their value. Undefined when the zone does not exist. */
  update(id: string, patch: ZonePatch): Promise<Zone | undefined>;
  delete(id: string): Promise<boolean>;
  /** Every zone of the organization (plan limit `zones`). */
  countByOrganization(organizationId: string): Promise<number>;
  /** One page of the zones filed in a collection, in filing order, with the total matching the filter. */
  listInCollection(
    collectionId: string,
    options: {
      publicOnly: boolean;
      limit: number;
      offset: number;
    },
  ): Promise<{
    items: Zone[];
    total: number;
  }>;
}
/** Every repository of one database, as the composition root hands them to the core. */
export interface Repositories {
  organizations: OrganizationRepository;
  users: UserRepository;
  memberships: MembershipRepository;
  apiKeys: ApiKeyRepository;
  usage: UsageRepository;
  settings: SettingsRepository;
  collections: CollectionRepository;
  itineraries: ItineraryRepository;
  /** An itinerary's chain: its segments, waypoints and segment groups. */
  segments: SegmentRepository;
  waypoints: WaypointRepository;
  segmentGroups: SegmentGroupRepository;
  zones: ZoneRepository;
  shareLinks: ShareLinkRepository;
  locks: LockRepository;
  oauth: OAuthRepository;
}
