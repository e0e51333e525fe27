/**
 * Property test of a transaction in steps (`transactionSteps`, what a REST `$atomic` batch runs in
 * turns): one process's batch of creates, updates and drops, whose `saving` and `dropping` events
 * stop between steps, interleaved at random with another process's reads and writes. Checked
 * against a plain model of the committed data:
 *
 * - isolation: every read of the other process (by key, a query on an index, `all()`) finds the
 *   committed data, never a row the transaction staged;
 * - locks: the other process's update or drop of an entity the transaction wrote is refused with
 *   EntityLocked (9070) until it ends; every other write of it answers as the model says;
 * - in steps: the batch stops wherever its events do;
 * - all or nothing: validated, the committed data is the model's with the batch's writes over it;
 *   ended by an error in a step (the budget's, here an event that throws), stopped unfinished, or
 *   with its process ended, nothing of it is left, and no lock either.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DatastoreError, fail } from '../../errors/datastore-error.js'
import type { Work } from '../../query/slices.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore, type Datastore } from '../objects/datastore.js'
import { defineFunctions } from '../objects/define-functions.js'
import { dropInSteps, saveInSteps } from '../objects/data-class-steps.js'
import { transactionSteps } from './transaction-steps.js'

const MODEL: ModelJson = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'n', type: 'long', indexed: true },
        { name: 'pause', type: 'long' },
      ],
    },
  ],
}
const INITIAL = [1, 2, 3, 4]
/** Keys of new entities (the other process may create them too). */
const NEW = [5, 6, 7]
const KEYS = [...INITIAL, ...NEW]
/** The value that makes a `saving` event throw (the budget's end, for the test). */
const FATAL = -1

interface Draft {
  get(name: string): unknown
}
// Stops `pause` times before it checks; a value of FATAL ends the work with an error.
const check = (self: Draft): undefined =>
  self.get('n') === FATAL ? fail('QueryBudgetExceeded', [1]) : undefined
const saving = Object.assign(
  function (this: Draft) {
    return check(this)
  },
  {
    *steps(this: Draft) {
      for (let i = 0; i < Number(this.get('pause') ?? 0); i++) yield
      return check(this)
    },
  },
)
const dropping = Object.assign(() => undefined, {
  *steps() {
    yield
    yield
    return undefined
  },
})

/** A process kept open: `run` runs code in its async context, at once; `end` ends it. */
interface Proc {
  run<R>(fn: () => R): R
  end(): Promise<void>
}

function processOf(ds: Datastore): Proc {
  let inside!: <R>(fn: () => R) => R
  let release!: () => void
  const ended = ds.actAs(ds.sessions.open(), () => {
    inside = AsyncLocalStorage.snapshot()
    return new Promise<void>((resolve) => (release = resolve))
  })
  return {
    run: (fn) => inside(fn),
    end: async () => {
      release()
      await ended
    },
  }
}

type Write = { readonly kind: 'update' | 'create' | 'drop'; readonly key: number; n: number }
interface BatchWrite extends Write {
  readonly pause: number
}
type Other = { readonly kind: 'get' } | { readonly kind: 'query' } | Write

/** Its error's code, or undefined when `fn` succeeded. */
function codeOf(fn: () => unknown): number | undefined {
  try {
    fn()
    return undefined
  } catch (error) {
    if (!DatastoreError.is(error)) throw error
    return error.errCode
  }
}

/** The committed data, read from the main process (no transaction of its own). */
function committed(ds: Datastore): [number, number][] {
  return ds
    .dataClass('Item')
    .all()
    .toCollection('ID, n')
    .map((e) => [e.ID as number, e.n as number] as [number, number])
    .sort(([a], [b]) => a - b)
}
const sorted = (m: ReadonlyMap<number, number>): [number, number][] =>
  [...m].sort(([a], [b]) => a - b)

// An update or a drop of an initial entity, a create of a new one: most batches can commit, but
// for the other process's writes and a rare event that throws.
const batchWrite: fc.Arbitrary<BatchWrite> = fc
  .record({
    kind: fc.constantFrom('update' as const, 'update' as const, 'create' as const, 'drop' as const),
    at: fc.nat(INITIAL.length - 1),
    n: fc.oneof(
      { weight: 15, arbitrary: fc.nat(99) },
      { weight: 1, arbitrary: fc.constant(FATAL) },
    ),
    pause: fc.nat(4),
  })
  .map(({ kind, at, n, pause }) => ({
    kind,
    key: kind === 'create' ? NEW[at % NEW.length]! : INITIAL[at]!,
    n,
    pause,
  }))
