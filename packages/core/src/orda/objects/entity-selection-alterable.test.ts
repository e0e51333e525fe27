// Alterable selections: newSelection(), copy(), add(), isAlterable(), clean(), each written from
// the example of 4D's page API/EntitySelectionClass (4D 21 R4), section named in the title.
import { describe, expect, it } from 'vitest'
import { keysOf, pageExamples } from './entity-selection.fixture.js'

describe('alterable EntitySelections (4D API/EntitySelectionClass)', () => {
  it('.add() example 1: an entity saved then added to a new selection', () => {
    const ds = pageExamples()
    const employees = ds.Employee.newSelection()
    const employee = ds.Employee.new({ ID: 800, lastName: 'Smith' }).saveOrFail()
    expect(employees.add(employee)).toBe(employees)
    expect(keysOf(employees)).toEqual([800])
  })

  it('.add() example 2: calls chain', () => {
    const ds = pageExamples()
    const [p1, p2, p3] = [10, 11, 12].map((k) => ds.Product.get(k))
    const sel = ds.Product.newSelection().add(p1!).add(p2!).add(p3!)
    expect(keysOf(sel)).toEqual([10, 11, 12])
  })

  it('.add() example 3: a selection added to another, which becomes ordered', () => {
    const ds = pageExamples()
    const list1 = ds.Product.query('ID > 50')
    const list2 = ds.Product.newSelection().add(ds.Product.get(10))
    expect(list2.isOrdered()).toBe(false)
    list2.add(list1).add(list1)
    expect(list2.isOrdered()).toBe(true)
    expect(keysOf(list2)).toEqual([10, 51, 52, 51, 52])
  })

  it('.add(): an unordered selection keeps one reference; null adds nothing', () => {
    const ds = pageExamples()
    const p = ds.Product.get(10)
    const sel = ds.Product.newSelection().add(p).add(p).add(null)
    expect(keysOf(sel)).toEqual([10])
  })

  it('.add(): refused on a selection that is not alterable (1637), or of another dataclass (1587)', () => {
    const ds = pageExamples()
    const employees = ds.Employee.query('lastName = :1', 'S@')
    expect(employees.isAlterable()).toBe(false)
    expect(() => employees.add(ds.Employee.get(610))).toThrow(
      expect.objectContaining({ errCode: 1637 }),
    )
    const alterable = employees.copy()
    expect(() => alterable.add(ds.Product.get(10) as never)).toThrow(
      expect.objectContaining({ errCode: 1587 }),
    )
  })

  it('.copy(): an alterable copy (or a shared one), the original left as it was', () => {
    const ds = pageExamples()
    const products = ds.Product.newSelection()
    products.add(ds.Product.get(11))
    const shared = products.copy({ shared: true })
    expect(shared.isAlterable()).toBe(false)
    const copy = shared.copy()
    copy.add(ds.Product.get(12))
    expect(keysOf(products)).toEqual([11])
    expect(keysOf(shared)).toEqual([11])
    expect(keysOf(copy)).toEqual([11, 12])
  })

  it('.isAlterable(): copy a selection before adding to it', () => {
    const ds = pageExamples()
    let products = ds.Product.all()
    if (!products.isAlterable()) products = products.copy()
    products.add(ds.Product.new({ ID: 99 }).saveOrFail())
    expect(products.length).toBe(6)
    expect(ds.Product.all().length).toBe(6)
  })

  it('add() keeps what was read before it: a kept set or a read member list', () => {
    const ds = pageExamples()
    const sel = ds.Product.newSelection({ keepOrder: true }).add(ds.Product.get(10))
    const before = sel.rowIds
    const kept = sel.keep()
    sel.add(ds.Product.get(11))
    expect(before.length).toBe(1)
    expect(kept.selection.length).toBe(1)
    expect(sel.length).toBe(2)
  })

  it('.clean(): without deleted entities, ordered and alterable as the original', () => {
    const ds = pageExamples()
    const sel = ds.Product.query('ID <= 12')
    ds.Product.drop(11)
    expect(sel.length).toBe(3)
    expect(keysOf(sel.clean())).toEqual([10, 12])
    expect(sel.clean().length).toBe(2)
    const alterable = sel.copy()
    expect(alterable.clean().isAlterable()).toBe(true)
    expect(alterable.clean()).not.toBe(alterable)
  })
})
