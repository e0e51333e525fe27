import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { VALUE_TYPES } from '@entistore/core'
import { FileError } from '../files/file-error.js'
import { renderModelTypes, runTypesCommand } from './model-types.js'

const root = new URL('../../../../', import.meta.url).pathname
const companyFile = join(root, 'examples/company/model.json')

/**
 * Type-checks `files` (virtual, placed in a folder of the repository so that `@entistore/core`
 * resolves to its sources as in tsconfig.check.json) and returns the diagnostics of each file,
 * with the checker to ask for types.
 */
function typeCheck(files: Record<string, string>): {
  diagnostics: (file: string) => { line: number; code: number; text: string }[]
  typeAt: (file: string, marker: string) => string
} {
  const dir = join(root, 'packages/entistore/src/__typecheck__')
  const paths = new Map(Object.entries(files).map(([name, text]) => [join(dir, name), text]))
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    resolveJsonModule: true,
    allowImportingTsExtensions: true,
    customConditions: ['source'],
  }
  const host = ts.createCompilerHost(options)
  const readFileFromHost = host.readFile.bind(host)
  const getSourceFile = host.getSourceFile.bind(host)
  host.fileExists = (f) => paths.has(f) || ts.sys.fileExists(f)
  host.directoryExists = (d) => d === dir || ts.sys.directoryExists(d)
  host.readFile = (f) => paths.get(f) ?? readFileFromHost(f)
  host.getSourceFile = (f, lang, ...rest) =>
    paths.has(f) ? ts.createSourceFile(f, paths.get(f)!, lang) : getSourceFile(f, lang, ...rest)
  const program = ts.createProgram([...paths.keys()], options, host)
  const checker = program.getTypeChecker()
  const source = (name: string): ts.SourceFile => program.getSourceFile(join(dir, name))!
  return {
    diagnostics: (name) =>
      ts.getPreEmitDiagnostics(program, source(name)).map((d) => ({
        line: d.file!.getLineAndCharacterOfPosition(d.start!).line + 1,
        code: d.code,
        text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
      })),
    // The type of the initializer of `const <marker> = …`.
    typeAt: (name, marker) => {
      let found: ts.Expression | undefined
      const visit = (node: ts.Node): void => {
        if (ts.isVariableDeclaration(node) && node.name.getText() === marker)
          found = node.initializer
        else ts.forEachChild(node, visit)
      }
      visit(source(name))
      if (!found) throw new Error(`no const ${marker} in ${name}`)
      return checker.typeToString(checker.getTypeAtLocation(found))
    },
  }
}

const lineOf = (text: string, needle: string): number =>
  text.split('\n').findIndex((l) => l.includes(needle)) + 1

describe('renderModelTypes', () => {
  it('writes each attribute as the engine reads it: keys and not_null without null', () => {
    const text = renderModelTypes({
      dataClasses: [
        {
          name: 'Item',
          attributes: [
            { name: 'code', type: 'string', identifying: true },
            { name: 'label', type: 'string', not_null: true },
            { name: 'price', type: 'number' },
          ],
        },
      ],
    })
    expect(text).toContain(
      '  Item: {\n    code: string\n    label: string\n    price: number | null\n',
    )
    expect(text).toContain("export type Item = entistore.Entity<Model, 'Item'>")
  })

  it('refuses a model the engine would not load, with its error', () => {
    expect(() =>
      renderModelTypes({
        dataClasses: [{ name: 'A', attributes: [{ name: 'ID', type: 'strng' }] }],
      }),
    ).toThrow(/unknown type "strng"/)
  })

  it('gives no alias to a dataclass named like something the module declares', () => {
    const text = renderModelTypes({
      dataClasses: [
        { name: 'Model', attributes: [{ name: 'ID', type: 'long' }] },
        { name: 'Thing', attributes: [{ name: 'ID', type: 'long' }] },
        { name: 'ThingSelection', attributes: [{ name: 'ID', type: 'long' }] },
      ],
    })
    expect(text).not.toMatch(/export type Model\b/)
    expect(text).toContain("export type ModelSelection = entistore.EntitySelection<Model, 'Model'>")
    // ThingSelection is a dataclass: it keeps the name, and Thing's selection gets none.
    expect(text).toContain("export type ThingSelection = entistore.Entity<Model, 'ThingSelection'>")
    expect(text).not.toContain("entistore.EntitySelection<Model, 'Thing'>")
  })
})

