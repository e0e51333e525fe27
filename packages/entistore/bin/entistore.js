#!/usr/bin/env node
// The `entistore` command. The CLI itself is TypeScript compiled to dist/ (npm install runs the
// build through the root `prepare` script), so this file only hands over argv and the exit code.
import module from 'node:module'

// V8 keeps the code it compiles of the CLI's modules on disk (Node's compile cache, in the
// system's temporary folder; Node 22.1 and later) and the next start reads it instead of
// compiling again: a fifth of a start on 20k rows went to compiling the bundled engine. Before
// the CLI is imported, hence the dynamic import.
module.enableCompileCache?.()
const { main } = await import('../dist/cli.js')

process.exitCode = await main(process.argv.slice(2))