const other: fc.Arbitrary<Other> = fc.oneof(
  fc.constantFrom<Other>({ kind: 'get' }, { kind: 'query' }),
  fc.record({
    kind: fc.constantFrom('update' as const, 'create' as const, 'drop' as const),
    key: fc.constantFrom(...KEYS),
    n: fc.nat(99),
  }),
)

describe('a transaction in steps beside another process (property)', () => {
  it('is seen by no read before it commits, locks what it wrote, and ends all or nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(batchWrite, { minLength: 1, maxLength: 5, selector: (w) => w.key }),
        // After each step of the batch, what the other process does.
        fc.array(fc.array(other, { maxLength: 3 }), { maxLength: 14 }),
        fc.constantFrom('finish' as const, 'stop' as const, 'end process' as const),
        async (batch, schedule, ending) => {
          const functions = defineFunctions({
            dataClasses: { Item: { events: { saving, dropping } } },
          })
          const ds = createDatastore(MODEL, {
            functions,
            data: { Item: INITIAL.map((ID) => ({ ID, n: ID, pause: 0 })) },
          })
          const item = ds.dataClass('Item')
          const model = new Map(INITIAL.map((k) => [k, k]))
          // What the batch wrote so far: the entities it updated or dropped are locked.
          const locked = new Set<number>()
          const done: BatchWrite[] = []
          function* writes(): Work<void> {
            for (const w of batch) {
              if (w.kind === 'drop') (yield* dropInSteps(item, w.key))()
              else if (w.kind === 'create')
                (yield* saveInSteps(item, undefined, { ID: w.key, n: w.n, pause: w.pause }))()
              else (yield* saveInSteps(item, w.key, { n: w.n, pause: w.pause }))()
              done.push(w)
              if (w.kind !== 'create') locked.add(w.key)
            }
          }
          const a = processOf(ds)
          const b = processOf(ds)
          const work = a.run(() => transactionSteps(ds, writes()))
          // Undefined while it runs; then whether it committed.
          let outcome: 'committed' | 'failed' | undefined
          let steps = 0
          // One step of the batch; once it has committed, its writes are the model's.
          const step = (): void => {
            try {
              steps++
              if (a.run(() => work.next()).done !== true) return
              outcome = 'committed'
              expect(done).toEqual(batch)
              // It stopped in every event's steps: a `saving` event `pause` times, `dropping` twice.
              expect(steps).toBe(
                1 + batch.reduce((n, w) => n + (w.kind === 'drop' ? 2 : w.pause), 0),
              )
              for (const w of batch)
                if (w.kind === 'drop') model.delete(w.key)
                else model.set(w.key, w.n)
            } catch (error) {
              if (!DatastoreError.is(error)) throw error
              outcome = 'failed'
            }
          }

          const otherDoes = (op: Other): void => {
            const open = outcome === undefined
            if (op.kind === 'get') {
              for (const k of KEYS)
                expect(b.run(() => item.get(k)?.get('n') ?? null)).toBe(model.get(k) ?? null)
            } else if (op.kind === 'query') {
              const found = b.run(() => item.query('n >= 0').toCollection('ID, n'))
              expect(found.map((e) => [e.ID, e.n])).toEqual(sorted(model))
              expect(b.run(() => item.all().length)).toBe(model.size)
            } else if (op.kind === 'create') {
              const code = b.run(() => codeOf(() => item.create({ ID: op.key, n: op.n })))
              expect(code).toBe(model.has(op.key) ? 1545 : undefined)
              if (code === undefined) model.set(op.key, op.n)
            } else {
              const expected = !model.has(op.key)
                ? 1542
                : open && locked.has(op.key)
                  ? 9070
                  : undefined
              const code = b.run(() =>
                codeOf(() =>
                  op.kind === 'drop' ? item.drop(op.key) : item.update(op.key, { n: op.n }),
                ),
              )
              expect(code).toBe(expected)
              if (code === undefined && op.kind === 'drop') model.delete(op.key)
              else if (code === undefined) model.set(op.key, op.n)
            }
          }
          for (const ops of schedule) {
            if (outcome === undefined) step()
            ops.forEach(otherDoes)
          }

          if (outcome === undefined && ending === 'finish') while (outcome === undefined) step()
          else if (outcome === undefined && ending === 'stop') a.run(() => work.return())
          await a.end()
          await b.end()
          expect(committed(ds)).toEqual(sorted(model))
          expect(ds.locks.size).toBe(0)
          expect(ds.transactionLevel()).toBe(0)
        },
      ),
      { numRuns: 200 },
    )
  })
})
