#!/usr/bin/env node
// The `entistore` command. The CLI itself is TypeScript compiled to dist/ (npm install runs the
// build through the root `prepare` script), so this file only hands over argv and the exit code.
import { main } from '../dist/cli.js'

process.exitCode = await main(process.argv.slice(2))
