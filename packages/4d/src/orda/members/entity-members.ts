/**
 * @module 4D's Entity functions (docs/API/EntityClass.md) on an entity of 4D code, each through
 * core's Entity or its draft: `save()` and `drop()` answer 4D's status objects (`{success,
 * status, statusText…}`, never an error for what the data refused), `lock()`/`reload()` bring the
 * entity up to date in place as 4D's do, navigation (`next()`…) follows the selection it was read
 * from.
 */
import type { Entity, EntityDraft, WriteResult } from '@entistore/core'
import { FourDError } from '../../runtime/errors/fourd-error.js'
import { Collection } from '../../runtime/values/collection.js'
import { coreSteps, defineMembers, filterParam } from '../member-kit.js'
import { EntityHandle } from '../handles/entity-handle.js'
import { SelectionHandle } from '../handles/selection-handle.js'
import { DK, hasFlag } from '../options.js'
import { filterPaths } from '../attribute-steps.js'
import { pathsRead } from '../path-reads.js'
import { plainToFourD } from '../convert.js'

const toFourD = (self: EntityHandle, v: unknown): unknown => self.world.toFourD(v)

/** A result of core, with the entity it may carry made this one (4D changes it in place). */
function inPlace(self: EntityHandle, result: WriteResult & { entity?: Entity }): unknown {
  const { entity, ...rest } = result
  if (entity !== undefined) self.replace(entity)
  return toFourD(self, rest)
}

/** The entity as core reads it: the draft when it has one (its changes), else the version. */
const current = (self: EntityHandle) => self.draft ?? self.entity!

/** The saved version, for the members only a saved entity has (null for a new one). */
const saved = (self: EntityHandle): Entity | null => self.placed()

/**
 * The result of a save or drop, or its event's error raised (orda-events.md, "Error object"): a
 * validate event's error with `seriousError` (status 8), and any saving or dropping event's error
 * ("always raised as a serious error"), "require a try catch" and "reach the client": a 4D error
 * with the event's code and `DBEV`, which `Try`, `Last errors` and the REST error stack see. A
 * mild validation error (7) is the result alone.
 */
function raisedOrResult(self: EntityHandle, result: WriteResult): unknown {
  if (!result.success) {
    const event = result.errors?.find((e) => e.componentSignature === 'DBEV')
    if (event !== undefined && result.status !== SAVE_STATUS_MILD)
      throw new FourDError(event.errCode, event.message, event.componentSignature)
  }
  // Core's status is an object literal (no entity, no bytes): converted as one, without toFourD's
  // tests of the other kinds of value (a save at each pass of a loop).
  return Object.getPrototypeOf(result) === Object.prototype
    ? plainToFourD(self.world, result)
    : toFourD(self, result)
}

// `dk status validation failed`: a mild validation error, answered and not raised.
const SAVE_STATUS_MILD = 7

/** What a save answers, its draft's saved version made the entity's on success. */
function savedAnswer(self: EntityHandle, draft: EntityDraft, result: WriteResult): unknown {
  if (result.success) self.replace(draft.base)
  return raisedOrResult(self, result)
}

const saveOptions = (mode: unknown) => ({ autoMerge: hasFlag(mode, DK.autoMerge) })

/** `toObject({filter {; options}})`: core's, its values as 4D's. */
function toObject(self: EntityHandle, [filter, options]: unknown[]): unknown {
  const object = current(self).toObject(filterParam(filter) ?? '', {
    withKey: hasFlag(options, DK.withPrimaryKey),
    withStamp: hasFlag(options, DK.withStamp),
  })
  return self.world.recordToFourD(self.dataClass, object)
}

export const ENTITY_MEMBERS = defineMembers(
  EntityHandle,
  'Entity',
  {
    save(self, [mode]) {
      const draft = self.draft
      if (draft === null) return toFourD(self, { success: true })
      return savedAnswer(self, draft, draft.save(saveOptions(mode)))
    },
    drop(self, [mode]) {
      const force = hasFlag(mode, DK.forceDropIfStampChanged)
      return raisedOrResult(self, (self.entity ?? self.draft!).drop({ force }))
    },
    getKey: (self, [mode]) => current(self).getKey({ asString: hasFlag(mode, DK.keyAsString) }),
    getStamp: (self) => current(self).getStamp(),
    isNew: (self) => self.draft?.isNew() ?? false,
    touched: (self) => self.draft?.touched() ?? false,
    touchedAttributes: (self) => new Collection([...(self.draft?.touchedAttributes() ?? [])]),
    getDataClass: (self) => self.world.dataClass(self.dataClass),
    getSelection: (self) => toFourD(self, saved(self)?.getSelection() ?? null),
    indexOf(self, [selection]) {
      const sel = selection instanceof SelectionHandle ? selection.selection : undefined
      return saved(self)?.indexOf(sel) ?? -1
    },
    next: (self) => toFourD(self, saved(self)?.next() ?? null),
    previous: (self) => toFourD(self, saved(self)?.previous() ?? null),
    first: (self) => toFourD(self, saved(self)?.first() ?? null),
    last: (self) => toFourD(self, saved(self)?.last() ?? null),
    clone: (self) =>
      new EntityHandle(self.world, self.entity?.clone() ?? null, self.draft?.clone() ?? null),
    reload: (self) => inPlace(self, current(self).reload()),
    lock(self, [mode]) {
      const entity = saved(self)
      if (entity === null)
        return toFourD(self, { success: false, status: 5, statusText: 'Entity does not exist' })
      return inPlace(
        self,
        entity.lock({ reload: hasFlag(mode, DK.reloadIfStampChanged) }) as WriteResult,
      )
    },
    unlock: (self) => toFourD(self, saved(self)?.unlock() ?? { success: true }),
    toObject,
    fromObject(self, [filler]) {
      self.edit().fromObject((self.world.fromFourD(filler) ?? {}) as Record<string, unknown>)
    },
    diff(self, [other, attributes]) {
      const theirs = other instanceof EntityHandle ? current(other) : (other as never)
      return toFourD(self, current(self).diff(theirs as never, filterParam(attributes) as never))
    },
    getRemoteContextAttributes: () => '',
  },
  {
    // A save's events before the write in steps (core's `saveSteps`): a `saving` event that loops
    // holds no other client when a function's code saves in a REST call.
    *save(self, [mode]) {
      const draft = self.draft
      if (draft === null) return toFourD(self, { success: true })
      return savedAnswer(self, draft, yield* coreSteps(draft.saveSteps(saveOptions(mode))))
    },
    // The restricts its relation paths reach and the getters with steps its filter names
    // (`toObject("ID, employer.heavy")`), in steps first, then the member, which finds them
    // (path-reads.ts `pathsRead`); at once when it reaches none.
    toObject: (self, args) =>
      pathsRead(
        self.dataClass,
        filterPaths(filterParam(args[0])),
        'filter',
        () => [current(self)],
        () => toObject(self, args),
      ),
    // The same for a drop's restrict and its `validateDrop` and `dropping` events.
    *drop(self, [mode]) {
      const force = hasFlag(mode, DK.forceDropIfStampChanged)
      const saved = self.entity ?? self.draft!.base
      // A new entity has nothing to drop: answered at once.
      if (saved === null) return raisedOrResult(self, self.draft!.drop({ force }))
      return raisedOrResult(self, yield* coreSteps(saved.dropSteps({ force })))
    },
  },
)
