// The policy's visibility rules for reads by id, listings and the role field, for callers read from a real
// in-memory database (a signed-in user's memberships as the access layer reads them).

import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../data/db.js';
import { createStores, type Stores } from '../../../data/stores/stores.js';
import type { Access } from '../../../server/auth/access.js';
import { canReadById, listsPrivate, roleOf, shareCovers } from '../../../server/core/policy.js';

let stores: Stores;
let own: Access;
let ownWithSession: Access;
let member: Access;
let outsider: Access;
let orgA: string;
let orgB: string;
let memberId: string;

beforeAll(() => {
  stores = createStores(openDatabase(':memory:'));
  const a = stores.organizations.create({ name: 'A' });
  const b = stores.organizations.create({ name: 'B' });
  orgA = a.id;
  orgB = b.id;
  const key = stores.apiKeys.create({ organizationId: orgA, type: 'pk', name: 'k', scopes: ['resources'] }).apiKey;
  const user = stores.users.createWithHash({ email: 'm@a.test', passwordHash: 'scrypt$x' });
  const stranger = stores.users.createWithHash({ email: 's@b.test', passwordHash: 'scrypt$x' });
  memberId = user.id;
  stores.memberships.add(orgA, user.id, 'contributor');
  stores.memberships.add(orgB, stranger.id, 'owner');
  own = { kind: 'key', organization: a, key, session: undefined, actingMember: undefined };
  ownWithSession = { ...own, session: { kid: key.id, sid: 'x', org: orgA, iat: 0, exp: 0 } } as Access;
  const membershipsOf = (id: string) => new Map(stores.memberships.listByUser(id).map((m) => [m.organizationId, m.role]));
  member = { kind: 'user', user, memberships: membershipsOf(user.id) };
  outsider = { kind: 'user', user: stranger, memberships: membershipsOf(stranger.id) };
});

describe('reads by id', () => {
  it("a key reads its own organization's private resources and others' public ones only", () => {
    expect(canReadById(own, { organizationId: orgA, privacy: 'private' })).toBe(true);
    expect(canReadById(own, { organizationId: orgB, privacy: 'public' })).toBe(true);
    expect(canReadById(own, { organizationId: orgB, privacy: 'private' })).toBe(false);
  });

  it("a private personal collection is its creator's alone", () => {
    const personal = { organizationId: orgA, privacy: 'private' as const, scope: 'personal' as const, ownerUserId: memberId };
    expect(canReadById(member, personal)).toBe(true);
    expect(canReadById(own, personal)).toBe(false);
    expect(canReadById(outsider, personal)).toBe(false);
  });

  it("a signed-in user reads their organizations' private resources, not others'", () => {
    expect(canReadById(member, { organizationId: orgA, privacy: 'private' })).toBe(true);
    expect(canReadById(outsider, { organizationId: orgA, privacy: 'private' })).toBe(false);
  });
});

describe('listings and roles', () => {
  it("a bare key lists public resources only; a session token lists its organization's private ones", () => {
    expect(listsPrivate(own, orgA)).toBe(false);
    expect(listsPrivate(ownWithSession, orgA)).toBe(true);
    expect(listsPrivate(ownWithSession, orgB)).toBe(false);
  });

  it('the role is viewer for keys and the member role for signed-in users', () => {
    expect(roleOf(ownWithSession, orgA)).toBe('viewer');
    expect(roleOf(member, orgA)).toBe('contributor');
    expect(roleOf(outsider, orgA)).toBe('viewer');
  });
});

describe('share coverage', () => {
  const link = (kind: 'collection' | 'itinerary', id: string): Access => ({
    kind: 'share',
    link: { id: 'l', organizationId: 'o', resourceKind: kind, resourceId: id, createdBy: null, createdAt: '', disabledAt: null },
  });

  it('an itinerary link reaches that itinerary only', () => {
    const access = link('itinerary', 'i1');
    expect(shareCovers(access, { kind: 'itinerary', id: 'i1' }, () => true)).toBe(true);
    expect(shareCovers(access, { kind: 'itinerary', id: 'i2' }, () => true)).toBe(false);
    expect(shareCovers(access, { kind: 'collection', id: 'c1' }, () => true)).toBe(false);
  });

  it('a collection link reaches the collection and what is filed in it, asked at read time', () => {
    const filed = new Set(['i1']);
    const access = link('collection', 'c1');
    const inC1 = (id: string) => ({ kind: 'itinerary' as const, id });
    expect(shareCovers(access, { kind: 'collection', id: 'c1' }, () => false)).toBe(true);
    expect(shareCovers(access, inC1('i2'), () => filed.has('i2'))).toBe(false);
    filed.add('i2'); // filed later
    expect(shareCovers(access, inC1('i2'), () => filed.has('i2'))).toBe(true);
  });
});
