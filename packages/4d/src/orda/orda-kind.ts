/**
 * @module The names of the four ORDA classes 4D code extends, in a file of their own: the handles
 * say which one they are, the world keeps one class object each and builtin-classes.ts gives each
 * its members, so the name sits below all three rather than in any of them.
 */

/** The four ORDA classes 4D code extends. */
export type OrdaKind = 'DataStoreImplementation' | 'DataClass' | 'Entity' | 'EntitySelection'
