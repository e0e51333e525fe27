/**
 * Text scans fold each stored value once: the table keeps a folded column (made by the first scan
 * that needs it, kept by writes), every pattern of an IN or an OR is tested against it (the `@x@`
 * ones in one pass over each text), and an OR of scans is one pass over the rows. Work is counted,
 * not timed (tools/work-meter.ts): the core is first imported by countWork, in the first test.
 */
import { describe, expect, it, vi } from 'vitest'
import { countWork } from '../../../../tools/work-meter.ts'
import { DOC_MODEL } from './text-scan.fixture.js'

const WORDS = ['Apple', 'élan', 'Quartz', 'ZÈBRE', 'pear', 'Ümlaut', 'cherry', 'Dune']
const N = 2000
const rows = Array.from({ length: N }, (_, i) => ({
  ID: i + 1,
  body: `${WORDS[i % 8]} ${WORDS[(i * 3) % 8]} q${i % 50} ${WORDS[(i * 5) % 8]}`,
}))
const patterns = (k: number) => Array.from({ length: k }, (_, i) => `@q${i}@`)

async function store() {
  const { createDatastore } = await import('../orda/objects/datastore.js')
  return createDatastore(DOC_MODEL, { data: { Doc: rows } }).dataClass('Doc')
}

describe('text scans', () => {
  it('fold no stored value again once the column is made, whatever the patterns', async () => {
    const folds = (k: number) =>
      countWork('/values/fold.ts', async () => {
        const Doc = await store()
        Doc.query('body in :1', ['@warm@']).length // makes the folded column
        return () => Doc.query('body in :1', patterns(k)).length
      })
    // Folding the query's own patterns only: a few calls per pattern, none per row.
    expect(await folds(10)).toBeLessThan(10 * 20)
    expect(await folds(100)).toBeLessThan(100 * 20)
  })

  it('test all the patterns of an IN in one pass over each text', async () => {
    const Doc = await store()
    // Pattern by pattern, each text would be searched by `includes` once per pattern.
    const searches = (run: () => unknown) => {
      const spy = vi.spyOn(String.prototype, 'includes')
      try {
        run()
        return spy.mock.calls.length
      } finally {
        spy.mockRestore()
      }
    }
    expect(searches(() => Doc.query('body in :1', patterns(10)).length)).toBeLessThan(N / 10)
    expect(searches(() => Doc.query('body in :1', patterns(100)).length)).toBeLessThan(N / 10)
    const or = patterns(10)
      .map((p) => `body = '${p}'`)
      .join(' or ')
    expect(searches(() => Doc.query(or).length)).toBeLessThan(N / 10)
    expect(searches(() => Doc.query(`ID > 0 and (${or})`).length)).toBeLessThan(N / 10)
  })

  it('answer an OR of scans in one pass over the rows', async () => {
    const work = (k: number) =>
      countWork('/query/execute.ts', async () => {
        const Doc = await store()
        const text = patterns(k)
          .map((p) => `body = '${p}'`)
          .join(' or ')
        Doc.query(text).length
        return () => Doc.query(text).length
      })
    // One scan alone is a kernel's loop (column-scans.ts), not the executor's: two ORed are the
    // executor's one pass, and its work does not grow with the number of ORed scans.
    const two = await work(2)
    const ten = await work(10)
    expect(ten).toBeLessThan(two * 1.5)
  })

  it('find what a plain folded comparison finds, before and after writes', async () => {
    const Doc = await store()
    const naive = (test: (folded: string) => boolean) =>
      rows.filter((r) => test(fold(r.body))).map((r) => r.ID)
    const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
    const ids = (text: string, ...params: unknown[]) =>
      Doc.query(text, ...params)
        .toArray()
        .map((e) => e.getKey())
        .sort((a, b) => (a as number) - (b as number))
    expect(ids('body in :1', ['@zebre@', 'apple@', '@dune', '@q7@'])).toEqual(
      naive(
        (f) =>
          f.includes('zebre') || f.startsWith('apple') || f.endsWith('dune') || f.includes('q7'),
      ),
    )
    expect(ids("body = '@ÉLAN@' or body = 'pear@' or body begin 'CHER'")).toEqual(
      naive((f) => f.includes('elan') || f.startsWith('pear') || f.startsWith('cher')),
    )
    expect(ids("body # '@umlaut@'")).toEqual(naive((f) => !f.includes('umlaut')))
    expect(ids("body > 'q' and body < 'r'")).toEqual(naive((f) => f > 'q' && f < 'r'))
    // The column follows writes: deleted rows are gone, a changed body is found by its new text.
    const table = Doc.table
    const gone = [1, 2, 3].map((k) => table.recordByKey(k)!)
    const before = table.recordByKey(4)!
    Doc.datastore.commit([
      ...gone.map((r) => ({ op: 'delete' as const, table, before: r })),
      {
        op: 'update',
        table,
        before,
        after: { ...before, stamp: 2, values: { ...before.values, body: 'Brand NEW Text' } },
      },
    ])
    expect(ids("body = '@new@'")).toEqual([4])
    expect(ids('body # null')).toEqual(rows.map((r) => r.ID).filter((id) => id > 3))
    expect(ids("body = '@q1@'")).not.toContain(2)
  })
})
