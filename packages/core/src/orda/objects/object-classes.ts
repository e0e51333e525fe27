/**
 * @module The classes of one dataclass's objects: its Entities, drafts and selections, each a
 * subclass of the shared one with the dataclass's attributes as properties (attribute-properties
 * .ts), made once when the DataClass is. The DataClass makes every object of its own through them
 * (`makeEntity`, `draft`, `select`), so the files that make selections (the query engine, entity
 * sets) need no import of the classes themselves.
 */
import type { DataClassDef } from '../../schema/definitions.js'
import { withAttributeProperties } from './attribute-properties.js'
import { addDraftOnlyMembers } from './draft-only-members.js'
import { EntityCore } from './entity.js'
import { EntityDraftCore } from './entity-draft.js'
import { EntitySelectionCore } from './entity-selection.js'
import { projection } from './selection-attributes.js'

/**
 * The fields each class's objects have of their own (not on a prototype): an attribute of one of
 * these names gets no property either. object-classes.test.ts holds the lists to the objects.
 */
export const OWN_FIELDS = {
  entity: ['rowId', 'key', 'stamp', 'values', 'dataClass'],
  draft: ['dataClass'],
  selection: ['dataClass', 'queryPlan', 'queryPath'],
} as const

export interface ObjectClasses {
  readonly Entity: typeof EntityCore
  readonly Draft: typeof EntityDraftCore
  readonly Selection: typeof EntitySelectionCore
}

/** The classes of the objects of dataclass `def`. */
export function objectClassesOf(def: DataClassDef): ObjectClasses {
  const Entity = withAttributeProperties(EntityCore, def, 'Entity', OWN_FIELDS.entity, (attr) => ({
    get(this: EntityCore) {
      return this.get(attr.name)
    },
  }))
  addDraftOnlyMembers(Entity.prototype, def.name)
  return {
    Entity,
    // Every attribute reads and sets on a draft as `get`/`set` do: one that a write may not name
    // is refused by the save, as `set` is (1516).
    Draft: withAttributeProperties(EntityDraftCore, def, 'Draft', OWN_FIELDS.draft, (attr) => ({
      get(this: EntityDraftCore) {
        return this.get(attr.name)
      },
      set(this: EntityDraftCore, value: unknown) {
        this.set(attr.name, value)
      },
    })),
    Selection: withAttributeProperties(
      EntitySelectionCore,
      def,
      'Selection',
      OWN_FIELDS.selection,
      (attr) => ({
        get(this: EntitySelectionCore) {
          return projection(this, attr)
        },
      }),
    ),
  }
}
