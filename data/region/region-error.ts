// The one error type of the region import and loader: bad input or a bad region folder, one line.

/** Thrown for input the user can fix (missing file, not a PBF, wrong HGT size, bad region folder). */
export class RegionInputError extends Error {
  override readonly name = 'RegionInputError';
}
