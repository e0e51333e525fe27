/**
 * @module The values of 4D's ORDA option constants (`dk force drop if stamp changed`, `dk with
 * primary key`…) as the ORDA bridge reads them from a member's `mode` or `options` parameter,
 * and what each becomes in core's call. 4D's documentation names the constants and says which
 * combine (`dk with primary key+dk with stamp`) but not their numbers: these are Entistore's
 * (docs/compat.md, "The 4D language"), and the commands' constant table gives the same names
 * these numbers.
 */
export const DK = {
  /** `entity.drop(dk force drop if stamp changed)`. */
  forceDropIfStampChanged: 1,
  /** `entity.save(dk auto merge)`. */
  autoMerge: 1,
  /** `entity.getKey(dk key as string)`. */
  keyAsString: 1,
  /** `entity.lock(dk reload if stamp changed)`. */
  reloadIfStampChanged: 2,
  /** `toObject`/`toCollection(…; dk with primary key)`: adds `__KEY`. */
  withPrimaryKey: 2,
  /** `toObject`/`toCollection(…; dk with stamp)`: adds `__STAMP`. */
  withStamp: 4,
  /** `selection.drop(dk stop dropping on first error)`. */
  stopDroppingOnFirstError: 1,
  /** `newSelection(dk keep ordered)`, `minus(…; dk keep ordered)`. */
  keepOrdered: 1,
  /** `distinct(…; dk diacritical)`. */
  diacritical: 8,
  /** `distinct(…; dk count values)`. */
  countValues: 32,
  /** `orderByFormula(…; dk descending)`. */
  descending: 1,
} as const

/** Whether the integer `options` holds the flag `flag` (an absent or non-number option holds none). */
export const hasFlag = (options: unknown, flag: number): boolean =>
  typeof options === 'number' && (Math.trunc(options) & flag) !== 0
