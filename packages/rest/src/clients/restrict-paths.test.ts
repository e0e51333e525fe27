/**
 * Issue 46: a dataclass's `restrict` holds wherever a relation leads, in what the query engine
 * computes. Ann sees company 1 (`Co-1`) and its ten employees; companies 2 and 3 (`HiddenCo-2`,
 * `HiddenCo-3`) and their staff are, for her, as if they did not exist. Employee 3 (company 1) is
 * managed by employee 12 (company 2): a relation from a visible entity to a hidden one.
 *
 * Each test is a leak the engine had: a filter, an ordering, a query path's counts, `$distinct`
 * and `$compute` that compared, ordered or counted hidden related entities.
 */
import { describe, expect, it } from 'vitest'
import {
  hostileApp,
  leakedCanaries,
  loggedIn,
  salaryOf,
  type Answer,
} from './hostile-app.fixture.js'

const keys = (a: Answer): number[] =>
  (a.json.__ENTITIES as { __KEY: string }[]).map((e) => Number(e.__KEY))

/** Every `recordsfounds` of a `__queryPath` and `foundRecords` of an `__extendedQueryPath`. */
function counts(node: unknown): number[] {
  if (Array.isArray(node)) return node.flatMap(counts)
  if (typeof node !== 'object' || node === null) return []
  const o = node as Record<string, unknown>
  const own = [o.recordsfounds, o.foundRecords].filter((v): v is number => typeof v === 'number')
  return [...own, ...Object.values(o).flatMap(counts)]
}

