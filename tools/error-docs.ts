/**
 * Renders docs/errors.md from the one error table (packages/core/src/errors/err-codes.ts).
 *   npx tsx --conditions=source tools/error-docs.ts > docs/errors.md
 * A test (packages/entistore/src/docs-check/docs.test.ts) fails when the checked-in page is out of date.
 */
import { ERRORS } from '@entistore/core'
import { STATUS_BY_CATEGORY } from '@entistore/rest'

export function renderErrorDocs(): string {
  const rows = Object.entries(ERRORS).map(([name, e]) => {
    const args = Array.from({ length: e.message.length }, (_, i) => `‹${i + 1}›`)
    const message = (e.message as (...a: string[]) => string)(...args).replace(/\|/g, '\\|')
    return `| ${e.errCode} | ${e.componentSignature} | ${name} | ${STATUS_BY_CATEGORY[e.category]} | ${message} |`
  })
  return [
    '# Error codes',
    '',
    'Every error Entistore reports is an entry of one table (`packages/core/src/errors/err-codes.ts`).',
    'This page is generated from it: `npx tsx --conditions=source tools/error-docs.ts > docs/errors.md`.',
    '',
    "Codes with `componentSignature` **dbmg** are the real server's (4D docs examples, the Wakanda",
    '`dbmg` REST codes 1800–1820 and entity-model codes 1500–1611). Codes in the **9000** range with',
    "`componentSignature` **enti** are Entistore's own, used where the real server's code is not public.",
    'On the wire an error is `{"__ERROR": [{"message", "componentSignature", "errCode"}]}`, outermost first.',
    '',
    '| errCode | component | name | HTTP | message (‹n›: the n-th detail) |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!))
  process.stdout.write(renderErrorDocs())
