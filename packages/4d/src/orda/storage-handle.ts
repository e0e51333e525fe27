/**
 * @module `Session.storage` as 4D code holds it (docs/API/SessionClass.md): core's session storage,
 * read anywhere. Each assignment is written inside core's `use()`, as in a `Use … End use` of its
 * own, so core keeps what it keeps for any writer: plain data copied in, the write whole, the
 * session told once. The storage is core's, not a shared object of the runtime's, so
 * `Use (Session.storage)` takes no lock (runtime/context/use-lock.ts locks shared groups): the
 * blocks of two requests of one session, each stopping at its steps, may run at once
 * (docs/compat.md), each of their assignments still one piece. An object read from it is the same
 * kind of object; a collection read from it is a copy (write it back by assignment). An entity or
 * a selection is kept as a reference JSON carries and read back as one (stored-references.ts).
 */
import { use, type SharedObject } from '@entistore/core'
import { FOR_EACH } from '../runtime/context/iterate.js'
import { GET_MEMBER, SET_MEMBER, TO_JSON, type MemberHost } from '../runtime/values/host.js'
import { viaCore } from './core-errors.js'
import { revive, toStored } from './stored-references.js'
import type { World } from './world-shape.js'

export class StorageHandle implements MemberHost {
  constructor(
    readonly world: World,
    /** The storage, or an object read from it (core's proxies). */
    readonly target: SharedObject,
  ) {}

  [GET_MEMBER](name: string): unknown {
    const raw: unknown = this.target[name]
    const v = revive(raw, this.world.datastore)
    if (v === raw && typeof v === 'object' && v !== null && !Array.isArray(v))
      return new StorageHandle(this.world, v as SharedObject)
    return this.world.toFourD(v)
  }

  [SET_MEMBER](name: string, value: unknown): void {
    const v = toStored(this.world.fromFourD(value))
    viaCore(() =>
      use(this.target, (s) => {
        if (v === undefined) delete s[name]
        else s[name] = v
      }),
    )
  }

  [FOR_EACH](): { readonly length: number; at(i: number): unknown } {
    const keys = Object.keys(this.target)
    return { length: keys.length, at: (i) => keys[i] }
  }

  [TO_JSON](): unknown {
    return this.world.toFourD(JSON.parse(JSON.stringify(this.target)) as unknown)
  }
}
