// Plan limits (spec: `limits` map): a dimension set to null is unlimited, a number caps the count, and a
// dimension absent from the map was never granted, so creating that kind of resource is refused.

import type { Organization } from '../../data/model/organization.js';
import { ApiError } from '../errors.js';

/** Throws 403 FORBIDDEN unless the organization may create one more resource of `dimension`. */
export async function enforceLimit(organization: Organization, dimension: string, count: () => Promise<number>): Promise<void> {
  if (!Object.hasOwn(organization.limits, dimension)) {
    throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.limit_not_granted', { dimension });
  }
  const limit = organization.limits[dimension];
  // Counted only against a number: an unlimited dimension reads nothing (and, scaled out, a count read by two
  // writers at once would make PostgreSQL retry one of them for nothing).
  if (limit !== null && limit !== undefined && (await count()) >= limit) {
    throw ApiError.withMessage('FORBIDDEN', 'FORBIDDEN.limit_reached', { dimension, limit });
  }
}
