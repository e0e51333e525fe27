/**
 * Issue 78: every entity event in steps, where the write runs in slices (4D code's events have
 * their `steps`): the `constructor` and `touched` events while the draft is made or a value set,
 * as the events before the write already were, and the after-events once the write has
 * committed, still after it and once each (`writeInSteps`). They do what the plain events do.
 */
import { describe, expect, it } from 'vitest'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from '../objects/datastore.js'
import { defineFunctions } from '../objects/define-functions.js'
import { dropInSteps, newInSteps, saveInSteps } from '../objects/data-class-steps.js'
import { driven } from '../objects/steps.fixture.js'
import { writeInSteps } from './after-commit.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Tree',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string' },
        { name: 'status', type: 'string' },
      ],
    },
  ],
}

// What an event reads of `this`: a draft (set) before the write, an Entity after it.
type Self = { get(n: string): unknown; set?(n: string, v: unknown): unknown }
type Event = { kind: string; attributeName?: string }

/**
 * A datastore whose Tree events log what they do; each with steps that stop twice before doing
 * it, logging `stopped` at their first stop (with the trees stored then, for the after-events).
 * With `failing`, afterSave throws, plain or at its second step.
 */
function orchard(failing = false) {
  const log: string[] = []
  const stored = () => trees.dataClass('Tree').getCount()
  // An event: `act`, plain or in steps.
  const event = (act: (self: Self, e: Event) => void) =>
    Object.assign(
      function (this: Self, e: Event) {
        act(this, e)
      },
      {
        *steps(this: Self, e: Event) {
          log.push(`stopped ${e?.kind ?? 'constructor'} (${stored()} stored)`)
          yield
          yield
          act(this, e)
        },
      },
    )
  const fail = () => {
    throw new Error('afterSave failed')
  }
  const functions = defineFunctions({
    dataClasses: {
      Tree: {
        events: {
          constructor: event((self) => {
            log.push('constructor')
            self.set!('status', 'planted')
          }),
          touched: event((_, e) => log.push(`touched ${e.attributeName}`)),
          afterSave: event(failing ? fail : (self) => log.push(`afterSave ${name(self)}`)),
          afterDrop: event((self) => log.push(`afterDrop ${name(self)}`)),
        },
      },
    },
  })
  const trees = createDatastore(model, {
    functions,
    data: { Tree: [{ ID: 1, species: 'Oak', status: 'old' }] },
  })
  return { ds: trees, tree: trees.dataClass('Tree'), log }
}

const name = (self: Self): string => String(self.get('species'))

describe('entity events in steps', () => {
  it('runs a create’s constructor and touched events in steps, as the plain create runs them', () => {
    const plain = orchard()
    plain.tree.create({ species: 'Elm' })
    const stepped = orchard()
    const { value: write, stops } = driven(saveInSteps(stepped.tree, undefined, { species: 'Elm' }))
    // What the constructor's own code sets is its code's affair (a TypeScript event sets plainly).
    expect(stops).toBe(4)
    expect(stepped.log).toEqual([
      'stopped constructor (1 stored)',
      'constructor',
      'touched status',
      'stopped touched (1 stored)',
      'touched species',
    ])
    const saved = driven(writeInSteps(write))
    expect(saved.value.toObject('species,status')).toEqual({ species: 'Elm', status: 'planted' })
    expect(stepped.log.filter((l) => !l.startsWith('stopped'))).toEqual(plain.log)
  })

  it('runs an update’s touched events in steps', () => {
    const { tree, log } = orchard()
    const { value: write, stops } = driven(saveInSteps(tree, 1, { status: 'felled' }))
    expect(stops).toBe(2)
    expect(log).toEqual(['stopped touched (1 stored)', 'touched status'])
    write()
    expect(tree.get(1)!.get('status')).toBe('felled')
  })

  it('runs afterSave in steps once the write has committed, once', () => {
    const { tree, log } = orchard()
    const write = driven(saveInSteps(tree, undefined, { species: 'Ash' })).value
    log.length = 0
    const { value, stops } = driven(writeInSteps(write))
    expect(stops).toBe(2)
    expect(log).toEqual(['stopped afterSave (2 stored)', 'afterSave Ash'])
    expect(value.get('species')).toBe('Ash')
  })

  it('runs afterSave at once for a write run without writeInSteps, as the plain write does', () => {
    const { tree, log } = orchard()
    const write = driven(saveInSteps(tree, 1, { species: 'Birch' })).value
    log.length = 0
    write()
    expect(log).toEqual(['afterSave Birch'])
  })

  it('runs afterDrop in steps once the drop has committed', () => {
    const { tree, log } = orchard()
    const { stops } = driven(writeInSteps(driven(dropInSteps(tree, 1)).value))
    expect(stops).toBe(2)
    expect(log).toEqual(['stopped afterDrop (0 stored)', 'afterDrop Oak'])
    expect(tree.get(1)).toBeNull()
  })

  it('goes into the events of a draft’s save and an entity’s drop (4D code’s save(), drop())', () => {
    const { tree, log } = orchard()
    const draft = driven(newInSteps(tree, { species: 'Yew' })).value
    expect(draft.get('status')).toBe('planted')
    expect(driven(draft.saveSteps())).toEqual({ value: { success: true }, stops: 2 })
    expect(driven(draft.setSteps('species', 'Fir')).stops).toBe(2)
    expect(driven(draft.base!.dropSteps()).stops).toBe(2)
    expect(log.filter((l) => !l.startsWith('stopped'))).toEqual([
      'constructor',
      'touched status',
      'touched species',
      'afterSave Yew',
      'touched species',
      'afterDrop Yew',
    ])
  })

  it('runs the after-events of a transaction committed inside the write, in steps after it', () => {
    const { ds, tree, log } = orchard()
    const { value, stops } = driven(
      writeInSteps(() =>
        ds.transaction(() => {
          tree.update(1, { species: 'Pine' })
          tree.create({ species: 'Larch' })
          // Not committed yet: nothing after it has run.
          expect(log.filter((l) => l.startsWith('after'))).toEqual([])
          return 'done'
        }),
      ),
    )
    expect(value).toBe('done')
    expect(stops).toBe(4)
    expect(log.filter((l) => l.startsWith('after'))).toEqual(['afterSave Pine', 'afterSave Larch'])
  })

  it('ignores an after-event’s error, and still runs them when the write throws after a commit', () => {
    const { tree } = orchard(true)
    expect(driven(writeInSteps(() => tree.create({ species: 'Cedar' }))).stops).toBe(2)
    const work = writeInSteps(() => {
      tree.create({ species: 'Holly' })
      throw new Error('the reply failed')
    })
    // Stopped in afterSave: the write's error waits for it.
    expect(work.next().done).toBe(false)
    expect(() => driven(work)).toThrow('the reply failed')
    expect(tree.query('species = :1', 'Holly').length).toBe(1)
  })
})
