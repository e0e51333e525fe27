import { describe, expect, it } from 'vitest'
import { DatastoreError } from '../../errors/datastore-error.js'
import { defineFunctions } from '../objects/define-functions.js'
import type { ModelJson } from '../../schema/model-json.js'
import { createDatastore } from '../objects/datastore.js'

const model: ModelJson = {
  dataClasses: [
    {
      name: 'Tree',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'species', type: 'string' },
        { name: 'age', type: 'long' },
        { name: 'status', type: 'string' },
        { name: 'savedAs', type: 'string' },
      ],
    },
  ],
}

/** A datastore whose Tree events log what they see, and refuse where the test says. */
function orchard() {
  const log: string[] = []
  const functions = defineFunctions({
    dataClasses: {
      Tree: {
        events: {
          constructor() {
            log.push('constructor')
            this.set('status', 'planted')
          },
          touched(event) {
            log.push(`touched ${event.attributeName}`)
          },
          validateSave(event) {
            log.push(`validateSave ${event.kind}`)
            if (this.get('species') === 'Kudzu')
              return {
                errCode: 4001,
                message: 'Kudzu is not allowed',
                extraDescription: { why: 'invasive' },
              }
          },
          saving() {
            log.push('saving')
            this.set('savedAs', String(this.get('species')).toUpperCase())
          },
          afterSave(event) {
            log.push(`afterSave stamp ${this.getStamp()} [${event.savedAttributes?.join(',')}]`)
          },
          validateDrop() {
            log.push('validateDrop')
            if ((this.get('age') as number) > 100)
              return { errCode: 4002, message: 'A tree over 100 years old stays' }
          },
          dropping() {
            log.push('dropping')
          },
          afterDrop(event) {
            log.push(`afterDrop ${this.get('species')} ${event.dropStatus}`)
          },
        },
        attributeEvents: {
          age: {
            touched(event) {
              log.push(`age touched ${event.attributeName}`)
            },
            validateSave() {
              log.push('age validateSave')
              if ((this.get('age') as number) < 0) return { message: 'An age is never negative' }
            },
          },
        },
      },
    },
  })
  const ds = createDatastore(model, {
    functions,
    data: { Tree: [{ ID: 1, species: 'Oak', age: 120, status: 'old' }] },
  })
  return { ds, trees: ds.dataClass('Tree'), log }
}

const refusal = (fn: () => unknown): DatastoreError => {
  try {
    fn()
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw e
  }
  throw new Error('not refused')
}

