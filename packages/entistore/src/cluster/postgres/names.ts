/**
 * @module The names a PostgreSQL log may live under: a schema and a table prefix. Checked apart from
 * the modules that use pg so that the CLI refuses a bad name as a usage error without loading the
 * driver.
 *
 * Only lower-case identifiers: such a name means the same quoted (as the log writes it) or not (as
 * someone typing in psql would), and it can go into the NOTIFY channel's name as it is.
 */

const NAME = /^[a-z_][a-z0-9_]*$/

/** Why `name` cannot be the log's schema or table prefix, or undefined when it can. */
export function postgresNameProblem(what: 'schema' | 'prefix', name: string): string | undefined {
  // An empty prefix is allowed: the tables are then plain `log` and `snapshot`.
  if (NAME.test(name) || (what === 'prefix' && name === '')) return undefined
  return `the ${what} must be ${what === 'prefix' ? 'empty or ' : ''}a lower-case identifier (a-z, 0-9 and _, not starting with a digit), got ${JSON.stringify(name)}`
}
