/**
 * @module 4D's `Session.storage`: "a shared object that can be used to store information available
 * to all processes of the session", empty when the session is made (API/SessionClass.md, `.storage`;
 * WebServer/sessions.md, "Storing and sharing session information"). Every request of the session,
 * and every function it calls, reads the same object.
 *
 * 4D's shared objects are read anywhere and written only inside `Use (…) … End use`, which locks
 * them against the session's other processes. JavaScript runs one piece of synchronous code at a
 * time, so the honest equivalent is `use(storage, (s) => { … })`: its function runs synchronously
 * (a block cannot wait: a function that returns a Promise is refused), nothing else runs between
 * its reads and writes, and a write outside it throws, as in 4D. What a block writes is told to
 * the session store when it ends, once (a mirror in another process follows it: session-store.ts
 * `changed`).
 *
 * What it holds is what JSON carries, copied in when written (a later change to the object given
 * does not reach the storage, as 4D copies a value into a shared object): null, booleans, finite
 * numbers, texts, arrays and plain objects of them. A date is stored as its ISO text; an entity,
 * a selection, a function or a class instance is refused, so that a session reads back in every
 * process exactly what was stored. It lives in `session.data` under one key, so a session store
 * shared between processes carries it. Writing it establishes the session (a guest that takes
 * state is kept as one that holds a lock is, not evicted by a flood of new clients).
 */
import { fail } from '../errors/datastore-error.js'
import type { Session, SessionStoreApi } from './session-api.js'
import { sessionStateChanged } from './session-reads.js'

/** The key of the storage in `session.data`: plain data, so a shared session store keeps it. */
export const SESSION_STORAGE_KEY = 'entistore.storage'

/**
 * A session's storage, or an object or array read from it: read anywhere, written only inside
 * `use`. Typed loosely, as 4D's objects are: a function reads `storage.status?.step` as it stored it.
 */
// `any`: the application decides what it stores; 4D's storage is untyped too.
export type SharedObject = { [key: string]: any }

interface Root {
  readonly session: Session
  readonly sessions: SessionStoreApi
  /** Written by the block running now (told to the store when it ends). */
  dirty: boolean
}

const MAX_DEPTH = 64
// Each proxy's storage, and the proxy of each object the storage holds (one identity per object).
const rootOf = new WeakMap<object, Root>()
const proxyOf = new WeakMap<object, SharedObject>()
const rootProxies = new WeakMap<Session, SharedObject>()
// The storages a `use` block is running for now.
const open = new Set<Root>()

const misuse = (why: string): never => fail('SessionStorageMisuse', [why])

/** The storage's object now: undefined until something was stored. */
const current = (root: Root): Record<string, unknown> | undefined =>
  root.session.data.get(SESSION_STORAGE_KEY) as Record<string, unknown> | undefined

/**
 * `session`'s storage (4D's `Session.storage`): the same object for every request and function of
 * the session. `sessions` is the store that keeps the session (the datastore's `sessions`).
 */
export function sessionStorage(session: Session, sessions: SessionStoreApi): SharedObject {
  let proxy = rootProxies.get(session)
  if (proxy === undefined) {
    const root: Root = { session, sessions, dirty: false }
    // The target stands in for an object that may not exist yet, or that a mirror replaces: every
    // trap reads the session's object now.
    proxy = new Proxy(
      {} as SharedObject,
      handler(root, () => current(root), true),
    )
    rootOf.set(proxy, root)
    rootProxies.set(session, proxy)
  }
  return proxy
}

/**
 * 4D's `Use (object) … End use`: runs `fn` with `target` (the storage, or an object or array read
 * from it) writable, then tells the session store once if anything was written. `fn` runs
 * synchronously; its result is returned.
 * @throws DatastoreError SessionStorageMisuse (9150) for a target that is not the storage nor read
 *   from it, a function that returns a Promise, or a value the storage cannot hold
 */
export function use<T extends object, R>(target: T, fn: (target: T) => R): R {
  const root = rootOf.get(target)
  if (root === undefined) return misuse('use() takes a session storage or an object read from it')
  // Taking state keeps a guest: established (may throw SessionLimit before anything is written).
  if (!root.session.established) root.sessions.establish(root.session.id)
  const nested = open.has(root)
  open.add(root)
  let result: R
  try {
    result = fn(target)
  } finally {
    if (!nested) {
      open.delete(root)
      if (root.dirty) {
        root.dirty = false
        const stored = current(root)
        if (stored !== undefined) root.session.data.set(SESSION_STORAGE_KEY, stored)
      }
    }
  }
  if (isThenable(result))
    misuse(
      'use() runs its function synchronously: a use block cannot wait (the writes after its first await are refused)',
    )
  return result
}

