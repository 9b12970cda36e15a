// Share links on PostgreSQL (the SQLite twin: data/stores/share-link-store.ts). The schema's partial unique
// index keeps one live link per resource; triggers remove a resource's links when it is deleted.
import { generateShareToken, hashSecret, SHARE_TOKEN_PATTERN } from '../credentials.js';
import { nowIso } from '../db.js';
import type { ShareLinkRepository } from '../repositories.js';
import {
  COLUMNS,
  type ShareLink,
  type ShareLinkMint,
  type ShareLinkRow,
  type ShareResourceKind,
  toShareLink,
  newShareLinkRow,
} from '../model/share-link.js';
import type { PgDatabase } from './pg-database.js';

const DISABLE = 'UPDATE share_links SET disabled_at = $1 WHERE resource_kind = $2 AND resource_id = $3 AND disabled_at IS NULL';

export class PgShareLinkRepository implements ShareLinkRepository {
  constructor(private readonly db: PgDatabase) {}

  async mint(input: ShareLinkMint): Promise<{ link: ShareLink; token: string }> {
    const token = generateShareToken();
    // Disable and insert in one transaction (a savepoint inside the caller's); two nodes minting at once collide
    // on the live row or the one-live-link index, and SERIALIZABLE runs the loser again after the winner.
    return this.db.transaction(async () => {
      await this.db.query(DISABLE, [nowIso(), input.resourceKind, input.resourceId]);
      const row = newShareLinkRow(input, token);
      await this.db.query(`INSERT INTO share_links (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
        row.id,
        row.organization_id,
        row.resource_kind,
        row.resource_id,
        row.token_hash,
        row.created_by,
        row.created_at,
        row.disabled_at,
      ]);
      return { link: toShareLink(row), token };
    });
  }

  async rotate(
    kind: ShareResourceKind,
    resourceId: string,
    createdBy?: string | null,
  ): Promise<{ link: ShareLink; token: string } | undefined> {
    // Check-then-mint in one SERIALIZABLE transaction (retried), as the SQLite store does under its single writer.
    return this.db.transaction(async () => {
      const current = await this.#active(kind, resourceId);
      if (!current) return undefined;
      return this.mint({ organizationId: current.organization_id, resourceKind: kind, resourceId, createdBy: createdBy ?? null });
    });
  }

  async disable(kind: ShareResourceKind, resourceId: string): Promise<boolean> {
    return (await this.db.changes(DISABLE, [nowIso(), kind, resourceId])) > 0;
  }

  async getActive(kind: ShareResourceKind, resourceId: string): Promise<ShareLink | undefined> {
    const row = await this.#active(kind, resourceId);
    return row ? toShareLink(row) : undefined;
  }

  async findByToken(token: string): Promise<ShareLink | undefined> {
    if (!SHARE_TOKEN_PATTERN.test(token)) return undefined;
    const row = await this.db.row<ShareLinkRow>(`SELECT ${COLUMNS} FROM share_links WHERE token_hash = $1 AND disabled_at IS NULL`, [
      hashSecret(token),
    ]);
    return row ? toShareLink(row) : undefined;
  }

  #active(kind: ShareResourceKind, resourceId: string): Promise<ShareLinkRow | undefined> {
    return this.db.row<ShareLinkRow>(
      `SELECT ${COLUMNS} FROM share_links WHERE resource_kind = $1 AND resource_id = $2 AND disabled_at IS NULL`,
      [kind, resourceId],
    );
  }
}
