/**
 * @module 4D's `Session` (docs/API/SessionClass.md) for code running as a session of core: core's
 * WebSession with 4D's member names. Privileges are the session's in core (roles.json), so what
 * `setPrivileges` gives is what core's checks see next.
 */
import type { PrivilegeSettings, WebSession } from '@entistore/core'
import { toText } from '../runtime/convert/conversions.js'
import { raise } from '../runtime/errors/fourd-error.js'
import { GET_MEMBER, SET_MEMBER, type MemberHost } from '../runtime/values/host.js'
import { Collection } from '../runtime/values/collection.js'
import { viaCore } from './core-errors.js'
import { defineMembers } from './member-kit.js'
import { StorageHandle } from './storage-handle.js'
import type { World } from './world-shape.js'

export class SessionHandle implements MemberHost {
  constructor(
    readonly world: World,
    /** The WebSession of the call now running (world.ts's `session` sets it at each call). */
    public session: WebSession,
  ) {}

  [GET_MEMBER](name: string): unknown {
    const s = this.session
    switch (name) {
      case 'id':
        return s.id
      case 'userName':
        return s.userName
      case 'info':
        return this.world.toFourD(s.info)
      case 'storage':
        return new StorageHandle(this.world, s.storage)
      case 'expirationDate':
        return s.expirationDate
      case 'idleTimeout':
        return s.idleTimeout
      default:
        return SESSION_MEMBERS.get(name)
    }
  }

  [SET_MEMBER](name: string, value: unknown): void {
    if (name !== 'idleTimeout') return raise('ReadOnlyMember', { property: name })
    viaCore(() => (this.session.idleTimeout = Number(value)))
  }
}

const SESSION_MEMBERS = defineMembers(SessionHandle, 'Session', {
  isGuest: (self) => self.session.isGuest(),
  hasPrivilege: (self, [privilege]) => self.session.hasPrivilege(toText(privilege)),
  getPrivileges: (self) => new Collection(self.session.getPrivileges()),
  setPrivileges: (self, [settings]) =>
    self.session.setPrivileges(self.world.fromFourD(settings) as PrivilegeSettings),
  clearPrivileges: (self) => self.session.clearPrivileges(),
  promote: (self, [privilege]) => self.session.promote(toText(privilege)),
  demote: (self, [id]) => self.session.demote(Number(id)),
  createOTP: (self, [lifespan]) =>
    self.session.createOTP(typeof lifespan === 'number' ? lifespan : undefined),
  restore: (self, [token]) => self.session.restore(toText(token)),
})
