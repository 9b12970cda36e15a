// The PostgreSQL adapter of the repositories (../repositories.ts), selected by DATABASE_URL: one class per
// interface over one PgDatabase. Inside a unit of work every method runs on the unit's transaction (see
// ./pg-database.ts); the same contract suite as the SQLite adapter proves them (test/data/repositories.contract.ts).

import type { Repositories } from '../repositories.js';
import { PgApiKeyRepository } from './pg-api-key-repository.js';
import { PgCollectionRepository } from './pg-collection-repository.js';
import type { PgDatabase } from './pg-database.js';
import { PgItineraryRepository } from './pg-itinerary-repository.js';
import { PgLockRepository } from './pg-lock-repository.js';
import { PgMembershipRepository } from './pg-membership-repository.js';
import { PgOAuthRepository } from './pg-oauth-repository.js';
import { PgOrganizationRepository } from './pg-organization-repository.js';
import { PgSegmentGroupRepository, PgSegmentRepository, PgWaypointRepository } from './pg-chain-repositories.js';
import { PgSettingsRepository } from './pg-settings-repository.js';
import { PgShareLinkRepository } from './pg-share-link-repository.js';
import { PgUsageRepository } from './pg-usage-repository.js';
import { PgUserRepository } from './pg-user-repository.js';
import { PgZoneRepository } from './pg-zone-repository.js';

export function createPgRepositories(db: PgDatabase): Repositories {
  return {
    organizations: new PgOrganizationRepository(db),
    users: new PgUserRepository(db),
    memberships: new PgMembershipRepository(db),
    apiKeys: new PgApiKeyRepository(db),
    usage: new PgUsageRepository(db),
    settings: new PgSettingsRepository(db),
    collections: new PgCollectionRepository(db),
    itineraries: new PgItineraryRepository(db),
    segments: new PgSegmentRepository(db),
    waypoints: new PgWaypointRepository(db),
    segmentGroups: new PgSegmentGroupRepository(db),
    zones: new PgZoneRepository(db),
    shareLinks: new PgShareLinkRepository(db),
    locks: new PgLockRepository(db),
    oauth: new PgOAuthRepository(db),
  };
}
