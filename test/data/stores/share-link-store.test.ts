import { describe, expect, it } from 'vitest';
import { SHARE_TOKEN_PATTERN } from '../../../data/credentials.js';
import { memoryStores, created } from '../memory-db.js';

function setup() {
  const stores = memoryStores();
  const org = stores.organizations.create({ name: 'S' });
  const collection = created(stores.collections.create({ organizationId: org.id, name: 'C' }));
  return { stores, org, collection };
}

describe('ShareLinkStore', () => {
  it('mints a share_ token stored only as its hash and finds the link by token', () => {
    const { stores, org, collection } = setup();
    const { link, token } = stores.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
    expect(token).toMatch(SHARE_TOKEN_PATTERN);
    expect(JSON.stringify(stores.db.prepare('SELECT * FROM share_links').all())).not.toContain(token);
    expect(stores.shareLinks.findByToken(token)).toEqual(link);
    expect(stores.shareLinks.getActive('collection', collection.id)).toEqual(link);
  });

  it('rotation invalidates the old token and disabling invalidates the link', () => {
    const { stores, org, collection } = setup();
    const first = stores.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
    const rotated = stores.shareLinks.rotate('collection', collection.id);
    expect(rotated?.token).not.toBe(first.token);
    expect(stores.shareLinks.findByToken(first.token)).toBeUndefined();
    expect(stores.shareLinks.findByToken(rotated?.token ?? '')?.resourceId).toBe(collection.id);
    expect(stores.shareLinks.disable('collection', collection.id)).toBe(true);
    expect(stores.shareLinks.findByToken(rotated?.token ?? '')).toBeUndefined();
    expect(stores.shareLinks.disable('collection', collection.id)).toBe(false);
    expect(stores.shareLinks.rotate('collection', collection.id)).toBeUndefined();
  });

  it('minting again replaces the live link, so there is at most one', () => {
    const { stores, org, collection } = setup();
    const a = stores.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
    const b = stores.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
    expect(stores.shareLinks.findByToken(a.token)).toBeUndefined();
    expect(stores.shareLinks.findByToken(b.token)?.id).toBe(b.link.id);
  });

  it('malformed and unknown tokens find nothing', () => {
    const { stores } = setup();
    expect(stores.shareLinks.findByToken('share_xyz')).toBeUndefined();
    expect(stores.shareLinks.findByToken(`share_${'0'.repeat(32)}`)).toBeUndefined();
  });

  it('deleting the shared resource deletes its links', () => {
    const { stores, org, collection } = setup();
    const { token } = stores.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
    stores.collections.delete(collection.id);
    expect(stores.shareLinks.findByToken(token)).toBeUndefined();
    expect(stores.db.prepare<[], { n: number }>('SELECT count(*) AS n FROM share_links').get()?.n).toBe(0);
  });
});
