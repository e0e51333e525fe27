/**
 * @module A dataclass as 4D code holds it (`ds.Employee`, docs/API/DataClassClass.md): core's
 * DataClass; `ds.Employee.lastName` is the attribute's object as core describes it, and its
 * attributes are its properties.
 */
import type { DataClass } from '@entistore/core'
import { viaCore } from '../core-errors.js'
import { newObject } from '../../runtime/values/kinds.js'
import { TO_JSON } from '../../runtime/values/host.js'
import { NONE, OrdaHandle, type Found } from './handle.js'
import type { OrdaKind } from '../orda-kind.js'
import type { World } from '../world-shape.js'

export class DataClassHandle extends OrdaHandle {
  constructor(
    world: World,
    readonly dataClass: DataClass,
  ) {
    super(world)
  }

  get kind(): OrdaKind {
    return 'DataClass'
  }

  protected get className(): string {
    return this.dataClass.name
  }

  protected get shape(): object {
    return this.dataClass.def
  }

  protected ownsMember(name: string): boolean {
    return this.dataClass.def.attributesByName.has(name)
  }

  core(): DataClass {
    return this.dataClass
  }

  protected attribute(name: string): Found {
    if (!this.dataClass.def.attributesByName.has(name)) return NONE
    return this.world.toFourD(viaCore(() => this.dataClass.attributeInfo(name)))
  }

  /**
   * Its attributes by name, in the model's order (`OB Keys(ds.Employee)`), as 4D's dataclass
   * object has them for properties: what code listing the fields of a table reads.
   */
  [TO_JSON](): Record<string, unknown> {
    const out = newObject()
    for (const a of this.dataClass.def.attributes) out[a.name] = this.attribute(a.name)
    return out
  }
}
