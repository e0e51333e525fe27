/**
 * @module The approximate index of vector attributes (core's `NearestIndex`) on hnswlib-node, an
 * optional dependency as sharp is: `npm install hnswlib-node` (a native addon, built on install)
 * and every datastore this package makes (persist/in-memory-datastore.ts, under its `createDatastore`,
 * which `entistore serve`, the fixtures and `clone` take) uses it for the searches that ask for
 * approximation (docs/vectors.md). Chosen against usearch and hnswlib-wasm by recall, speed, memory and install
 * weight (docs/benchmarks.md, "Vectors"): 1.1 MB installed, recall@10 ≥ 0.99 at ef 16 on 100k
 * clustered vectors in 0.2 ms, about 1,360 bytes a vector of 256 dimensions.
 */
import { createRequire } from 'node:module'
import type { NearestIndex, NearestIndexFactory, NearestIndexSpec } from '@entistore/core'

/** The part of hnswlib-node's HierarchicalNSW this uses. */
interface Hnsw {
  initIndex(
    maxElements: number,
    m?: number,
    efConstruction?: number,
    randomSeed?: number,
    allowReplaceDeleted?: boolean,
  ): void
  resizeIndex(maxElements: number): void
  getMaxElements(): number
  addPoint(point: number[], label: number): void
  markDelete(label: number): void
  setEf(ef: number): void
  searchKnn(query: number[], k: number): { neighbors: number[]; distances: number[] }
}
type HnswModule = {
  HierarchicalNSW: new (space: 'l2' | 'ip' | 'cosine', dims: number) => Hnsw
}

/** The graph's links a node (hnswlib's default) and the candidates read while building. */
export const HNSW_M = 16
export const HNSW_EF_CONSTRUCTION = 200

/**
 * The factory of HNSW indexes if hnswlib-node can be loaded, else undefined (searches then stay
 * exact, and their plan says why). `load`: how the package is loaded (tests give one that fails).
 */
export function hnswIndexes(
  load: () => unknown = () => createRequire(import.meta.url)('hnswlib-node'),
): NearestIndexFactory | undefined {
  let mod: HnswModule
  try {
    mod = load() as HnswModule
  } catch {
    return undefined
  }
  if (typeof mod?.HierarchicalNSW !== 'function') return undefined
  return (spec) => hnswIndex(mod, spec)
}

function hnswIndex(mod: HnswModule, spec: NearestIndexSpec): NearestIndex {
  // hnswlib's spaces: cosine, inner product (dot: nearest = largest product), l2 (squared euclidean).
  const space = spec.metric === 'cosine' ? 'cosine' : spec.metric === 'dot' ? 'ip' : 'l2'
  const index = new mod.HierarchicalNSW(space, spec.dims)
  index.initIndex(spec.capacity, HNSW_M, HNSW_EF_CONSTRUCTION, 100, true)
  // Which row ids it holds now (a label deleted in hnswlib stays in its count).
  let held = new Uint8Array(Math.max(16, spec.capacity))
  let live = 0
  let labels = 0
  return {
    description: `HNSW (hnswlib-node, M=${HNSW_M}, efConstruction=${HNSW_EF_CONSTRUCTION})`,
    add(rowId, vector) {
      if (rowId >= held.length) {
        const grown = new Uint8Array(Math.max(2 * held.length, rowId + 1))
        grown.set(held)
        held = grown
      }
      if (held[rowId] === 0) {
        if (labels >= index.getMaxElements()) index.resizeIndex(2 * index.getMaxElements())
        labels++
      }
      if (held[rowId] !== 1) live++
      held[rowId] = 1
      // An existing label (deleted or not) is updated in place by hnswlib.
      index.addPoint(Array.from(vector), rowId)
    },
    remove(rowId) {
      if (held[rowId] !== 1) return
      index.markDelete(rowId)
      held[rowId] = 2
      live--
    },
    search(query, k, ef) {
      const n = Math.min(k, live)
      if (n === 0) return []
      index.setEf(Math.max(ef, n))
      return index.searchKnn(Array.from(query), n).neighbors
    },
  }
}
