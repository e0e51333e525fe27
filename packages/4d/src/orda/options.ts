/**
 * @module The values of 4D's ORDA option constants (`dk force drop if stamp changed`, `dk with
 * primary key`…) as the ORDA bridge reads them from a member's `mode` or `options` parameter,
 * and what each becomes in core's call. 4D's documentation names the constants and says which
 * combine (`dk with primary key+dk with stamp`) but not their numbers: the runtime's constant
 * table gives them (docs/compat.md, "ORDA in 4D code"), read here by name so both agree.
 */
import { constantValue } from '../runtime/commands/constants.js'

const dk = (name: string): number => constantValue(`dk ${name}`) as number

export const DK = {
  /** `entity.drop(dk force drop if stamp changed)`. */
  forceDropIfStampChanged: dk('force drop if stamp changed'),
  /** `entity.save(dk auto merge)`. */
  autoMerge: dk('auto merge'),
  /** `entity.getKey(dk key as string)`. */
  keyAsString: dk('key as string'),
  /** `entity.lock(dk reload if stamp changed)`. */
  reloadIfStampChanged: dk('reload if stamp changed'),
  /** `toObject`/`toCollection(…; dk with primary key)`: adds `__KEY`. */
  withPrimaryKey: dk('with primary key'),
  /** `toObject`/`toCollection(…; dk with stamp)`: adds `__STAMP`. */
  withStamp: dk('with stamp'),
  /** `selection.drop(dk stop dropping on first error)`. */
  stopDroppingOnFirstError: dk('stop dropping on first error'),
  /** `newSelection(dk keep ordered)`, `minus(…; dk keep ordered)`. */
  keepOrdered: dk('keep ordered'),
  /** `distinct(…; dk diacritical)`. */
  diacritical: dk('diacritical'),
  /** `distinct(…; dk count values)`. */
  countValues: dk('count values'),
  /** `orderByFormula(…; dk descending)`. */
  descending: dk('descending'),
} as const

/** Whether the integer `options` holds the flag `flag` (an absent or non-number option holds none). */
export const hasFlag = (options: unknown, flag: number): boolean =>
  typeof options === 'number' && (Math.trunc(options) & flag) !== 0
