// Memberships: which users belong to which organization, with which role.
// SQLite statements only: the record and its row mapping live in ../model/membership.ts.
import type { Statement } from 'better-sqlite3';
import { nowIso, type Database } from '../db.js';
import {
  isRole,
  type Membership,
  type MembershipRow,
  type MembershipWithOrganization,
  type MemberWithUser,
  type Role,
  toMembership,
} from '../model/membership.js';

export class MembershipStore {
  readonly #upsert: Statement<MembershipRow, MembershipRow>;
  readonly #get: Statement<[string, string], MembershipRow>;
  readonly #setRole: Statement<[string, string, string, string], MembershipRow>;
  readonly #remove: Statement<[string, string]>;
  readonly #byOrg: Statement<[string], MembershipRow & { email: string; name: string | null }>;
  readonly #byUser: Statement<[string], MembershipRow & { organization_name: string }>;

  constructor(db: Database) {
    const cols = 'm.organization_id, m.user_id, m.role, m.created_at, m.updated_at';
    this.#upsert = db.prepare(
      `INSERT INTO memberships (organization_id, user_id, role, created_at, updated_at)
       VALUES (@organization_id, @user_id, @role, @created_at, @updated_at)
       ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role, updated_at = excluded.updated_at
       RETURNING organization_id, user_id, role, created_at, updated_at`,
    );
    this.#get = db.prepare(`SELECT ${cols} FROM memberships m WHERE m.organization_id = ? AND m.user_id = ?`);
    this.#setRole = db.prepare(
      `UPDATE memberships SET role = ?, updated_at = ? WHERE organization_id = ? AND user_id = ?
       RETURNING organization_id, user_id, role, created_at, updated_at`,
    );
    this.#remove = db.prepare('DELETE FROM memberships WHERE organization_id = ? AND user_id = ?');
    this.#byOrg = db.prepare(
      `SELECT ${cols}, u.email, u.name FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.organization_id = ? ORDER BY m.created_at, u.email`,
    );
    this.#byUser = db.prepare(
      `SELECT ${cols}, o.name AS organization_name FROM memberships m JOIN organizations o ON o.id = m.organization_id
       WHERE m.user_id = ? ORDER BY m.created_at, o.name`,
    );
  }

  /**
   * Makes the user a member with `role`; an existing membership keeps its creation time and takes the new
   * role (idempotent). Unknown organization or user: SQLite FOREIGNKEY constraint error.
   */
  add(organizationId: string, userId: string, role: Role): Membership {
    if (!isRole(role)) throw new TypeError(`unknown role '${String(role)}'`);
    const now = nowIso();
    const row = this.#upsert.get({
      organization_id: organizationId,
      user_id: userId,
      role,
      created_at: now,
      updated_at: now,
    });
    if (!row) throw new Error('membership upsert returned no row');
    return toMembership(row);
  }

  get(organizationId: string, userId: string): Membership | undefined {
    const row = this.#get.get(organizationId, userId);
    return row ? toMembership(row) : undefined;
  }

  /** Changes the role of an existing member; undefined when not a member. */
  setRole(organizationId: string, userId: string, role: Role): Membership | undefined {
    if (!isRole(role)) throw new TypeError(`unknown role '${String(role)}'`);
    const row = this.#setRole.get(role, nowIso(), organizationId, userId);
    return row ? toMembership(row) : undefined;
  }

  remove(organizationId: string, userId: string): boolean {
    return this.#remove.run(organizationId, userId).changes > 0;
  }

  listByOrganization(organizationId: string): MemberWithUser[] {
    return this.#byOrg.all(organizationId).map((r) => ({ ...toMembership(r), email: r.email, name: r.name }));
  }

  listByUser(userId: string): MembershipWithOrganization[] {
    return this.#byUser.all(userId).map((r) => ({ ...toMembership(r), organizationName: r.organization_name }));
  }
}
