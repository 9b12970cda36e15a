// Every aggregate's contract cases, run by each engine's test file on that engine's fresh repositories.
import { apiKeyContract } from './api-key.contract.js';
import { collectionContract } from './collection.contract.js';
import { itineraryContract } from './itinerary.contract.js';
import { lockContract } from './lock.contract.js';
import { membershipContract } from './membership.contract.js';
import { oauthContract } from './oauth.contract.js';
import { organizationContract } from './organization.contract.js';
import { settingsContract } from './settings.contract.js';
import { shareLinkContract } from './share-link.contract.js';
import type { OpenSubject } from './subject.js';
import { usageContract } from './usage.contract.js';
import { userContract } from './user.contract.js';
import { zoneContract } from './zone.contract.js';

export function aggregateContracts(adapter: string, open: OpenSubject): void {
  apiKeyContract(adapter, open);
  collectionContract(adapter, open);
  itineraryContract(adapter, open);
  lockContract(adapter, open);
  membershipContract(adapter, open);
  oauthContract(adapter, open);
  organizationContract(adapter, open);
  settingsContract(adapter, open);
  shareLinkContract(adapter, open);
  usageContract(adapter, open);
  userContract(adapter, open);
  zoneContract(adapter, open);
}