/** Ann's client; the paths it gets have their spaces and `#` escaped, as a browser would. */
async function ann() {
  const { rest } = hostileApp()
  const send = await loggedIn(rest, 'ann')
  return (path: string) => send(path.replace(/ /g, '%20').replace(/#/g, '%23'))
}

describe('restrict through relation paths, over REST (issue 46)', () => {
  it('a filter through a relation does not match a hidden related entity', async () => {
    const send = await ann()
    const byName = await send(`/rest/Employee?$filter="employer.name='HiddenCo-2'"`)
    expect(byName.status).toBe(200)
    expect(byName.json.__COUNT).toBe(0)
    // Employee 3 is ann's, its manager (12) is not.
    const byManager = await send(`/rest/Employee?$filter="manager.lastName='Last12'"`)
    expect(byManager.json.__COUNT).toBe(0)
    expect((await send(`/rest/Employee?$filter="manager.lastName='Last1'"`)).json.__COUNT).toBe(8)
    // The hidden manager reads as a missing one: a comparison through it finds nothing, a negation
    // of one finds employee 3.
    expect(
      keys(await send(`/rest/Employee?$filter="not(manager.lastName = 'Last1@')"`)).sort(
        (a, b) => a - b,
      ),
    ).toEqual([1, 3])
    expect(
      (await send(`/rest/Employee?$filter="manager.lastName begin 'Last1'"`)).json.__COUNT,
    ).toBe(8)
    expect(
      (await send(`/rest/Employee?$filter="manager.lastName in ['Last12', 'Last13']"`)).json
        .__COUNT,
    ).toBe(0)
    expect((await send(`/rest/Employee?$filter="manager.lastName # 'Last1'"`)).json.__COUNT).toBe(0)
    // Two steps: employee 3's manager's employer is hidden.
    expect(
      (await send(`/rest/Employee?$filter="manager.employer.name = 'HiddenCo@'"`)).json.__COUNT,
    ).toBe(0)
    // An alias through the relation is the same path.
    expect((await send(`/rest/Employee?$filter="employerName='HiddenCo-2'"`)).json.__COUNT).toBe(0)
  })

  it('a filter through a to-many relation counts visible related entities only', async () => {
    const send = await ann()
    // Employee 12 (hidden) reports to employee 1: it is not one of 1's visible reports.
    const managers = await send(`/rest/Employee?$filter="reports.lastName = 'Last12'"`)
    expect(managers.json.__COUNT).toBe(0)
    expect((await send(`/rest/Company?$filter="staff.lastName = 'Last2'"`)).json.__COUNT).toBe(1)
  })

  it('an ordering through a relation sorts a hidden related entity as a null', async () => {
    const send = await ann()
    // Employee 3's manager is hidden: it sorts with the null manager (employee 1), first, not by
    // "Last12" among the "Last1" of the others.
    for (const path of [
      '/rest/Employee?$orderby=manager.lastName,ID',
      '/rest/Employee?$orderby=manager.lastName desc,ID desc',
    ]) {
      const order = keys(await send(path))
      const nulls = path.includes('desc') ? order.slice(-2) : order.slice(0, 2)
      expect(nulls.sort((a, b) => a - b)).toEqual([1, 3])
    }
    // The same with a filter (the query's own ordering).
    const filtered = await send(`/rest/Employee?$filter="ID>0"&$orderby=manager.firstName desc`)
    expect(
      keys(filtered)
        .slice(-2)
        .sort((a, b) => a - b),
    ).toEqual([1, 3])
  })

  it("a query path's counts are the counts the session can see", async () => {
    const send = await ann()
    for (const filter of [
      'ID>0',
      "employer.name='HiddenCo-2'",
      "employer.name='Co-1' AND ID>0",
      "manager.lastName='Last12' OR ID>5",
      'not(ID<3)',
      "reports.lastName='Last12'",
      "ID>0 AND firstName>'A'",
    ]) {
      const answer = await send(
        `/rest/Employee?$filter="${filter}"&$querypath=true&$queryplan=true`,
      )
      expect(answer.status, filter).toBe(200)
      const count = answer.json.__COUNT as number
      const path = counts(answer.json.__queryPath)
      const extended = counts(answer.json.__extendedQueryPath)
      expect(path.length, filter).toBeGreaterThan(0)
      // No step counts more than ann's ten employees (or her one company, inside a join)…
      for (const n of [...path, ...extended]) expect(n, filter).toBeLessThanOrEqual(10)
      // …and the query's own step counts what __COUNT says.
      expect(answer.json.__queryPath.steps[0].recordsfounds, filter).toBe(count)
      expect(answer.json.__extendedQueryPath.foundRecords, filter).toBe(count)
    }
    const all = await send(`/rest/Employee?$filter="ID>0"&$querypath=true`)
    expect(all.json.__COUNT).toBe(10)
    // A step that finds a hidden company would tell it exists.
    const hidden = await send(`/rest/Employee?$filter="employer.name='HiddenCo-2'"&$querypath=true`)
    expect([
      ...counts(hidden.json.__queryPath),
      ...counts(hidden.json.__extendedQueryPath),
    ]).toEqual([0, 0, 0, 0])
    const company = await send(`/rest/Company?$filter="staff.lastName='Last12'"&$querypath=true`)
    expect(counts(company.json.__queryPath)).toEqual([0, 0])
  })

  it('$distinct and $compute through a relation read visible related entities only', async () => {
    const send = await ann()
    const names = await send('/rest/Employee/employerName?$distinct=true')
    expect(names.json).toEqual(['Co-1'])
    expect(leakedCanaries(names.text, 'ann')).toEqual([])
    expect((await send('/rest/Employee/employerName?$compute=$all')).json).toMatchObject({
      employerName: { count: 10, min: 'Co-1', max: 'Co-1' },
    })
    // A relation path is refused, as 4D refuses it ("an error is returned if attributePath is a
    // related attribute"): an alias is the way through, and it is narrowed.
    for (const path of [
      '/rest/Employee/manager.lastName?$distinct=true',
      '/rest/Employee/employer.revenues?$compute=sum',
      '/rest/Employee/employer.revenues?$compute=$all',
    ]) {
      const answer = await send(path)
      expect(answer, path).toMatchObject({ status: 400, errCode: 9050 })
      expect(leakedCanaries(answer.text, 'ann')).toEqual([])
    }
    // Paula reads salaries, in company 1: employee 3's manager (12) is hidden from her, so the
    // managers' salaries are employee 1's, eight times (employee 1 has no manager).
    const { rest } = hostileApp()
    const paula = await loggedIn(rest, 'paula')
    const salaries = await paula('/rest/Employee/managerSalary?$compute=$all')
    expect(salaries.json.managerSalary).toMatchObject({
      count: 8,
      min: salaryOf(1),
      max: salaryOf(1),
    })
    expect(salaries.text).not.toContain(String(salaryOf(12)))
    expect((await paula('/rest/Employee/managerSalary?$distinct=true')).json).toEqual([salaryOf(1)])
    const ordered = await paula('/rest/Employee?$orderby=managerSalary%20desc,ID&$attributes=ID')
    expect(keys(ordered).slice(-2)).toEqual([1, 3])
  })

  it('leaves what an unrestricted session sees as it was', async () => {
    const { rest } = hostileApp()
    const send = await loggedIn(rest, 'root')
    expect((await send(`/rest/Employee?$filter="employer.name='HiddenCo-2'"`)).json.__COUNT).toBe(
      10,
    )
    expect((await send(`/rest/Employee?$filter="manager.lastName='Last12'"`)).json.__COUNT).toBe(1)
    expect((await send('/rest/Employee/employerName?$distinct=true')).json).toEqual([
      'Co-1',
      'HiddenCo-2',
      'HiddenCo-3',
    ])
    const path = await send(`/rest/Employee?$filter="ID>0"&$querypath=true`)
    expect(path.json.__queryPath.steps[0].recordsfounds).toBe(30)
  })
})
