/**
 * @module The mark a class's instances carry (on their prototype): which class made them. Apart
 * from class-object.ts, which sets it, so that what only asks "is this an instance of a class?"
 * (deep-copy.ts) need not import the classes themselves.
 */

/** The property of an instance's prototype that holds its ClassObject. */
export const CLASS: unique symbol = Symbol('class') as never

/** Whether `v` is an instance of a class (its prototype carries the mark). */
export const isClassInstance = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && (v as { [CLASS]?: unknown })[CLASS] !== undefined
