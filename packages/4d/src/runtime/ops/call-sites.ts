/**
 * @module A member function called at one place of the generated code (`$e.save()`):
 * `rt.callAt(site, obj, "save", args)` calls what `rt.call` would, and keeps in its site the finder
 * its host last gave for that name (host.ts, MEMBER_FUNCTION): at the next pass, an object of the
 * same kind (an entity of the same dataclass, seen by the same classes) gets its function without
 * the walk `call` makes (the model's attributes, the kind's properties, the class's getters, then
 * its functions: ≈ a tenth of a `save()` in a loop). A finder answers MISS for any other object,
 * or once a class has been defined since it was made (`classEpoch`), so what it keeps is only
 * where the function is; the call itself runs as `call` runs it. A site is one object a place of
 * a compiled function, made when the function is (emit/function.ts).
 */
import { MEMBER_FUNCTION, MISS, type FunctionFinder, type FunctionHost } from '../values/host.js'

/** The state of one place of the generated code that calls a member function by its name. */
export interface CallSite {
  /** The finder kept, or null before a host has given one. */
  f: FunctionFinder | null
}

/**
 * The function `target.name(…)` calls at `site`, found by the finder the site keeps or one its
 * host gives now; undefined when the host gives none (the caller then takes `call`'s way).
 */
export function functionAt(
  site: CallSite,
  target: unknown,
  name: string,
  classes: object,
): unknown {
  const find = site.f
  if (find !== null) {
    const fn = find(target, classes)
    if (fn !== MISS) return fn
  }
  if (typeof target !== 'object' || target === null) return undefined
  const host = (target as Partial<FunctionHost>)[MEMBER_FUNCTION]
  const finder = host === undefined ? undefined : host.call(target, name, classes)
  if (finder === undefined) return undefined
  // The last kind seen wins, as a member read's site keeps its last reader (member-sites.ts).
  site.f = finder
  const fn = finder(target, classes)
  return fn === MISS ? undefined : fn
}
