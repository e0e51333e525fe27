/**
 * @module The classic transaction commands (docs/commands/theme/Transactions.md): `START
 * TRANSACTION`, `VALIDATE TRANSACTION`, `CANCEL TRANSACTION`, `In transaction` and `Transaction
 * level`. In 4D they and ORDA's `ds.startTransaction()` act on the same transaction of the
 * process, nested: here each is the datastore's own member (`ds.startTransaction()`,
 * `validateTransaction()`, `cancelTransaction()`, `transactionLevel()`), called on the datastore
 * the code runs on, so that code mixing the two styles sees one transaction. `VALIDATE
 * TRANSACTION` sets OK to 1 once the transaction is saved and to 0 when it is not
 * (validate-transaction.md), the transaction then cancelled; the reason (a conflict, the datastore
 * locked) goes on as core's error, where 4D's page says nothing of one (compat.md). `CANCEL
 * TRANSACTION` leaves OK as it is: its page names no system variable.
 */
import type { CommandContext } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

const level = (rt: CommandContext): number => {
  const n = rt.call(rt.ds, 'transactionLevel', [])
  return typeof n === 'number' ? n : 0
}

export const TRANSACTION_COMMANDS: readonly CommandSpec[] = [
  {
    number: 239,
    name: 'START TRANSACTION',
    signature: '()',
    impl: (rt) => {
      rt.call(rt.ds, 'startTransaction', [])
    },
  },
  {
    number: 240,
    name: 'VALIDATE TRANSACTION',
    signature: '()',
    impl: (rt) => {
      rt.pvSet('OK', 0)
      rt.call(rt.ds, 'validateTransaction', [])
      rt.pvSet('OK', 1)
    },
  },
  {
    number: 241,
    name: 'CANCEL TRANSACTION',
    signature: '()',
    impl: (rt) => {
      rt.call(rt.ds, 'cancelTransaction', [])
    },
  },
  {
    number: 397,
    name: 'In transaction',
    signature: '(): Boolean',
    impl: (rt) => level(rt) > 0,
  },
  {
    number: 961,
    name: 'Transaction level',
    signature: '(): Integer',
    impl: (rt) => level(rt),
  },
]