describe('the generated types, compiled with a program that uses them', () => {
  const company = JSON.parse(
    // Read once: the tests below compile against the example model.
    ts.sys.readFile(companyFile)!,
  ) as unknown
  const types = renderModelTypes(company, { source: 'examples/company/model.json' })
  // One attribute per value type, not null, to compare the generated text with ValueTypes.
  const everyType = renderModelTypes({
    dataClasses: [
      {
        name: 'All',
        attributes: [
          { name: 'ID', type: 'long' },
          ...VALUE_TYPES.map((t) => ({ name: `a_${t}`, type: t, not_null: true })),
        ],
      },
    ],
  })
  const usage = [
    "import { createDatastore, type ValueTypes } from '@entistore/core'",
    "import type { Model, Employee } from './model-types.ts'",
    "import type { Model as All } from './every-type.ts'",
    "import model from '../../../../examples/company/model.json' with { type: 'json' }",
    '',
    '// A model imported from JSON has plain strings: it loads, typed by the type argument.',
    'const ds = createDatastore<Model>(model)',
    "const salary = ds.dataClass('Employee').getOrFail(3).get('salary')",
    "const maybe = ds.Employee.get(3)?.get('salary')",
    "const ok: number | null | undefined = ds.Employee.get(3)?.get('salary')",
    "const wrong: string | null | undefined = ds.Employee.get(3)?.get('salary') // WRONG TYPE",
    "ds.Employee.get(3)?.get('nmae') // MISSPELLED",
    "const employer = ds.Employee.getOrFail(3).get('employer')",
    "const staff = ds.Company.getOrFail(1).get('staff')",
    "const alias = ds.Employee.getOrFail(3).get('employerName')",
    'const names: (string | null)[] = []',
    "for (const e of ds.Employee.query('salary > :1', 5000)) names.push(e.get('lastName'))",
    'const first: Employee | null | undefined = ds.Employee.all().at(0)',
    "ds.Employee.create({ lastName: 'Curie', salary: 4000, employer: 1 })",
    "ds.Employee.create({ employerName: 'x' }) // READ ONLY",
    '// The same JSON without the type argument is the untyped datastore, as before.',
    "const untyped = createDatastore(model).dataClass('Employee').get(3)?.get('anything')",
    '',
    'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false',
    ...VALUE_TYPES.map(
      (t) => `const same_${t}: Same<All['All']['a_${t}'], ValueTypes['${t}']> = true`,
    ),
    'export { ok, wrong, first, names, untyped }',
  ].join('\n')
  let checked: ReturnType<typeof typeCheck>

  beforeAll(() => {
    checked = typeCheck({
      'model-types.ts': types,
      'every-type.ts': everyType,
      'usage.ts': usage,
    })
  })

  it('compiles the generated module on its own', () => {
    expect(checked.diagnostics('model-types.ts')).toEqual([])
    expect(checked.diagnostics('every-type.ts')).toEqual([])
  })

  it('types get(key)?.get(attribute), relations, aliases and iteration', () => {
    expect(checked.typeAt('usage.ts', 'salary')).toBe('number | null')
    expect(checked.typeAt('usage.ts', 'maybe')).toBe('number | null | undefined')
    expect(checked.typeAt('usage.ts', 'employer')).toBe('Entity<Model, "Company"> | null')
    expect(checked.typeAt('usage.ts', 'staff')).toBe('EntitySelection<Model, "Employee">')
    expect(checked.typeAt('usage.ts', 'alias')).toBe('string | null')
    expect(checked.typeAt('usage.ts', 'untyped')).toBe('unknown')
  })

  it('reports a misspelled attribute, a wrong type and a write to an alias, and nothing else', () => {
    const found = checked.diagnostics('usage.ts')
    const at = (marker: string) => found.filter((d) => d.line === lineOf(usage, marker))
    expect(at('// MISSPELLED')).toMatchObject([
      { code: 2345, text: expect.stringContaining('"nmae"') },
    ])
    expect(at('// WRONG TYPE')).toMatchObject([{ code: 2322 }])
    expect(at('// READ ONLY')).toMatchObject([{ text: expect.stringContaining('employerName') }])
    expect(found).toHaveLength(3)
  })
})

describe('runTypesCommand', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'entistore-types-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('writes the types to --out, or prints them', async () => {
    const lines: string[] = []
    const out = join(dir, 'model-types.ts')
    await runTypesCommand({ model: companyFile, out }, { out: (l) => lines.push(l) })
    expect(lines).toEqual([`Wrote the types of ${companyFile} to ${out}`])
    const written = await readFile(out, 'utf8')
    expect(written).toBe(
      renderModelTypes(JSON.parse(await readFile(companyFile, 'utf8')), { source: companyFile }),
    )
    const printed: string[] = []
    await runTypesCommand({ model: companyFile }, { out: (l) => printed.push(l) })
    expect(`${printed.join('\n')}\n`).toBe(written)
  })

  it('names the model file when it is not a model', async () => {
    const bad = join(dir, 'bad.json')
    await writeFile(
      bad,
      '{"dataClasses": [{"name": "A", "attributes": [{"name": "x", "kind": "storag"}]}]}',
    )
    const e = await runTypesCommand({ model: bad }, { out: () => {} }).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(FileError)
    expect((e as FileError).message).toMatch(/bad\.json: .*unknown kind "storag"/)
  })
})
