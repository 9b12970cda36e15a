// Share links: one live read-only link per collection or itinerary, stored as the SHA-256 of its share_ token.
// The record, its constructor and its row mapping: shared by the SQLite store and the PostgreSQL repository.
import { randomUUID } from 'node:crypto';
import { hashSecret } from '../credentials.js';
import { nowIso } from '../db.js';

export const SHARE_RESOURCE_KINDS = ['collection', 'itinerary'] as const;
export type ShareResourceKind = (typeof SHARE_RESOURCE_KINDS)[number];

export interface ShareLink {
  id: string;
  organizationId: string;
  resourceKind: ShareResourceKind;
  resourceId: string;
  createdBy: string | null;
  createdAt: string;
  /** Set when disabled or replaced by a rotation; such a link never works again. */
  disabledAt: string | null;
}

export interface ShareLinkMint {
  organizationId: string;
  resourceKind: ShareResourceKind;
  resourceId: string;
  createdBy?: string | null;
}

export interface ShareLinkRow {
  id: string;
  organization_id: string;
  resource_kind: ShareResourceKind;
  resource_id: string;
  token_hash: string;
  created_by: string | null;
  created_at: string;
  disabled_at: string | null;
}

export function toShareLink(row: ShareLinkRow): ShareLink {
  return {
    id: row.id,
    organizationId: row.organization_id,
    resourceKind: row.resource_kind,
    resourceId: row.resource_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    disabledAt: row.disabled_at,
  };
}

export const COLUMNS = 'id, organization_id, resource_kind, resource_id, token_hash, created_by, created_at, disabled_at';

/** The row of a new live link for `token` (only its SHA-256 is kept). */
export function newShareLinkRow(input: ShareLinkMint, token: string, now = nowIso()): ShareLinkRow {
  return {
    id: randomUUID(),
    organization_id: input.organizationId,
    resource_kind: input.resourceKind,
    resource_id: input.resourceId,
    token_hash: hashSecret(token),
    created_by: input.createdBy ?? null,
    created_at: now,
    disabled_at: null,
  };
}
