// Memberships: which users belong to which organization, with which role.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.

export const ROLES = ['owner', 'admin', 'contributor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that may write Studio resources (viewer cannot). */
export const WRITE_ROLES: readonly Role[] = ['owner', 'admin', 'contributor'];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export interface Membership {
  organizationId: string;
  userId: string;
  role: Role;
  createdAt: string;
  updatedAt: string;
}

/** A membership joined with its user's email (organization member listing). */
export interface MemberWithUser extends Membership {
  email: string;
  name: string | null;
}

/** A membership joined with its organization's name (a user's organizations). */
export interface MembershipWithOrganization extends Membership {
  organizationName: string;
}

export interface MembershipRow {
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: string;
  updated_at: string;
}

export function toMembership(row: MembershipRow): Membership {
  return {
    organizationId: row.organization_id,
    userId: row.user_id,
    role: row.role,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
