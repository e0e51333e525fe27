/**
 * @module `Generate password hash` and `Verify password hash` (docs/commands/generate-password-
 * hash.md, verify-password-hash.md): bcrypt, the one algorithm 4D supports, by bcryptjs (Node's
 * crypto has no bcrypt, and a hash 4D stored in a project's data must verify here). Only the first
 * 72 bytes of a password count, as bcrypt and the pages say. A hash is made at the cost asked (4
 * to 31, 10 by default) and is as slow as bcrypt means it to be: at cost 10 about 50–100 ms of
 * the request's time budget, which a login spends once.
 *
 * Errors are 4D's: 850 for an algorithm other than "bcrypt" (a hash of another kind given to
 * Verify), 851 for a bcrypt hash that is not well formed, 852 for a cost outside 4 to 31.
 */
import bcrypt from 'bcryptjs'
import { raise } from '../errors/fourd-error.js'
import { objectArg, textArg } from '../arguments/arguments.js'
import type { CommandSpec } from './table.js'

// `$2b$10$` then 22 characters of salt and 31 of hash, in bcrypt's alphabet.
const BCRYPT_HASH = /^\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}$/

/** The cost of `options` (`{algorithm: "bcrypt"; cost: 10}`), as 4D checks it. */
function costOf(options: object | undefined): number {
  const o = (options ?? {}) as { algorithm?: unknown; cost?: unknown }
  if (o.algorithm !== undefined && o.algorithm !== 'bcrypt') raise('PasswordHashAlgorithm')
  const cost = o.cost ?? 10
  if (typeof cost !== 'number' || !Number.isInteger(cost) || cost < 4 || cost > 31)
    raise('PasswordHashCost')
  return cost
}

export const PASSWORD_HASH_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1533,
    name: 'Generate password hash',
    signature: '(password: Text; options?: Object): Text',
    impl: (_rt, password, options) => {
      const text = textArg('Generate password hash', 'password', password)
      const opts =
        options === undefined ? undefined : objectArg('Generate password hash', 'options', options)
      return bcrypt.hashSync(text, costOf(opts))
    },
  },
  {
    number: 1534,
    name: 'Verify password hash',
    signature: '(password: Text; hash: Text): Boolean',
    impl: (_rt, password, hash) => {
      const text = textArg('Verify password hash', 'password', password)
      const h = textArg('Verify password hash', 'hash', hash)
      if (!h.startsWith('$2')) raise('PasswordHashAlgorithm')
      if (!BCRYPT_HASH.test(h)) raise('PasswordHashConsistency')
      return bcrypt.compareSync(text, h)
    },
  },
]
