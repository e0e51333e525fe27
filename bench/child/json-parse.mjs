// The start-up and memory baseline of the HTTP suite: what any Node process must at least do with
// the data file, read it and JSON.parse it. Prints one line once parsed, then holds the rows (as
// a server would) until killed.
import { readFileSync } from 'node:fs'

const rows = JSON.parse(readFileSync(process.argv[2], 'utf8'))
globalThis.rows = rows
console.log(
  `parsed ${Object.keys(rows)
    .map((k) => `${k} ${rows[k].length}`)
    .join(', ')}`,
)
setInterval(() => {}, 1 << 30)
