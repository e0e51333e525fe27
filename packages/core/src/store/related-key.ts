/**
 * @module The key in a relation value as written. Data files and writes accept the same forms: the
 * related key itself, `{"__KEY": …}`, the deferred form of a read (`{"__deferred": {"__KEY": …}}`,
 * so that an entity read can be written back as it came), or null to clear the relation.
 */

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The related key as written (still to be coerced to the target's key type), null for no related
 * entity, or undefined when `raw` is an object that holds no `__KEY`.
 */
export function relatedKeyOf(raw: unknown): unknown {
  const inner = isRecord(raw) && isRecord(raw.__deferred) ? raw.__deferred : raw
  if (!isRecord(inner)) return inner ?? null
  const key = Object.hasOwn(inner, '__KEY') ? inner.__KEY : undefined
  return key === undefined ? undefined : key
}
