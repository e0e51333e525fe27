/**
 * Issue 78: a task's getter that loops (the hostile project's TaskEntity: `heavy` loops 10 million
 * passes for the first task, `endless` never ends for the second) read through a member that
 * names attributes (`toCollection("ID, heavy")`, `toObject`, `extract`) by a function's code, or
 * written by the reply of a function that returns tasks inside an object or a collection, holds
 * no other client: the getters' calls run in steps (4d's orda/attribute-steps.ts
 * `gettersOfPaths`; rest's resources/result-ahead.ts), and a read by key of another client, sent
 * once the call started, is answered first. A getter with no end is ended by the budget: 9410.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  besideClients,
  errCodes,
  HOSTILE,
  type Client,
  type Json,
} from './four-d-rest.fixture.js'

// The first task's heavy getter: 1%3 + … + 10,000,000%3, and its ID; the others give their ID.
const HEAVY = 10_000_001

describe('a getter that loops, read by name or written inside a function’s result', () => {
  let guest: Client
  let other: Client

  beforeAll(async () => {
    ;({ guest, other } = await besideClients(HOSTILE, { seed: 10, seedTasks: 3 }))
    const assigned = await guest.post('Employee?$method=update', {
      __KEY: '1',
      task: { __KEY: '1' },
    })
    expect(assigned.status, JSON.stringify(assigned.json)).toBe(200)
  })

  // The call of `fn` with `args`, and a read by key of another client sent once it started: the
  // read by key is answered first.
  async function beside(fn: string, args: unknown[], key: number) {
    const both = await answeredBeside(
      () => guest.post(`$catalog/${fn}`, args),
      () => other.get(`Employee(${key})`),
    )
    expect(both.order).toEqual(['light', 'heavy'])
    expect(both.light.json.lastname).toBe(`Last${key}`)
    return both.heavy
  }

  const byId = (tasks: Json): unknown[] => (tasks as Json[]).map((t) => [t.ID, t.heavy])

  for (const [what, fn, args, check] of [
    [
      'toCollection("ID, heavy")',
      'tasksAsCollection',
      ['ID, heavy'],
      (r: Json) =>
        expect(byId(r)).toEqual([
          [1, HEAVY],
          [2, 2],
          [3, 3],
        ]),
    ],
    [
      'toCollection with the filter as a collection',
      'tasksAsCollection',
      [['ID', 'heavy']],
      (r: Json) =>
        expect(byId(r)).toEqual([
          [1, HEAVY],
          [2, 2],
          [3, 3],
        ]),
    ],
    [
      'toCollection of a window (begin, howMany)',
      'tasksAsCollection',
      ['heavy', 0, 1],
      (r: Json) => expect(r).toEqual([{ heavy: HEAVY }]),
    ],
    [
      'toObject("heavy")',
      'taskAsObject',
      [1, 'ID, heavy'],
      (r: Json) => expect(r).toEqual({ ID: 1, heavy: HEAVY }),
    ],
    [
      'extract("heavy")',
      'tasksExtracted',
      ['heavy'],
      (r: Json) => expect(r).toEqual([HEAVY, 2, 3]),
    ],
    // Through a relation: the first employee's task is the first task.
    [
      'toObject("task.heavy") of an employee',
      'employeeAsObject',
      [1, 'lastname, task.heavy'],
      (r: Json) => expect(r).toEqual({ lastname: 'Last1', task: { heavy: HEAVY } }),
    ],
    [
      'extract("task.heavy") of employees',
      'employeesExtracted',
      [1, 'task.heavy'],
      (r: Json) => expect(r).toEqual([HEAVY]),
    ],
    // The reply writes each task whole (its getters with it).
    [
      'a task inside an object',
      'taskInObject',
      [1],
      (r: Json) => expect([r.task.ID, r.task.heavy]).toEqual([1, HEAVY]),
    ],
    [
      'tasks in a collection',
      'tasksInCollection',
      [[3, 1]],
      (r: Json) =>
        expect(byId(r)).toEqual([
          [3, 3],
          [1, HEAVY],
        ]),
    ],
    [
      'a selection inside an object',
      'tasksInObject',
      [[1, 3]],
      (r: Json) =>
        expect(byId(r.tasks.__ENTITIES)).toEqual([
          [1, HEAVY],
          [3, 3],
        ]),
    ],
  ] as const)
    it(`answers a read by key beside a function’s ${what} whose getter loops long`, async () => {
      const reply = await beside(fn, [...args], 6)
      expect(reply.status, JSON.stringify(reply.json)).toBe(200)
      check(reply.json.result as Json)
    })

  for (const [what, fn, args] of [
    ['toCollection("endless")', 'tasksAsCollection', ['endless']],
    ['toObject("endless")', 'taskAsObject', [2, 'endless']],
    ['extract("endless")', 'tasksExtracted', ['endless']],
    ['a task inside an object', 'taskInObject', [2]],
  ] as const)
    it(`answers a function’s ${what} whose getter never ends with 9410, serving the others meanwhile`, async () => {
      const reply = await beside(fn, [...args], 7)
      expect(errCodes(reply.json)[0]).toBe(9410)
    })
})
