// The one error type of the region import and loader: bad input or a bad region folder, one line.

/** Thrown for input the user can fix (missing file, not a PBF, wrong HGT size, bad region folder). */
export class RegionInputError extends Error {
  override readonly name = 'RegionInputError';
}

/**
 * The import ran out of a resource (memory, a size limit of the runtime) on an input that is fine: the
 * message says which, while doing what, and what to try. Reported in one line like RegionInputError.
 */
export class ImportResourceError extends Error {
  override readonly name = 'ImportResourceError';
}
