// Memberships on PostgreSQL (the SQLite twin: data/stores/membership-store.ts).
import { nowIso } from '../db.js';
import type { MembershipRepository } from '../repositories.js';
import {
  isRole,
  type MemberWithUser,
  type Membership,
  type MembershipRow,
  type MembershipWithOrganization,
  type Role,
  toMembership,
} from '../model/membership.js';
import type { PgDatabase } from './pg-database.js';

const COLS = 'm.organization_id, m.user_id, m.role, m.created_at, m.updated_at';
const RETURNING = 'RETURNING organization_id, user_id, role, created_at, updated_at';

export class PgMembershipRepository implements MembershipRepository {
  constructor(private readonly db: PgDatabase) {}

  async add(organizationId: string, userId: string, role: Role): Promise<Membership> {
    if (!isRole(role)) throw new TypeError(`unknown role '${String(role)}'`);
    const now = nowIso();
    // One upsert (ON CONFLICT): two nodes adding the same member both end with one row. The savepoint keeps a
    // caller's transaction usable when it catches the foreign-key error of an unknown organization or user.
    const row = await this.db.savepoint(() =>
      this.db.row<MembershipRow>(
        `INSERT INTO memberships (organization_id, user_id, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at
         ${RETURNING}`,
        [organizationId, userId, role, now, now],
      ),
    );
    if (!row) throw new Error('membership upsert returned no row');
    return toMembership(row);
  }

  async get(organizationId: string, userId: string): Promise<Membership | undefined> {
    const row = await this.db.row<MembershipRow>(`SELECT ${COLS} FROM memberships m WHERE m.organization_id = $1 AND m.user_id = $2`, [
      organizationId,
      userId,
    ]);
    return row ? toMembership(row) : undefined;
  }

  async setRole(organizationId: string, userId: string, role: Role): Promise<Membership | undefined> {
    if (!isRole(role)) throw new TypeError(`unknown role '${String(role)}'`);
    const row = await this.db.row<MembershipRow>(
      `UPDATE memberships SET role = $1, updated_at = $2 WHERE organization_id = $3 AND user_id = $4 ${RETURNING}`,
      [role, nowIso(), organizationId, userId],
    );
    return row ? toMembership(row) : undefined;
  }

  async remove(organizationId: string, userId: string): Promise<boolean> {
    return (await this.db.changes('DELETE FROM memberships WHERE organization_id = $1 AND user_id = $2', [organizationId, userId])) > 0;
  }

  /** Ties on created_at by email as SQLite's NOCASE column sorts it: ASCII letters folded, then bytes. */
  async listByOrganization(organizationId: string): Promise<MemberWithUser[]> {
    const rows = await this.db.rows<MembershipRow & { email: string; name: string | null }>(
      `SELECT ${COLS}, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = $1 ORDER BY m.created_at, lower(u.email COLLATE "C")`,
      [organizationId],
    );
    return rows.map((r) => ({ ...toMembership(r), email: r.email, name: r.name }));
  }

  /** Ties on created_at by organization name in byte order (SQLite's BINARY collation). */
  async listByUser(userId: string): Promise<MembershipWithOrganization[]> {
    const rows = await this.db.rows<MembershipRow & { organization_name: string }>(
      `SELECT ${COLS}, o.name AS organization_name FROM memberships m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = $1 ORDER BY m.created_at, o.name COLLATE "C"`,
      [userId],
    );
    return rows.map((r) => ({ ...toMembership(r), organizationName: r.organization_name }));
  }
}
