/** For tests: a computed attribute read by its getter's call in steps, driven a step at a time. */
import { getterSteps, type Entity } from '@entistore/core'

/** `name` of `entity` read by its getter's call in steps: its value, and the steps it took. */
export function getterInSteps(entity: Entity, name: string): { value: unknown; steps: number } {
  const attr = entity.dataClass.def.attributesByName.get(name)!
  if (attr.kind !== 'calculated') throw new Error(`${name} is no computed attribute`)
  const work = getterSteps(attr.compute, entity)!
  let steps = 0
  for (;;) {
    const r = work.next()
    if (r.done === true) return { value: r.value, steps }
    steps++
  }
}
