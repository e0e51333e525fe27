import { loadDatastoreFiles } from './packages/entistore/src/load-files.ts'
const ds = await loadDatastoreFiles({ project: 'examples/car-rental', data: 'examples/car-rental/csv', functions: 'examples/car-rental/functions.js', onNote: (n) => console.log('NOTE', n) })
console.log(ds.dataClasses.map((d) => `${d.name} ${d.length}`).join(', '))
console.log(ds.dataClass('Car').get(1)!.get('label'), ds.dataClass('Car').get(1)!.get('brand'))
console.log(ds.singleton('Pricing').call('quote', 1, 3))
