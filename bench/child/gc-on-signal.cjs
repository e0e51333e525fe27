// Preloaded (`node --expose-gc --require …`) into every child of the HTTP suite, the entistore CLI
// and the JSON.parse baseline alike: a full GC on SIGUSR2, so that the bench reads each process's
// RSS once loading's garbage is gone (bench/processes.ts, settledRss). Nothing else.
'use strict'
process.on('SIGUSR2', () => {
  if (typeof globalThis.gc === 'function') globalThis.gc()
})
