/**
 * @module The datastore as 4D code holds it (`ds`, docs/API/DataStoreClass.md): core's Datastore;
 * `ds.Employee` is its dataclass of that name (one object each, so `ds.Employee=ds.Employee`).
 */
import type { Datastore } from '@entistore/core'
import { NONE, OrdaHandle, type Found, type OrdaKind } from './handle.js'
import type { OrdaWorld } from './world.js'

export class DatastoreHandle extends OrdaHandle {
  constructor(world: OrdaWorld) {
    super(world)
  }

  get kind(): OrdaKind {
    return 'DataStoreImplementation'
  }

  protected get className(): string {
    return 'DataStore'
  }

  core(): Datastore {
    return this.world.datastore
  }

  protected attribute(name: string): Found {
    const dc = this.world.datastore.findDataClass(name)
    return dc === undefined ? NONE : this.world.dataClass(dc)
  }
}
