/**
 * @module `Get database parameter` and `SET DATABASE PARAMETER` (set-database-parameter.md): the
 * selectors 4D documents, by their constants (`Debug log recording`, `Tips enabled`…). What they
 * set is 4D's own machinery here absent (its log files, its client/server network, tips of its
 * forms): such a value is kept and read back, so that code saving and restoring a setting around
 * its work (as real code does with the debug log) runs, and changes nothing else. The selectors
 * whose value would change what code computes (`Dates inside objects`, `Times inside objects`,
 * the SQL engine's) take only the value Entistore runs with; another raises, as what cannot run
 * here. The values of the 4D application are the datastore's (its `Storage` names it); those of
 * the current process, the running context's.
 */
import { noteVolatileRead } from '@entistore/core'
import { invalid, integerArg } from '../arguments/arguments.js'
import { outArg } from '../arguments/out-parameter.js'
import { raise } from '../errors/fourd-error.js'
import type { CommandContext } from '../context/command-context.js'
import type { CommandSpec } from './table.js'

/** A selector: its default, whether it is the current process's, read only, or fixed here. */
interface Selector {
  readonly value: number
  readonly initial?: number | string
  readonly process?: true
  readonly readOnly?: true
  /** Its value changes what code computes: only `initial` runs here. */
  readonly fixed?: true
}

const S = (value: number, more: Omit<Selector, 'value'> = {}): Selector => ({ value, ...more })

const SELECTORS: Readonly<Record<string, Selector>> = {
  '4D Remote mode timeout': S(14),
  '4D Server log recording': S(28, { initial: 0 }),
  '4D Server timeout': S(13),
  'Auto synchro resources folder': S(48, { initial: 0 }),
  'Cache flush periodicity': S(95),
  'Cache unload minimum size': S(66),
  'Circular log limitation': S(90, { initial: 50 }),
  'Client HTTPS port ID': S(40, { initial: 443 }),
  'Client log recording': S(45, { initial: 0 }),
  'Client Server port ID': S(35, { initial: 19813 }),
  'Client Web log recording': S(30, { initial: 0 }),
  'Current process debug log recording': S(111, { initial: 0, process: true }),
  'Dates inside objects': S(85, { initial: 2, process: true, fixed: true }),
  'Debug log recording': S(34, { initial: 0 }),
  'Diagnostic log level': S(86, { initial: 4 }),
  'Diagnostic log recording': S(79, { initial: 0 }),
  'Direct2D get active status': S(74, { initial: 0, readOnly: true }),
  'Direct2D status': S(69, { initial: 3 }),
  'Idle connections timeout': S(54, { initial: 20 }),
  'IMAP Log': S(119, { initial: 0 }),
  'Is current database a project': S(112, { initial: 1, readOnly: true }),
  'Is host database a project': S(113, { initial: 1, readOnly: true }),
  'Is host database writable': S(117, { initial: 1, readOnly: true }),
  'Libldap version': S(114, { initial: '', readOnly: true }),
  'Libsasl version': S(115, { initial: '', readOnly: true }),
  'Libzip version': S(120, { initial: '', readOnly: true }),
  'Log command list': S(80, { initial: 'all' }),
  'Min TLS version': S(105, { initial: 'TLSv1_3' }),
  'Number of formulas in cache': S(92, { initial: 0 }),
  'OpenSSL version': S(94, { initial: '', readOnly: true }),
  'Order by formula on server': S(47, { initial: 0, process: true }),
  'Pause logging': S(121, { initial: 0 }),
  'PHP interpreter IP address': S(55, { initial: '127.0.0.1' }),
  'PHP interpreter port': S(56, { initial: 8002 }),
  'POP3 Log': S(116, { initial: 0 }),
  'Port ID': S(15, { initial: 80 }),
  'Query by formula joins': S(49, { initial: 0, process: true }),
  'Query by formula on server': S(46, { initial: 0, process: true }),
  'RDP optimization': S(133, { initial: 0 }),
  'Remote connection sleep timeout': S(98, { initial: 172800 }),
  'Server base process stack size': S(53),
  'SMTP Log': S(110, { initial: 0 }),
  Spellchecker: S(81, { initial: 0 }),
  'SQL Autocommit': S(43, { initial: 0, fixed: true }),
  'SQL Engine case sensitivity': S(44, { initial: 1, fixed: true }),
  'SQL Server Port ID': S(88, { initial: 19812 }),
  'SSL cipher list': S(64, { initial: '' }),
  'TCPUDP log recording': S(131, { initial: 0 }),
  'Times inside objects': S(109, { initial: 0, fixed: true }),
  'Tips delay': S(102, { initial: 45 }),
  'Tips duration': S(103, { initial: 720 }),
  'Tips enabled': S(101, { initial: 1 }),
  'Use legacy network layer': S(87, { initial: 0 }),
  'User param value': S(108, { initial: '' }),
}

/** The selectors' constants, for the constants' table (constants.ts). */
export const DATABASE_PARAMETERS: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(SELECTORS).map(([name, s]) => [name, s.value]),
)

const BY_VALUE = new Map(Object.entries(SELECTORS).map(([name, s]) => [s.value, { name, ...s }]))

// The values set: the application's by its Storage (one a datastore), the process's by context.
const application = new WeakMap<object, Map<number, number | string>>()
const processes = new WeakMap<object, Map<number, number | string>>()

function valuesOf(rt: CommandContext, s: Selector): Map<number, number | string> {
  const [store, key] = s.process ? [processes, rt as object] : [application, rt.storage]
  let values = store.get(key)
  if (values === undefined) store.set(key, (values = new Map()))
  return values
}

/** The selector of `args` (`selector`; `table; selector` is not reached here: no table is). */
function selectorOf(command: string, args: readonly unknown[]) {
  if (args.length !== 1) return raise('NotSupported', { construct: 'A table' })
  const n = integerArg(command, 'selector', args[0])
  const s = BY_VALUE.get(n)
  return s ?? invalid(command, 'selector', `${n} is no selector of the database parameters`)
}

export const DATABASE_PARAMETER_COMMANDS: readonly CommandSpec[] = [
  {
    number: 643,
    name: 'Get database parameter',
    // `(selector; stringValue)`: a text value is written to `stringValue`, the result is 0.
    signature: '(selector: any; stringValue?: any): Real',
    writes: [1],
    impl: (rt, selector, stringValue) => {
      // Values `SET DATABASE PARAMETER` changes untold (context/outside-state.ts).
      noteVolatileRead()
      const s = selectorOf('Get database parameter', [selector])
      const value =
        s.value === 94
          ? (process.versions.openssl ?? '')
          : (valuesOf(rt, s).get(s.value) ?? s.initial ?? 0)
      if (typeof value === 'number') return value
      if (stringValue !== undefined)
        outArg('Get database parameter', 'stringValue', stringValue).set(value)
      return 0
    },
  },
  {
    number: 642,
    name: 'SET DATABASE PARAMETER',
    signature: '(...args: any): void',
    impl: (rt, ...args) => {
      const command = 'SET DATABASE PARAMETER'
      const s = selectorOf(command, args.slice(0, -1))
      const value = args.at(-1)
      if (s.readOnly) return invalid(command, 'selector', `${s.name} can only be read`)
      if (typeof value !== 'number' && typeof value !== 'string')
        return invalid(command, 'value', 'a number or a text is expected')
      if (s.fixed && value !== s.initial)
        return raise('NotImplemented', { name: `${command}(${s.name})` })
      valuesOf(rt, s).set(s.value, value)
    },
  },
]
