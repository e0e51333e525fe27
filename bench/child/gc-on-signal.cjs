// Preloaded (`node --expose-gc --require …`) into every child of the HTTP suite, the entistore CLI
// and the JSON.parse baseline alike: a full GC on SIGUSR2, so that the bench reads each process's
// RSS once loading's garbage is gone (bench/processes.ts, settledRss), and one stderr line of what
// V8 holds then: its heap's used bytes plus the memory outside it that JS objects own (typed
// arrays, external strings), the process's data without what the allocators keep around it.
'use strict'
process.on('SIGUSR2', () => {
  if (typeof globalThis.gc !== 'function') return
  globalThis.gc()
  const { heapUsed, external } = process.memoryUsage()
  process.stderr.write(`gc-heap ${heapUsed + external}\n`)
})
