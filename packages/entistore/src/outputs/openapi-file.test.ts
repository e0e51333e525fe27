import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { main, type CliIo } from '../cli.js'
import { COMPANY_FUNCTIONS, COMPANY_MODEL, companyDescription } from './company-api.fixture.js'

const dir = mkdtempSync(join(tmpdir(), 'entistore-openapi-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function run(argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = []
  const err: string[] = []
  const io: CliIo = { out: (l) => out.push(l), err: (l) => err.push(l) }
  return { code: await main(argv, io), out, err }
}

describe('entistore openapi', () => {
  it('prints the description GET /rest/$openapi serves for the model and its functions', async () => {
    const { code, out, err } = await run(['openapi', '-m', COMPANY_MODEL, '-f', COMPANY_FUNCTIONS])
    expect({ code, err }).toEqual({ code: 0, err: [] })
    expect(JSON.parse(out.join('\n'))).toEqual(await companyDescription())
  })

  it('writes it to --out and says where', async () => {
    const target = join(dir, 'openapi.json')
    const { code, out } = await run(['openapi', '--model', COMPANY_MODEL, '--out', target])
    expect(code).toBe(0)
    expect(out).toEqual([`Wrote the OpenAPI description of ${COMPANY_MODEL} to ${target}`])
    const written = JSON.parse(readFileSync(target, 'utf8')) as { openapi: string; paths: object }
    expect(written.openapi).toBe('3.1.0')
    // Without --functions, no function is described.
    expect(Object.keys(written.paths)).not.toContain('/rest/Employee/highEarners')
  })

  it('needs --model (exit 2) and names a file it cannot use in one line (exit 1)', async () => {
    expect(await run(['openapi'])).toEqual({
      code: 2,
      out: [],
      err: [
        'entistore: --model or --project <folder> is required',
        "run 'entistore openapi --help' for its options",
      ],
    })
    const bad = join(dir, 'bad.js')
    writeFileSync(bad, 'export default { dataClasses: { Nope: {} } }\n')
    const refused = await run(['openapi', '-m', COMPANY_MODEL, '-f', bad])
    expect(refused.code).toBe(1)
    expect(refused.err).toHaveLength(1)
    expect(refused.err[0]).toMatch(/^entistore: .*bad\.js: .*Nope/)
  })
})
