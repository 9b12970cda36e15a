// Every aggregate's contract cases, run by each engine's test file on that engine's fresh repositories.
import { collectionContract } from './collection.contract.js';
import { lockContract } from './lock.contract.js';
import { membershipContract } from './membership.contract.js';
import { organizationContract } from './organization.contract.js';
import { shareLinkContract } from './share-link.contract.js';
import type { OpenSubject } from './subject.js';
import { usageContract } from './usage.contract.js';
import { zoneContract } from './zone.contract.js';

export function aggregateContracts(adapter: string, open: OpenSubject): void {
  collectionContract(adapter, open);
  lockContract(adapter, open);
  membershipContract(adapter, open);
  organizationContract(adapter, open);
  shareLinkContract(adapter, open);
  usageContract(adapter, open);
  zoneContract(adapter, open);
}
