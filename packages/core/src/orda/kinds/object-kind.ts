/**
 * @module The tag by which each public object (an Entity, a draft, a selection) says what it is,
 * below the classes that carry it and the files that read it: the rooms below orda/objects (the
 * feed, function parameters, writes) tell a value's kind without importing the classes, which
 * import them.
 */

/** The key under which the public objects' prototypes say what they are. */
export const OBJECT_KIND: unique symbol = Symbol('entistore.objectKind')

export type ObjectKind = 'entity' | 'draft' | 'selection'

/** What `value` says it is (OBJECT_KIND); undefined for another realm's value or a look-alike. */
export const kindOf = (value: unknown): ObjectKind | undefined =>
  typeof value === 'object' && value !== null
    ? (value as { [OBJECT_KIND]?: ObjectKind })[OBJECT_KIND]
    : undefined
