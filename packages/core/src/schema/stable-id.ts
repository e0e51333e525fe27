/** @module Deterministic 32-hex-digit identifiers, for the catalog's `uuid` fields when a model gives none. */

// Two independent 64-bit FNV-1a hashes (different offset bases) make 128 bits. Stability across runs
// is the point: a catalog must not change between two starts of the same model.
function fnv1a64(text: string, basis: bigint): bigint {
  let h = basis
  for (let i = 0; i < text.length; i++) {
    h ^= BigInt(text.charCodeAt(i))
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn
  }
  return h
}

/** A stable uppercase 32-hex-digit id for the given parts (4D uuids look like this). */
export function stableId(...parts: string[]): string {
  const text = parts.join('\u0000')
  const a = fnv1a64(text, 0xcbf29ce484222325n)
  const b = fnv1a64(text, 0x84222325cbf29ce4n)
  return (a.toString(16).padStart(16, '0') + b.toString(16).padStart(16, '0')).toUpperCase()
}
