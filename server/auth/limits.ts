// Plan limits (spec: `limits` map): a dimension set to null is unlimited, a number caps the count, and a
// dimension absent from the map was never granted, so creating that kind of resource is refused.

import type { Organization } from '../../data/stores/organization-store.js';
import { ApiError } from '../errors.js';

/** Throws 403 FORBIDDEN unless the organization may create one more resource of `dimension`. */
export function enforceLimit(organization: Organization, dimension: string, currentCount: number): void {
  if (!Object.hasOwn(organization.limits, dimension)) {
    throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.limit_not_granted', { dimension });
  }
  const limit = organization.limits[dimension];
  if (limit !== null && limit !== undefined && currentCount >= limit) {
    throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.limit_reached', { dimension, limit });
  }
}
