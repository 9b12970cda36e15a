// The one error reading or planning a file throws when the file cannot be imported: a key and parameters,
// answered as a value (ImportFileProblem) and rendered in the caller's language on the main thread.
import type { ProblemKey } from '../../contracts/transfer.js';

/** A file that cannot be imported, with the reason; the transfer operations render it in the caller's language. */
export class ImportProblem extends Error {
  constructor(
    readonly key: ProblemKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}
