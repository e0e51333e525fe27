/**
 * @module `For each` over a selection whose variable keeps no entity past its pass gets one entity
 * pointed at each member in turn (compile/emit/loop-item.ts, selection-handle.ts): what keeps one
 * still has its own, a change not saved stays with its entity, and class code that had it as
 * `This` stops the reuse.
 */
import { describe, expect, test } from 'vitest'
import { generatedSources } from '../compile/generated.fixture.js'
import { runFor, store } from './orda.fixture.js'

const ORDERED = `ds.Employee.all().orderBy("ID")`

/** The loop's item as the generated code reads it: `reused` or `at`. */
const itemRead = (body: string, after = ''): string => {
  const source = generatedSources(
    `var $e; $keep; $o : Object\nvar $c : Collection:=[]\nFor each ($e; ${ORDERED})\n${body}\nEnd for each\n${after}`,
  )[0]!
  return /l0\.(reused|at)\(/.exec(source)![1]!
}

describe('what keeps the loop entity', () => {
  test.each([
    '$c.push($e.lastName)',
    '$c.push($e.employer.name)',
    '$e.salary:=$e.salary+1',
    '$c.push(Length($e.lastName))',
  ])('%s keeps nothing', (body) => {
    expect(itemRead(body)).toBe('reused')
  })

  test.each([
    '$c.push($e)',
    '$c.push($e["lastName"])',
    '$keep:=$e',
    '$o:={e: $e}',
    '$c:=[$e]',
    '$e.save()',
    '$c.push(Formula($e.lastName))',
    '$e:=Null',
    'If ($e=$keep)\nEnd if',
    'For each ($e; ds.Company.all())\nEnd for each',
    'EXECUTE FORMULA("$c.push(1)")',
  ])('%s may keep it', (body) => {
    expect(itemRead(body)).toBe('at')
  })

  test('a use after the loop is not in it', () => {
    expect(itemRead('$c.push($e.lastName)', '$keep:=$e')).toBe('reused')
  })
})

describe('the loop entity, reused or not', () => {
  test('kept in the loop, each is its own entity after it', () => {
    const code = `
var $e : Object
var $kept : Collection:=[]
For each ($e; ${ORDERED})
  $kept.push($e)
End for each
return $kept.map(Formula($1.value.lastName))`
    expect(runFor(store(), code)).toEqual(['Lovelace', 'Turing', 'Hopper'])
  })

  test('reused: after the loop it reads the last member; a change not saved stays behind', () => {
    const code = `
var $e : Object
var $seen : Collection:=[]
For each ($e; ${ORDERED})
  $seen.push($e.salary)
  $e.salary:=$e.salary+1
End for each
return [$seen; $e.lastName; $e.salary; ds.Employee.get(1).salary]`
    expect(runFor(store(), code)).toEqual([[5000, 6000, 7000], 'Hopper', 7001, 5000])
  })

  test('a computed property that returns This: each entity read keeps its own', () => {
    const classes = {
      EmployeeEntity: `
Class extends Entity

Function get me() : Object
  return This
`,
    }
    const code = `
var $e : Object
var $kept : Collection:=[]
For each ($e; ${ORDERED})
  $kept.push($e.me)
End for each
return $kept.map(Formula($1.value.lastName))`
    expect(runFor(store(), code, { classes })).toEqual(['Lovelace', 'Turing', 'Hopper'])
  })
})
