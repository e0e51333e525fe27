/**
 * A read by index in a generator (expressions.ts `indexRead`): by a literal text key it is the
 * member read it names, which goes into work its host has to run first (`rt.getAtSteps`: a
 * getter's call, a relation's restrict); by a key known as it runs, `rt.getSteps` (which asks the
 * host the same, the key known); by a literal number, and any read in plain code, `rt.get`.
 */
import { describe, expect, it } from 'vitest'
import type { MethodFileNode } from '../../ast/files.js'
import { parse4d } from '../../grammar/parse.js'
import { analyze } from '../analyze.js'
import { Session } from '../session.js'
import { methodUnit } from '../units.js'
import { emitUnit } from './function.js'

// The code generated for the method `text`, as steps or plain.
function emit(text: string, steps: boolean): string {
  const file = 'Project/Sources/Methods/m.4dm'
  const ast = parse4d(text, { file, kind: 'method' }).file as MethodFileNode
  const analysis = analyze(methodUnit(ast), new Session(file), text)
  return emitUnit(analysis, { budget: true, lines: false, steps }).source
}

// What variable `v` is assigned in `source` (its first assignment).
const assigned = (source: string, v: string): string =>
  new RegExp(`${v} = (.*?);`).exec(source)?.[1] ?? ''

describe('a read by index', () => {
  it('by a literal text key, in a generator, is the member read it names', () => {
    // `$b` kept, so that its read is `getAtSteps`, not the one into a local (reused-local.ts).
    const source = emit('$a:=$1["employer"]\n$b:=$1.employer\n$c:=[$b]', true)
    // `$a` is v0, `$b` v2 ($1 is v1): the same read, but for its site.
    const [byIndex, byName] = [assigned(source, 'v0'), assigned(source, 'v2')]
    expect(byIndex).toBe(
      '((t0 = rt.getAtSteps(s0, v1, "employer")) === rt.LATER ? (yield* rt.later()) : t0)',
    )
    expect(byName).toBe(byIndex.replace('s0', 's1'))
  })

  it('by a key known as it runs, in a generator, asks the host (rt.getSteps)', () => {
    const steps = emit('$k:="employer"\n$a:=$1[$k]', true)
    expect(assigned(steps, 'v1')).toBe(
      '((t0 = rt.getSteps(v2, v0)) === rt.LATER ? (yield* rt.later()) : t0)',
    )
  })

  it('by a literal number, or in plain code, stays rt.get', () => {
    const steps = emit('$k:="employer"\n$a:=$1[$k]\n$b:=$1[1]', true)
    expect(steps).not.toContain('getAtSteps')
    expect(steps.match(/rt\.get\(/g)).toHaveLength(1)
    const plain = emit('$a:=$1["employer"]', false)
    expect(assigned(plain, 'v0')).toBe('rt.get(v1, "employer")')
  })
})