describe('ORDA entity events', () => {
  it('runs constructor, touched, validateSave, saving, the save, then afterSave, in order', () => {
    const { trees, log } = orchard()
    const elm = trees.create({ species: 'Elm', age: 3 })
    expect(log).toEqual([
      'constructor',
      'touched status',
      'touched species',
      'age touched age',
      'touched age',
      'age validateSave',
      'validateSave validateSave',
      'saving',
      'touched savedAs',
      `afterSave stamp 1 [status,species,age,savedAs]`,
    ])
    // The constructor's default and the value `saving` set are saved.
    expect(elm.get('status')).toBe('planted')
    expect(elm.get('savedAs')).toBe('ELM')
  })

  it('writes what saving and the constructor set as the caller: refused where the caller may not', () => {
    const { ds, trees } = orchard()
    // A session that may write every attribute but savedAs (which `saving` sets) or status (which
    // the constructor sets).
    const as =
      (refused: string) =>
      <T>(fn: () => T): T =>
        ds.actAs(ds.sessions.open(), fn, {
          authorize: (_s, action, target) =>
            !((action === 'update' || action === 'create') && target.attribute === refused),
        })
    const update = refusal(() => as('savedAs')(() => trees.update(1, { age: 121 })))
    expect([update.errCode, update.message]).toEqual([1608, expect.stringContaining('savedAs')])
    expect(trees.get(1)!.get('age')).toBe(120)
    const create = refusal(() => as('status')(() => trees.create({ species: 'Elm' })))
    expect([create.errCode, create.message]).toEqual([1608, expect.stringContaining('status')])
    expect(trees.length).toBe(1)
  })

  it('refuses a save a validateSave refuses: its errCode, DBEV, nothing written', () => {
    const { trees, log } = orchard()
    const e = refusal(() => trees.create({ species: 'Kudzu' }))
    expect(e).toMatchObject({
      name: 'EventRefused',
      errCode: 4001,
      componentSignature: 'DBEV',
      message: 'Kudzu is not allowed',
    })
    expect(e.details).toMatchObject({
      event: 'validateSave',
      dataClass: 'Tree',
      extraDescription: { why: 'invasive' },
    })
    expect(trees.length).toBe(1)
    expect(log).not.toContain('saving')
    // An attribute's refusal comes first, with 9138 when it gives no code.
    expect(refusal(() => trees.update(1, { age: -1 }))).toMatchObject({ errCode: 9138 })
    expect(trees.get(1)!.get('age')).toBe(120)
  })

  it('refuses a whole transaction, and runs after-events only once it commits', () => {
    const { ds, trees, log } = orchard()
    expect(() =>
      ds.transaction(() => {
        trees.create({ species: 'Birch' })
        trees.create({ species: 'Kudzu' })
      }),
    ).toThrow(/Kudzu/)
    expect(trees.length).toBe(1)
    expect(log.some((l) => l.startsWith('afterSave'))).toBe(false)
    log.length = 0
    ds.transaction(() => {
      trees.create({ species: 'Birch' })
      expect(log.some((l) => l.startsWith('afterSave'))).toBe(false)
    })
    expect(log.filter((l) => l.startsWith('afterSave'))).toHaveLength(1)
  })

  it('runs touched for values an update receives, and validates what it writes only', () => {
    const { trees, log } = orchard()
    const oak = trees.update(1, { species: 'Holm Oak' })
    expect(log).toEqual([
      'touched species',
      'validateSave validateSave',
      'saving',
      'touched savedAs',
      'afterSave stamp 2 [species,savedAs]',
    ])
    expect(oak.get('savedAs')).toBe('HOLM OAK')
  })

  it('refuses a drop a validateDrop refuses, and runs dropping and afterDrop otherwise', () => {
    const { trees, log } = orchard()
    expect(refusal(() => trees.get(1)!.dropOrFail())).toMatchObject({ errCode: 4002 })
    expect(trees.get(1)).not.toBeNull()
    const young = trees.create({ species: 'Ash', age: 2 })
    log.length = 0
    trees.query('age < 50').dropOrFail()
    expect(trees.get(young.getKey())).toBeNull()
    expect(log).toEqual(['validateDrop', 'dropping', 'afterDrop Ash success'])
  })

  it("selection.drop() keeps what validateDrop refuses and drops the rest; drop() answers 4D's status", () => {
    const { trees, log } = orchard()
    const young = trees.create({ species: 'Ash', age: 2 })
    log.length = 0
    const kept = trees.all().drop()
    expect(kept.toArray().map((t) => t.getKey())).toEqual([1])
    expect(trees.get(young.getKey())).toBeNull()
    expect(log).toEqual(['validateDrop', 'validateDrop', 'dropping', 'afterDrop Ash success'])
    expect(trees.get(1)!.drop()).toEqual({
      success: false,
      status: 7,
      statusText: 'Mild Validation Error',
      errors: [
        { errCode: 4002, message: 'A tree over 100 years old stays', componentSignature: 'DBEV' },
      ],
    })
  })

  it('ignores an error thrown by an after-event: the write is done', () => {
    const ds = createDatastore(model, {
      functions: {
        dataClasses: {
          Tree: {
            events: {
              afterSave() {
                throw new Error('after')
              },
            },
          },
        },
      },
    })
    expect(ds.dataClass('Tree').create({ species: 'Fir' }).getKey()).toBe(1)
  })

  it('refuses event definitions it cannot run, naming where', () => {
    const make = (events: unknown) => () =>
      createDatastore(model, { functions: { dataClasses: { Tree: events } } as never })
    expect(make({ events: { validate() {} } })).toThrow(/unknown event "validate"/)
    expect(make({ events: { saving: 3 } })).toThrow(/events.saving: expected a function/)
    expect(make({ attributeEvents: { height: {} } })).toThrow(/Tree has no attribute "height"/)
    expect(make({ attributeEvents: { age: { constructor() {} } } })).toThrow(
      /an attribute has no constructor event/,
    )
  })
})
