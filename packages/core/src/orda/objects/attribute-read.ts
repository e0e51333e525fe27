/**
 * @module An attribute read with its definition in hand: what `entity.get(name)` does once it has
 * found the definition by name, for a caller that found it already (the 4D language's bridge,
 * at every attribute 4D code reads, which needs the definition to convert the value). The acting
 * session's permission is asked exactly as `get` asks it (1607, 1557); only the second lookup by
 * name goes.
 */
import type { AttributeDef } from '../../schema/definitions.js'
import { needAttribute } from '../restrict/access-checks.js'
import type { Entity } from './entity.js'

/**
 * The value of `attr` of `entity`, as `entity.get(attr.name)` gives it, the permission asked for
 * `attr` of the entity's dataclass (and a relation's target) as `get` asks it. `attr` must be one
 * of that dataclass's own definitions, as `entity.dataClass.def.attributesByName.get(name)` gives
 * it: the caller has just looked it up there (checking it again would be the lookup this saves).
 */
export function readAttribute(entity: Entity, attr: AttributeDef): unknown {
  needAttribute(entity.dataClass, attr)
  return entity.valueOf(attr)
}
