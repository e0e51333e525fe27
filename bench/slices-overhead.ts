/**
 * What running the engine's loops as generators costs (issue 47): the heavy reads of the
 * contention suite on 1M short rows, through the library (work run to its end in one piece) and
 * through the REST handler (in slices of 5 ms, driven by setImmediate). Prints ms per read.
 *
 *   npx tsx --conditions=source bench/slices-overhead.ts [rows]
 */
import { createDatastore } from '@entistore/core'
import { createRestHandler } from '@entistore/rest'

const N = Number(process.argv[2] ?? 1_000_000)
const ds = createDatastore({
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'code', type: 'string', indexed: true },
        { name: 'name', type: 'string' },
        { name: 'city', type: 'string' },
        { name: 'age', type: 'long' },
        { name: 'salary', type: 'number' },
      ],
    },
  ],
})
const cities = ['Paris', 'Lyon', 'Évry', 'Nice', 'Zürich', 'Lille']
ds.loadData({
  Item: Array.from({ length: N }, (_, i) => ({
    ID: i + 1,
    code: `C${i}`,
    name: `name ${(i * 7919) % 50_000}`,
    city: cities[i % cities.length],
    age: i % 100,
    salary: (i * 7919) % 100_000,
  })),
})
const Item = ds.dataClass('Item')
const reads: [string, () => unknown, string][] = [
  ['scan', () => Item.query("name = 'name 77@'").length, `$filter="name='name 77@'"&$top=0`],
  [
    'top 10',
    () => Item.query('order by salary desc').window(0, 10).length,
    '$orderby=salary desc&$top=10',
  ],
  ['sum', () => Item.all().sum('salary'), '$compute=sum&$attributes=salary'],
  ['count half', () => Item.query('age < 50').length, `$filter="age<50"&$top=0`],
]
const rest = createRestHandler(ds)
const time = async (fn: () => unknown | Promise<unknown>, n = 5): Promise<number> => {
  await fn()
  const t = performance.now()
  for (let i = 0; i < n; i++) await fn()
  return (performance.now() - t) / n
}
for (const [name, lib, query] of reads) {
  const one = await time(lib)
  const sliced = await time(async () => {
    const r = await rest.request(`/rest/Item?${query}`)
    if (r.status !== 200) throw new Error(`${name}: ${r.status} ${await r.text()}`)
    await r.arrayBuffer()
  })
  console.log(
    `${name.padEnd(12)} library ${one.toFixed(1).padStart(7)} ms   REST in slices ${sliced.toFixed(1).padStart(7)} ms`,
  )
}