function isThenable(v: unknown): boolean {
  return (
    (typeof v === 'object' || typeof v === 'function') &&
    v !== null &&
    typeof (v as { then?: unknown }).then === 'function'
  )
}

// A write, told to the store when its block ends, and at once as a change of the session's own
// state: a `restrict` answer that read it is dropped, even for a read later in the same block
// (session-reads.ts).
function written(root: Root): void {
  root.dirty = true
  sessionStateChanged(root.session)
}

/** The proxy of `value` when it is an object of the storage, else `value`. */
function wrap(root: Root, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value
  let proxy = proxyOf.get(value)
  if (proxy === undefined) {
    proxy = new Proxy(
      value as SharedObject,
      handler(root, () => value as Record<string, unknown>),
    )
    proxyOf.set(value, proxy)
    rootOf.set(proxy, root)
  }
  return proxy
}

/** The traps of the storage's objects: reads of the object now, writes only inside `use`. */
function handler(
  root: Root,
  object: () => Record<string, unknown> | undefined,
  isRoot = false,
): ProxyHandler<SharedObject> {
  const writable = (key: string | symbol): string => {
    if (!open.has(root))
      misuse(
        "the session storage is changed only inside use(storage, (s) => { … }), as 4D's Use … End use",
      )
    if (typeof key === 'symbol' || key === '__proto__')
      misuse(`the key ${String(key)} cannot be stored`)
    return key as string
  }
  return {
    get: (_, key) => {
      const o = object()
      if (o === undefined) return undefined
      const value: unknown = Reflect.get(o, key)
      return typeof key === 'string' && Object.hasOwn(o, key) ? wrap(root, value) : value
    },
    has: (_, key) => {
      const o = object()
      return o !== undefined && key in o
    },
    ownKeys: () => {
      const o = object()
      return o === undefined ? [] : Reflect.ownKeys(o)
    },
    getOwnPropertyDescriptor: (_, key) => {
      const o = object()
      const found = o && Reflect.getOwnPropertyDescriptor(o, key)
      // The root's target is a stand-in that has no property: what it reports must be configurable.
      return (
        found && {
          ...found,
          value: wrap(root, found.value),
          ...(isRoot ? { configurable: true } : {}),
        }
      )
    },
    set: (_, key, value) => {
      const name = writable(key)
      let o = object()
      if (o === undefined) {
        // The first write of the session: the storage's object comes to be.
        o = {}
        root.session.data.set(SESSION_STORAGE_KEY, o)
      }
      if (value === undefined) delete o[name]
      else o[name] = copyIn(value, 0, new Set())
      written(root)
      return true
    },
    deleteProperty: (_, key) => {
      const name = writable(key)
      const o = object()
      if (o !== undefined && Object.hasOwn(o, name)) {
        delete o[name]
        written(root)
      }
      return true
    },
    defineProperty: () =>
      misuse('the session storage takes values by assignment, not defineProperty'),
    setPrototypeOf: () => misuse('the session storage keeps plain objects'),
  }
}

/**
 * A copy of `value` the storage may hold (see the module note); an object of the storage itself is
 * copied from what it holds. Refuses anything else with the path of the problem.
 */
function copyIn(value: unknown, depth: number, seen: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value
    case 'number':
      return Number.isFinite(value)
        ? value
        : misuse(`${value} cannot be stored (JSON carries finite numbers only)`)
    case 'object':
      break
    default:
      return misuse(`a ${typeof value} cannot be stored (JSON values only)`)
  }
  if (value === null) return null
  if (depth >= MAX_DEPTH) return misuse(`values nested deeper than ${MAX_DEPTH} cannot be stored`)
  if (seen.has(value)) return misuse('a value that contains itself cannot be stored')
  if (value instanceof Date)
    return misuse('a Date cannot be stored: store its ISO text (toISOString())')
  const isArray = Array.isArray(value)
  const proto = Object.getPrototypeOf(value) as unknown
  if (!isArray && proto !== Object.prototype && proto !== null)
    return misuse(
      `an object of class ${(value as object).constructor?.name ?? '?'} cannot be stored (plain objects and arrays only)`,
    )
  seen.add(value)
  try {
    if (isArray) return (value as unknown[]).map((v) => copyIn(v ?? null, depth + 1, seen))
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      if (k === '__proto__') misuse('the key __proto__ cannot be stored')
      if (v !== undefined) out[k] = copyIn(v, depth + 1, seen)
    }
    return out
  } finally {
    seen.delete(value)
  }
}
