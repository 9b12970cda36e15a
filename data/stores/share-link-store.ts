// Share links: one live read-only link per collection or itinerary, stored as the SHA-256 of its share_ token.
// SQLite statements only: the record and its row mapping live in ../model/share-link.ts.
import type { Statement } from 'better-sqlite3';
import { generateShareToken, hashSecret, SHARE_TOKEN_PATTERN } from '../credentials.js';
import { nowIso, type Database } from '../db.js';
import {
  COLUMNS,
  type ShareLink,
  type ShareLinkMint,
  type ShareLinkRow,
  type ShareResourceKind,
  toShareLink,
  newShareLinkRow,
} from '../model/share-link.js';

export class ShareLinkStore {
  readonly #db: Database;
  readonly #insert: Statement<ShareLinkRow>;
  readonly #active: Statement<[string, string], ShareLinkRow>;
  readonly #byHash: Statement<[string], ShareLinkRow>;
  readonly #disable: Statement<[string, string, string]>;

  constructor(db: Database) {
    this.#db = db;
    this.#insert = db.prepare(
      `INSERT INTO share_links (${COLUMNS}) VALUES (@id, @organization_id, @resource_kind, @resource_id, @token_hash,
        @created_by, @created_at, @disabled_at)`,
    );
    this.#active = db.prepare(`SELECT ${COLUMNS} FROM share_links WHERE resource_kind = ? AND resource_id = ? AND disabled_at IS NULL`);
    this.#byHash = db.prepare(`SELECT ${COLUMNS} FROM share_links WHERE token_hash = ? AND disabled_at IS NULL`);
    this.#disable = db.prepare(
      'UPDATE share_links SET disabled_at = ? WHERE resource_kind = ? AND resource_id = ? AND disabled_at IS NULL',
    );
  }

  /**
   * Mints a new link for the resource and returns it with its token (shown once: only the hash is kept).
   * A live link for the same resource is disabled in the same transaction, since its token cannot be shown again.
   */
  mint(input: ShareLinkMint): { link: ShareLink; token: string } {
    const token = generateShareToken();
    return this.#db
      .transaction(() => {
        this.#disable.run(nowIso(), input.resourceKind, input.resourceId);
        const row = newShareLinkRow(input, token);
        this.#insert.run(row);
        return { link: toShareLink(row), token };
      })
      .immediate();
  }

  /** Replaces the live link with a new token; undefined when the resource has no live link. */
  rotate(kind: ShareResourceKind, resourceId: string, createdBy?: string | null): { link: ShareLink; token: string } | undefined {
    return this.#db
      .transaction(() => {
        const current = this.#active.get(kind, resourceId);
        if (!current) return undefined;
        return this.mint({ organizationId: current.organization_id, resourceKind: kind, resourceId, createdBy: createdBy ?? null });
      })
      .immediate();
  }

  /** Disables the live link; false when there was none. */
  disable(kind: ShareResourceKind, resourceId: string): boolean {
    return this.#disable.run(nowIso(), kind, resourceId).changes > 0;
  }

  getActive(kind: ShareResourceKind, resourceId: string): ShareLink | undefined {
    const row = this.#active.get(kind, resourceId);
    return row ? toShareLink(row) : undefined;
  }

  /**
   * The live link a presented token opens; undefined for a malformed, unknown, rotated or disabled token
   * (callers answer the same opaque 401 for all of them). The lookup is by SHA-256, so it leaks no timing
   * about the stored token.
   */
  findByToken(token: string): ShareLink | undefined {
    if (!SHARE_TOKEN_PATTERN.test(token)) return undefined;
    const row = this.#byHash.get(hashSecret(token));
    return row ? toShareLink(row) : undefined;
  }
}
