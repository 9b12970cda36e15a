// Every aggregate's contract cases, run by each engine's test file on that engine's fresh repositories.
import { lockContract } from './lock.contract.js';
import { membershipContract } from './membership.contract.js';
import type { OpenSubject } from './subject.js';

export function aggregateContracts(adapter: string, open: OpenSubject): void {
  lockContract(adapter, open);
  membershipContract(adapter, open);
}
