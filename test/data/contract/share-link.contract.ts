// Share links, on any engine (formerly the SQLite ShareLinkStore's own tests).
import { describe, expect, it } from 'vitest';
import { SHARE_TOKEN_PATTERN } from '../../../data/credentials.js';
import { isConflict } from '../../../data/model/conflict.js';
import { type AggregateSubject, type OpenSubject, withFresh } from './subject.js';

async function setup(subject: AggregateSubject) {
  const r = subject.repositories;
  const org = await r.organizations.create({ name: 'S' });
  const collection = await r.collections.create({ organizationId: org.id, name: 'C' });
  if (isConflict(collection)) throw new Error('unexpected conflict');
  return { r, org, collection, rows: subject.rows };
}

export function shareLinkContract(adapter: string, open: OpenSubject): void {
  const withSetup = withFresh(open, setup);

  describe(`share links: ${adapter}`, () => {
    it(
      'mints a share_ token stored only as its hash and finds the link by token',
      withSetup(async ({ r, org, collection, rows }) => {
        const { link, token } = await r.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
        expect(token).toMatch(SHARE_TOKEN_PATTERN);
        expect(JSON.stringify(await rows('SELECT * FROM share_links'))).not.toContain(token);
        expect(await r.shareLinks.findByToken(token)).toEqual(link);
        expect(await r.shareLinks.getActive('collection', collection.id)).toEqual(link);
      }),
    );

    it(
      'rotation invalidates the old token and disabling invalidates the link',
      withSetup(async ({ r, org, collection }) => {
        const first = await r.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
        const rotated = await r.shareLinks.rotate('collection', collection.id);
        expect(rotated?.token).not.toBe(first.token);
        expect(await r.shareLinks.findByToken(first.token)).toBeUndefined();
        expect((await r.shareLinks.findByToken(rotated?.token ?? ''))?.resourceId).toBe(collection.id);
        expect(await r.shareLinks.disable('collection', collection.id)).toBe(true);
        expect(await r.shareLinks.findByToken(rotated?.token ?? '')).toBeUndefined();
        expect(await r.shareLinks.disable('collection', collection.id)).toBe(false);
        expect(await r.shareLinks.rotate('collection', collection.id)).toBeUndefined();
      }),
    );

    it(
      'minting again replaces the live link, so there is at most one',
      withSetup(async ({ r, org, collection }) => {
        const a = await r.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
        const b = await r.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
        expect(await r.shareLinks.findByToken(a.token)).toBeUndefined();
        expect((await r.shareLinks.findByToken(b.token))?.id).toBe(b.link.id);
      }),
    );

    it(
      'malformed and unknown tokens find nothing',
      withSetup(async ({ r }) => {
        expect(await r.shareLinks.findByToken('share_xyz')).toBeUndefined();
        expect(await r.shareLinks.findByToken(`share_${'0'.repeat(32)}`)).toBeUndefined();
      }),
    );

    it(
      'deleting the shared resource deletes its links',
      withSetup(async ({ r, org, collection, rows }) => {
        const { token } = await r.shareLinks.mint({ organizationId: org.id, resourceKind: 'collection', resourceId: collection.id });
        await r.collections.delete(collection.id);
        expect(await r.shareLinks.findByToken(token)).toBeUndefined();
        expect((await rows('SELECT count(*) AS n FROM share_links'))[0]?.n).toBe(0);
      }),
    );
  });
}
