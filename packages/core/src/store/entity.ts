/**
 * @module A read view of one entity version. Storage values come straight from the record;
 * relations, calculated and alias attributes are computed on read.
 */
import { fail } from '../errors/datastore-error.js'
import type { AttributeDef } from '../schema/definitions.js'
import type { DataClass } from './data-class.js'
import type { EntityRecord, KeyValue } from './entity-record.js'
import { EntitySelection } from './entity-selection.js'

export class Entity {
  readonly dataClass: DataClass
  /** @internal */
  readonly record: EntityRecord

  /** @internal Entities are made by their DataClass. */
  constructor(dataClass: DataClass, record: EntityRecord) {
    this.dataClass = dataClass
    this.record = record
  }

  getKey(): KeyValue {
    return this.record.key
  }

  /** The version stamp: 1 after the first save, +1 at every save. */
  getStamp(): number {
    return this.record.stamp
  }

  /** Time of the last save (epoch ms). */
  getTimestamp(): number {
    return this.record.timestamp
  }

  /**
   * The value of an attribute: a stored value for storage attributes, an Entity (or null) for a
   * relatedEntity, an EntitySelection for relatedEntities, the computed value for calculated and
   * alias attributes. Throws AttributeNotFound (1500) for an unknown name.
   */
  get(name: string): unknown {
    const attr = this.dataClass.def.attributesByName.get(name)
    if (!attr) return fail('AttributeNotFound', [name, this.dataClass.name])
    return this.valueOf(attr)
  }

  /** @internal */
  valueOf(attr: AttributeDef): unknown {
    switch (attr.kind) {
      case 'storage':
        return this.record.values[attr.name] ?? null
      case 'relatedEntity': {
        const fk = this.record.values[attr.foreignKey]
        if (fk === null || fk === undefined) return null
        return this.dataClass.datastore.dataClass(attr.target).get(fk)
      }
      case 'relatedEntities': {
        const target = this.dataClass.datastore.dataClass(attr.target)
        return new EntitySelection(target, target.rowIdsReferencing(attr.inverse, this.record.key))
      }
      case 'calculated':
        return attr.compute ? (attr.compute(this) ?? null) : null
      case 'alias':
        return this.#follow(attr.path)
    }
  }

  // An alias path is a chain of relatedEntity steps ending on any attribute; a missing link gives null.
  #follow(path: readonly string[]): unknown {
    let current: unknown = this
    for (const step of path) {
      if (!(current instanceof Entity)) return null
      current = current.get(step)
    }
    return current
  }
}
