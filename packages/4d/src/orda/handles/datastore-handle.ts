/**
 * @module The datastore as 4D code holds it (`ds`, docs/API/DataStoreClass.md): core's Datastore;
 * `ds.Employee` is its dataclass of that name (one object each, so `ds.Employee=ds.Employee`).
 * Its properties are its dataclasses, so that `OB Keys(ds)` lists their names, as real code asks
 * 4D for the tables (`ds.getInfo()` has none: it says only what the datastore is).
 */
import type { Datastore } from '@entistore/core'
import { newObject } from '../../runtime/values/kinds.js'
import { TO_JSON } from '../../runtime/values/host.js'
import { NONE, OrdaHandle, type Found } from './handle.js'
import type { OrdaKind } from '../orda-kind.js'
import type { World } from '../world-shape.js'

export class DatastoreHandle extends OrdaHandle {
  constructor(world: World) {
    super(world)
  }

  get kind(): OrdaKind {
    return 'DataStoreImplementation'
  }

  protected get className(): string {
    return 'DataStore'
  }

  protected get shape(): object {
    return this.world.datastore
  }

  protected ownsMember(name: string): boolean {
    return this.world.datastore.findDataClass(name) !== undefined
  }

  core(): Datastore {
    return this.world.datastore
  }

  protected attribute(name: string): Found {
    const dc = this.world.datastore.findDataClass(name)
    return dc === undefined ? NONE : this.world.dataClass(dc)
  }

  /** Its dataclasses by name, in the model's order (`OB Keys(ds)`, `JSON Stringify(ds)`). */
  [TO_JSON](): Record<string, unknown> {
    const out = newObject()
    for (const dc of this.world.datastore.dataClasses) out[dc.name] = this.world.dataClass(dc)
    return out
  }
}
