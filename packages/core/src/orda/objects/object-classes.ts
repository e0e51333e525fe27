/**
 * @module The classes of one dataclass's objects: its Entities, drafts and selections, each a
 * subclass of the shared one with the dataclass's attributes as properties (attribute-properties
 * .ts), made once when the DataClass is. The DataClass makes every object of its own through them
 * (`makeEntity`, `draft`, `select`), so the files that make selections (the query engine, entity
 * sets) need no import of the classes themselves. The DataClass hands in the shared classes too:
 * this file names only what the attribute properties call on them (`get`, `set`, a projection),
 * and the classes, which name the DataClass, do not come back to it.
 */
import type { DataClassDef } from '../../schema/definitions.js'
import { withAttributeProperties } from './attribute-properties.js'
import { addDraftOnlyMembers } from './draft-only-members.js'
import { projection, type ProjectedSelection } from './selection-attributes.js'

/**
 * The fields each class's objects have of their own (not on a prototype): an attribute of one of
 * these names gets no property either. object-classes.test.ts holds the lists to the objects.
 */
export const OWN_FIELDS = {
  entity: ['rowId', 'key', 'stamp', 'values', 'dataClass'],
  draft: ['dataClass'],
  selection: ['dataClass', 'queryPlan', 'queryPath'],
} as const

// A class whose objects have `T`'s members; any constructor arguments (each class has its own).
type ClassOf<T> = abstract new (...args: any[]) => T

/** What an attribute's property reads (an Entity, a draft) and sets (a draft) on its object. */
interface Readable {
  get(name: string): unknown
}
interface Writable extends Readable {
  set(name: string, value: unknown): unknown
}

/** The three classes of a dataclass's objects: the shared ones, or one dataclass's subclasses. */
export interface ObjectClasses<
  E extends ClassOf<Readable>,
  D extends ClassOf<Writable>,
  S extends ClassOf<ProjectedSelection>,
> {
  readonly Entity: E
  readonly Draft: D
  readonly Selection: S
}

/** The classes of the objects of dataclass `def`, subclasses of the shared ones in `shared`. */
export function objectClassesOf<
  E extends ClassOf<Readable>,
  D extends ClassOf<Writable>,
  S extends ClassOf<ProjectedSelection>,
>(def: DataClassDef, shared: ObjectClasses<E, D, S>): ObjectClasses<E, D, S> {
  const Entity = withAttributeProperties(
    shared.Entity,
    def,
    'Entity',
    OWN_FIELDS.entity,
    (attr) => ({
      get(this: Readable) {
        return this.get(attr.name)
      },
    }),
  )
  addDraftOnlyMembers(Entity.prototype, def.name)
  return {
    Entity,
    // Every attribute reads and sets on a draft as `get`/`set` do: one that a write may not name
    // is refused by the save, as `set` is (1516).
    Draft: withAttributeProperties(shared.Draft, def, 'Draft', OWN_FIELDS.draft, (attr) => ({
      get(this: Writable) {
        return this.get(attr.name)
      },
      set(this: Writable, value: unknown) {
        this.set(attr.name, value)
      },
    })),
    Selection: withAttributeProperties(
      shared.Selection,
      def,
      'Selection',
      OWN_FIELDS.selection,
      (attr) => ({
        get(this: ProjectedSelection) {
          return projection(this, attr)
        },
      }),
    ),
  }
}
