/**
 * @module For the crash test: the `entistore` command run from the sources (under tsx), so that a
 * child process serves what the test just compiled, without a build. Test-only.
 */
import { main } from '../cli.js'

process.exitCode = await main(process.argv.slice(2))
