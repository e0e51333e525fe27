/**
 * @module A dataclass as 4D code holds it (`ds.Employee`, docs/API/DataClassClass.md): core's
 * DataClass; `ds.Employee.lastName` is the attribute's object as core describes it.
 */
import type { DataClass } from '@entistore/core'
import { viaCore } from '../core-errors.js'
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

  core(): DataClass {
    return this.dataClass
  }

  protected attribute(name: string): Found {
    if (!this.dataClass.def.attributesByName.has(name)) return NONE
    return this.world.toFourD(viaCore(() => this.dataClass.attributeInfo(name)))
  }
}
