// Temporary probe (not committed): which slices of a background build run long.
import { readFileSync } from 'node:fs'
import { createDatastore } from '@entistore/core'
const model = JSON.parse(readFileSync('/work/scale-data/short-v2.model.json', 'utf8'))
const ds = createDatastore(model)
ds.loadData(JSON.parse(readFileSync(process.argv[2]!, 'utf8')))
const indexes = ds.dataClass('Person').table.indexes
const long: [number, string][] = []
let slices = 0
const t0 = performance.now()
for (const attr of ['code', 'name', 'city', 'age', 'groupID', 'ID', undefined]) {
  while (!indexes.ready(attr ? [attr] : undefined)) {
    const s = performance.now()
    const deadline = s + 4
    indexes.step(() => performance.now() < deadline, attr ? [attr] : [])
    const ms = performance.now() - s
    slices++
    if (ms > 12) long.push([Math.round(ms), `${attr} unbuilt=${indexes.unbuilt} slice ${slices}`])
  }
  console.log(attr, 'ready at', Math.round(performance.now() - t0), 'ms; slices', slices)
}
console.log(long.slice(0, 40))
