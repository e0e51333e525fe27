/**
 * @module How the ORDA classes' functions are written: each a 4D Function object whose `This` must
 * be an object of its class (`Formula` or `.call()` may give it another: 4D's "Unknown member
 * method" then), and whose call of core turns core's errors into 4D's (core-errors.ts).
 */
import { FourDFunction } from '../runtime/context/function-object.js'
import type { Runtime } from '../runtime/context/runtime.js'
import { raise } from '../runtime/errors/fourd-error.js'
import { toText } from '../runtime/convert/conversions.js'
import { typeName } from '../runtime/values/kinds.js'
import { Collection } from '../runtime/values/collection.js'
import { viaCore } from './core-errors.js'

export type MemberImpl<H> = (self: H, args: unknown[], rt: Runtime) => unknown

/** The functions of an ORDA class, by 4D name, for objects of `kind`. */
export function defineMembers<H>(
  kind: abstract new (...args: never[]) => H,
  label: string,
  defs: Readonly<Record<string, MemberImpl<H>>>,
): Map<string, FourDFunction> {
  const map = new Map<string, FourDFunction>()
  for (const [name, impl] of Object.entries(defs))
    map.set(
      name,
      new FourDFunction(`${label}.${name}`, (rt, self, args) => {
        if (!(self instanceof kind)) return raise('UnknownMemberMethod', { name })
        const out = viaCore(() => impl(self, args, rt))
        // A collection made of many entities (`toCollection()`, `distinct()`) is work the
        // budget counts as that many loop passes: a call that reads 2,000 entities, 1,000 times
        // over, is then stopped at the budget, not after 12 s (context/budget.ts).
        if (out instanceof Collection && (rt.ticks -= out.length) < 0) rt.tick()
        return out
      }),
    )
  return map
}

/** Parameter `n` (from 1) of `member`, which must be a text. */
export function textParam(args: readonly unknown[], n: number, member: string): string {
  const v = args[n - 1]
  if (typeof v === 'string') return v
  return raise('WrongParameterType', {
    parameter: String(n),
    command: member,
    expected: 'a Text',
    actual: typeName(v),
  })
}

/** An optional text or collection of texts (an attribute filter) as core takes it. */
export function filterParam(v: unknown): string | string[] | undefined {
  if (v === undefined || v === null) return undefined
  if (typeof v === 'string') return v
  if (typeof v === 'object' && 'items' in v && Array.isArray(v.items))
    return v.items.map((x: unknown) => toText(x))
  return undefined
}
