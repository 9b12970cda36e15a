// A collection as the API shows it: snake_case fields and the caller's role in its organization.

import type { Collection, CollectionScope, Privacy } from '../../../data/model/collection.js';
import type { Role } from '../../../data/model/membership.js';
import type { Access } from '../../auth/access.js';
import { roleOf } from '../../core/policy.js';

export interface CollectionView {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  privacy: Privacy;
  scope: CollectionScope;
  owner_user_id: string | null;
  role: Role;
  created_at: string;
  updated_at: string;
}

export function collectionView(caller: Access, c: Collection): CollectionView {
  return {
    id: c.id,
    organization_id: c.organizationId,
    name: c.name,
    description: c.description,
    privacy: c.privacy,
    scope: c.scope,
    owner_user_id: c.ownerUserId,
    role: roleOf(caller, c.organizationId),
    created_at: c.createdAt,
    updated_at: c.updatedAt,
  };
}
