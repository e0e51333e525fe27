import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { renderModelTypes } from 'entistore'

const root = fileURLToPath(new URL('../..', import.meta.url))
const json = (file: string): unknown => JSON.parse(readFileSync(`${root}/${file}`, 'utf8'))

describe('the typed TS API example', () => {
  it('uses types that are up to date with the company model', () => {
    const checkedIn = readFileSync(`${root}/examples/typed-api/model-types.ts`, 'utf8')
    expect(
      checkedIn,
      'examples/typed-api/model-types.ts is out of date: run npx entistore types --model examples/company/model.json --out examples/typed-api/model-types.ts',
    ).toBe(
      renderModelTypes(json('examples/company/model.json'), {
        source: 'examples/company/model.json',
      }),
    )
  })

  it('runs as its README says and prints what the data holds', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--conditions=source', 'examples/typed-api/main.ts'],
      { cwd: root },
    )
    // The expected values come from the data file itself, not from the engine.
    type Row = Record<string, unknown>
    const data = json('examples/company/data.json') as Record<string, Row[]>
    const tessa = data.Employee!.find((e) => e.ID === 3)!
    const employer = data.Company!.find((c) => c.ID === tessa.employerID)!
    const acme = data.Company!.find((c) => c.ID === 1)!
    const acmeStaff = data.Employee!.filter((e) => e.employerID === 1).length
    const best = data.Employee!.filter((e) => (e.salary as number) >= 149000).length
    const lines = stdout.trimEnd().split('\n')
    expect(lines[0]).toBe(
      `Employee 3: ${tessa.firstName} ${tessa.lastName} (${tessa.salary}), salary ${tessa.salary}`,
    )
    expect(lines[1]).toBe(`  works for ${employer.name}`)
    expect(lines[2]).toMatch(/^Misspelled: .*"nmae"/)
    expect(lines[3]).toBe(`${best} employees earn 149000 or more; the first three:`)
    expect(lines.slice(4, 7)).toHaveLength(3)
    expect(lines).toContain(`${acme.name} employs ${acmeStaff} people`)
    expect(lines).toContain(
      `Created ${data.Employee!.length + 1}: Ada Lovelace (5200), active true, employer ${acme.name}`,
    )
    const [first, second] = data
      .Employee!.filter((e) => (e.salary as number) >= 149000)
      .sort(
        (a, b) =>
          (b.salary as number) - (a.salary as number) || (a.ID as number) - (b.ID as number),
      )
    const firstEmployer = data.Company!.find((c) => c.ID === first!.employerID)!
    expect(lines).toContain(
      `  the best paid: ${JSON.stringify({ lastName: first!.lastName, salary: first!.salary, employer: { name: firstEmployer.name } })}, then ${second!.lastName}`,
    )
    expect(lines).toContain('Saving over an old version: Stamp has changed (2)')
    expect(lines.at(-1)).toBe('After the drop: length 1, iterated 0')
  })
})
