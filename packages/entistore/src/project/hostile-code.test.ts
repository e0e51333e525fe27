/**
 * Issue 78's attacks on a 4D project's code, over REST, as any guest may send them (the hostile
 * test project has no roles.json): each is answered with a 4D error, the process serves on, and
 * after all of them in a row every answer is still right.
 */
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  answeredBeside,
  errCodes,
  HOSTILE,
  projectCopy,
  served,
  type Client,
  type Json,
} from './four-d-rest.fixture.js'

const EMPLOYEES = 2_000
// The numbers the builtins' attacks go through.
const NUMBERS = 200_000

// A folder of the copy holding a file and two links back to itself (`a -> .`, `b -> .`).
function withLinkCycle(root: string): void {
  const loop = join(root, 'Resources', 'loop')
  mkdirSync(loop, { recursive: true })
  writeFileSync(join(loop, 'f.txt'), 'x')
  symlinkSync('.', join(loop, 'a'))
  symlinkSync('.', join(loop, 'b'))
}

describe('a guest attacking a project’s 4D code', () => {
  let root: string
  // Clients of a server whose code ends at 2 s: what the attacks that never end are answered.
  let guest: Client
  let other: Client
  // Clients of a server on the same project whose code ends at 30 s, for the heavy work that ends:
  // some 0.5 s of it alone passed 2 s when the machine ran several files' servers and databases.
  let roomy: Client
  let roomyOther: Client

  // A server on the project, seeded: its employees, three tasks, the first two employees' tasks.
  async function seeded(queryBudgetMs: number): Promise<[Client, Client]> {
    const serve = await served(root, { queryBudgetMs })
    const [one, two] = [serve.client(), serve.client()]
    expect((await one.post('$catalog/seed', [EMPLOYEES])).json.result).toBe(EMPLOYEES)
    expect((await one.post('$catalog/seedTasks', [3])).json.result).toBe(3)
    for (const key of ['1', '2']) {
      const assigned = await one.post('Employee?$method=update', {
        __KEY: key,
        task: { __KEY: key },
      })
      expect(assigned.status, JSON.stringify(assigned.json)).toBe(200)
    }
    return [one, two]
  }

  beforeAll(async () => {
    root = projectCopy(HOSTILE, {})
    withLinkCycle(root)
    ;[guest, other] = await seeded(2_000)
    ;[roomy, roomyOther] = await seeded(30_000)
  })

  // A heavy read (a function's call when `path` starts with POST), and a read by key of another
  // client sent once it started: the read by key is answered first (`Employee(key)`), the heavy
  // read with 200 and what `check` expects.
  async function answeredBesideRead(
    path: string,
    check: (json: Json) => boolean,
    key: number,
  ): Promise<void> {
    const call = path.startsWith('POST ') ? path.slice(5) : undefined
    const beside = await answeredBeside(
      () => (call === undefined ? roomy.get(path) : roomy.post(call, [])),
      () => roomyOther.get(`Employee(${key})`),
    )
    expect(beside.order).toEqual(['light', 'heavy'])
    expect(beside.light.json.lastname).toBe(`Last${key}`)
    expect(beside.heavy.status).toBe(200)
    expect(check(beside.heavy.json as Json), JSON.stringify(beside.heavy.json)).toBe(true)
  }

  // Each attack, what it is answered (the 4D error first, then where it happened: 9100).
  const ATTACKS: readonly [string, string, unknown[], number][] = [
    ['a function that calls itself without end', 'down', [0], 9438],
    ['the same, reading every employee at each level', 'downReading', [0], 9410],
    ['a collection resized to two billion elements', 'grow', [2_000_000_000], 9439],
    ['an array declared with two billion elements', 'array', [2_000_000_000], 9439],
    ['a text of 500 million characters', 'shout', [250_000_000], 9439],
    [
      'the project’s own pattern on 26 letters and !',
      'validName',
      ['abcdefghijklmnopqrstuvwxyz!'],
      9440,
    ],
    ['a client’s catastrophic pattern', 'matches', ['(a+)+$', `${'a'.repeat(40)}!`], 9440],
  ]

  for (const [what, fn, args, code] of ATTACKS)
    it(`answers ${what} with ${code}`, async () => {
      const reply = await guest.post(`$catalog/${fn}`, args)
      expect(reply.status).toBe(422)
      expect(errCodes(reply.json)).toEqual([code, 9100])
    })

  it('lets the code catch a bound it met (Try), and go on', async () => {
    expect((await guest.post('$catalog/caught', ['down', 0])).json.result).toBe(
      '9438 The stack is full: 1000 calls are nested',
    )
    expect((await guest.post('$catalog/caught', ['shout', 250_000_000])).json.result).toMatch(
      /^9439 A text of 500000000 characters/,
    )
  })

  it('lists a folder whose links lead back to it once, and copies no link', async () => {
    // f.txt once: a and b are links to a folder already met, listed as folders, not entered.
    expect((await guest.post('$catalog/listing', ['Resources/loop'])).json.result).toBe(1)
    const copied = await guest.post('$catalog/copy', ['Resources/loop', 'Resources/copy'])
    expect(copied.json.result).toBe('/PACKAGE/Resources/copy/loop/')
    expect(readdirSync(join(root, 'Resources', 'copy', 'loop'))).toEqual(['f.txt'])
  })

  it('serves everyone, right, after all of them in a row', async () => {
    for (const [, fn, args] of ATTACKS) await guest.post(`$catalog/${fn}`, args)
    const one = await other.get('Employee(7)')
    expect(one.status).toBe(200)
    expect(one.json.lastname).toBe('Last7')
    expect((await other.get('Employee?$top=1')).json.__COUNT).toBe(EMPLOYEES)
    expect((await guest.post('$catalog/count', [100])).json.result).toBe(297)
  })

  // 2,000 rows, 20,000 passes each: the read takes many slices, and the read by key, sent after
  // it started, is answered while it still runs.
  // The getter gives 20,001 (1%3 + … + 20000%3) + the length of the last name (Last1 … Last2000).
  const GETTER_SUM = EMPLOYEES * 20_001 + 9 * 5 + 90 * 6 + 900 * 7 + 1001 * 8
  for (const [what, path, check] of [
    [
      'a filter',
      'Employee?$filter="slow>0"&$top=1',
      (j: unknown) => (j as Json).__COUNT === EMPLOYEES,
    ],
    [
      'an ordering',
      'Employee?$orderby=slow&$top=1',
      (j: unknown) => (j as Json).__COUNT === EMPLOYEES,
    ],
    ['an aggregate', 'Employee?$compute=sum&$attributes=slow', (j: unknown) => j === GETTER_SUM],
  ] as const)
    it(`answers a read by key beside ${what} whose getter loops at every row`, () =>
      answeredBesideRead(path, check, 3))

  // One getter call that runs long, for one row (the first task's): a read in slices goes into the
  // call (core's schema/getter-calls.ts), which stops inside its own loop, a slice at a time. Three
  // tasks: a read that ran the call in one piece would end in its first slice, answered before
  // the read by key is sent. The replies leave the getters out (a reply's values call them at
  // once). The getter gives 10,000,001 for the first task (1%3 + … + 10,000,000%3, and its ID),
  // its ID for the others.
  for (const [what, path, check] of [
    [
      'a filter',
      'Task?$filter="heavy>5000000"&$attributes=ID',
      (j: Json) => j.__COUNT === 1 && j.__ENTITIES[0].ID === 1,
    ],
    [
      'an ordering',
      'Task?$orderby=heavy desc&$attributes=ID',
      (j: Json) => j.__ENTITIES.map((e: Json) => e.ID).join() === '1,3,2',
    ],
    ['an aggregate', 'Task?$compute=max&$attributes=heavy', (j: unknown) => j === 10_000_001],
  ] as const)
    it(`answers a read by key beside ${what} whose getter loops long for one row`, () =>
      answeredBesideRead(path, check, 3))

  it('answers a getter that never ends for one row with 9410, serving the others meanwhile', async () => {
    const beside = await answeredBeside(
      () => guest.get('Task?$filter="endless>0"'),
      () => other.get('Employee(4)'),
    )
    expect(beside.order).toEqual(['light', 'heavy'])
    expect(beside.light.json.lastname).toBe('Last4')
    expect(errCodes(beside.heavy.json)[0]).toBe(9410)
  })

  // A reply's getters with steps are made ahead in the read's slices (core's getters-ahead.ts),
  // not called at once as the reply is written: the first task's heavy getter, read by key, in a
  // page or in the array form, stops inside its loop; the second's, which never ends, is ended
  // by the budget, and its reply is the 9410 its call threw.
  for (const [what, path, check] of [
    [
      'a read by key',
      'Task(1)?$attributes=ID,heavy',
      (j: Json) => j.ID === 1 && j.heavy === 10_000_001,
    ],
    [
      'a page',
      'Task?$attributes=heavy&$orderby=ID',
      (j: Json) => j.__ENTITIES.map((e: Json) => e.heavy).join() === '10000001,2,3',
    ],
    [
      'the array form',
      'Task?$attributes=heavy&$orderby=ID&$asArray=true',
      (j: Json) => j.map((e: Json) => e.heavy).join() === '10000001,2,3',
    ],
    // A function's result is written as a read of it, its getters made ahead first.
    [
      'a function that returns an entity',
      'POST Task/firstTask',
      (j: Json) => j.ID === 1 && j.heavy === 10_000_001,
    ],
    [
      'a function that returns a selection',
      'POST Task/orderedTasks?$attributes=heavy',
      (j: Json) => j.__ENTITIES.map((e: Json) => e.heavy).join() === '10000001,2,3',
    ],
    // The first employee's task is the first task (set in beforeAll).
    [
      'a relation written out',
      'Employee(1)?$expand=task',
      (j: Json) => j.task.heavy === 10_000_001,
    ],
  ] as const)
    it(`answers a read by key beside ${what} that writes a getter looping long`, () =>
      answeredBesideRead(path, check, 6))

  it('answers a read by key whose getter never ends with 9410, serving the others meanwhile', async () => {
    const beside = await answeredBeside(
      () => guest.get('Task(2)'),
      () => other.get('Employee(8)'),
    )
    expect(beside.order).toEqual(['light', 'heavy'])
    expect(beside.light.json.lastname).toBe('Last8')
    expect(errCodes(beside.heavy.json)[0]).toBe(9410)
    // Its other tasks' getters end: a page without the second one is whole.
    const rest = await guest.get('Task?$filter="ID!=2"&$orderby=ID&$attributes=endless')
    expect(rest.json.__ENTITIES.map((e: Json) => e.endless)).toEqual([1, 3])
  })

  type Answer = { readonly status: number } & (
    { readonly code: number } | { readonly result: unknown }
  )

  // A call of function `fn`, and a read by key of employee `n` sent once it started: the read is
  // answered first, and the call as `answer` says (its error's code, or its result).
  async function callBeside(fn: string, args: unknown[], n: number, answer: Answer): Promise<void> {
    const [heavy, light] = answer.status === 200 ? [roomy, roomyOther] : [guest, other]
    const beside = await answeredBeside(
      () => heavy.post(`$catalog/${fn}`, args),
      () => light.get(`Employee(${n})`),
    )
    const [ended, one] = [beside.heavy, beside.light]
    expect(beside.order).toEqual(['light', 'heavy'])
    expect(one.json.lastname).toBe(`Last${n}`)
    expect(ended.status).toBe(answer.status)
    if ('code' in answer) expect(errCodes(ended.json)[0]).toBe(answer.code)
    else expect(ended.json.result).toBe(answer.result)
  }

  // A function's code runs in slices (sliced-call.ts): a loop, endless or long, holds no one; nor
  // does a builtin that runs long, which stops inside its own work (runtime/values/work.ts). The
  // builtins' calls run no loop of 4D code of their own (the numbers are made before).
  for (const [what, fn, args, answer] of [
    ['an endless loop', 'spin', [], { status: 422, code: 9410 }],
    ['a loop of 30 million passes', 'count', [30_000_000], { status: 200, result: 89_999_997 }],
    ['Uppercase of 10 million characters', 'shout', [5_000_000], { status: 200, result: 1e7 }],
    [
      '`<` on two texts of 8 million accents',
      'compared',
      [2_000_000],
      { status: 200, result: true },
    ],
    ['`%` on a text of 8 million accents', 'keyword', [2_000_000], { status: 200, result: true }],
    [
      'a sort of 16 texts of a million accents',
      'sortedTexts',
      [16, 250_000],
      { status: 200, result: 1_000_001 },
    ],
    ['a sort of 200,000 numbers', 'sorted', [], { status: 200, result: 0 }],
    ['JSON Stringify and Parse of them', 'parsed', [], { status: 200, result: NUMBERS }],
    ['a map whose formula calls a loop', 'mapped', [2_000, 2_000], { status: 200, result: 2_000 }],
  ] as const)
    it(`answers a read by key beside ${what}, which ends as it would alone`, async () => {
      if (fn === 'sorted' || fn === 'parsed' || fn === 'mapped')
        expect((await roomy.post('$catalog/prepare', [NUMBERS])).json.result).toBe(NUMBERS)
      await callBeside(fn, [...args], 5, answer)
    })

  // A function's code that reads a task's getter (`ds.Task.get($id).heavy`) goes into the
  // getter's steps (4d's orda/attribute-steps.ts): the slices stop inside the getter's loop, and
  // the read's value is the one its call returned.
  // So does one read through an alias of an employee (`Alias taskHeavy task.heavy`): employee 1's
  // task is the first, employee 2's the second (assigned below).
  for (const [fn, id, answer] of [
    ['readHeavy', 1, { status: 200, result: 10_000_001 }],
    ['readEndless', 2, { status: 422, code: 9410 }],
    ['readTaskHeavy', 1, { status: 200, result: 10_000_001 }],
    ['readTaskEndless', 2, { status: 422, code: 9410 }],
  ] as const)
    it(`answers a read by key beside a function reading a getter that loops (${fn})`, async () => {
      await callBeside(fn, [id], 9, answer)
    })

  // A function's query or aggregate of a task's getter is a read in steps (core's readInSteps):
  // the slices stop inside each row's getter call, and the read's value is the plain one.
  for (const [what, fn, args, answer] of [
    ['a query', 'tasksOver', ['heavy', 5_000_000], { status: 200, result: 1 }],
    ['an aggregate', 'tasksMax', ['heavy'], { status: 200, result: 10_000_001 }],
    ['a query that never ends', 'tasksOver', ['endless', 0], { status: 422, code: 9410 }],
  ] as const)
    it(`answers a read by key beside ${what} of a getter that loops in a function`, async () => {
      await callBeside(fn, [...args], 7, answer)
    })
})
