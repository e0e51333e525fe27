/**
 * @module A local that takes a relation's entity and keeps nothing (`$employer:=$e.employer`,
 * then only `$employer.name` and `$employer#Null`) is given the same entity at each assignment of
 * a call, pointed at the next one (compile/emit/reused-local.ts, member-sites.ts `getInto`): what
 * keeps it has its own, a recursive call has its own, class code that had it as `This` stops the
 * reuse, and a change not saved stays with its pass. Plain and in steps alike.
 */
import { describe, expect, test } from 'vitest'
import { generatedSources } from '../compile/generated.fixture.js'
import { runFor, store } from './orda.fixture.js'

const ORDERED = `ds.Employee.all().orderBy("ID")`

/** How the generated code reads `$e.employer` into `$employer`: `getInto` or `getAt`. */
const relationRead = (body: string, after = ''): string => {
  const source = generatedSources(
    `var $e; $employer; $keep; $o : Object\nvar $c : Collection:=[]\nFor each ($e; ${ORDERED})\n$employer:=$e.employer\n${body}\nEnd for each\n${after}`,
  )[0]!
  return /rt\.(getInto|getAt)\(s\d+, v\d+, "employer"/.exec(source)![1]!
}

describe('what keeps the local', () => {
  test.each([
    '$c.push($employer.name)',
    'If ($employer#Null)\n$c.push($employer.name)\nEnd if',
    'If (Null=$employer)\nEnd if',
    '$employer.name:="x"',
    '$c.push($employer.staff.length)',
    '$employer:=Null',
  ])('%s keeps nothing', (body) => {
    expect(relationRead(body)).toBe('getInto')
  })

  test.each([
    '$c.push($employer)',
    '$keep:=$employer',
    '$o:={e: $employer}',
    '$employer.save()',
    '$c.push(Formula($employer.name))',
    'If ($employer=$keep)\nEnd if',
    '$c.push($employer["name"])',
    'EXECUTE FORMULA("$c.push(1)")',
    '$o:=OB Copy($employer)',
  ])('%s may keep it', (body) => {
    expect(relationRead(body)).toBe('getAt')
  })

  test('a use after the loop counts too: the local lives through the call', () => {
    expect(relationRead('$c.push($employer.name)', '$keep:=$employer')).toBe('getAt')
  })

  test('a parameter or the result leaves the call', () => {
    const read = (text: string): boolean => generatedSources(text)[0]!.includes('rt.getInto(')
    expect(read('#DECLARE($e : Object) -> $r : Object\n$r:=$e.employer')).toBe(false)
    expect(read('#DECLARE($e : Object; $x : Object)\n$x:=$e.employer')).toBe(false)
    expect(
      read('#DECLARE($e : Object) -> $r : Text\nvar $x : Object\n$x:=$e.employer\n$r:=$x.name'),
    ).toBe(true)
  })
})

describe.each([false, true])('the relation read into a local (steps: %s)', (steps) => {
  test('each pass reads its own employer; Null between two entities', () => {
    const ds = store()
    const code = `
var $e; $employer : Object
var $names : Collection:=[]
For each ($e; ${ORDERED})
  $employer:=$e.employer
  If ($employer#Null)
    $names.push($employer.name)
  Else
    $names.push("none")
  End if
End for each
return $names`
    const bare = ds.dataClass('Employee').get(2)!.edit()
    bare.set('employer', null)
    bare.save()
    expect(runFor(ds, code, { steps })).toEqual(['Acme', 'none', 'Globex'])
  })

  test('a change not saved stays with its pass; after the loop it is the last employer', () => {
    const code = `
var $e; $employer : Object
var $seen : Collection:=[]
For each ($e; ${ORDERED})
  $employer:=$e.employer
  $seen.push($employer.name)
  $employer.name:="changed"
End for each
return [$seen; $employer.name; ds.Company.get(1).name]`
    expect(runFor(store(), code, { steps })).toEqual([
      ['Acme', 'Acme', 'Globex'],
      'changed',
      'Acme',
    ])
  })

  test('a recursive call has its own: the caller’s entity is not moved by the callee’s read', () => {
    const methods = {
      names: `#DECLARE($ids : Collection) -> $r : Collection
var $employer : Object
$r:=[]
If ($ids.length>0)
  $employer:=ds.Employee.get($ids[0]).employer
  $r:=names($ids.slice(1))
  $r.unshift($employer.name)
End if`,
    }
    expect(runFor(store(), 'return names([1; 3; 2])', { methods, steps })).toEqual([
      'Acme',
      'Globex',
      'Acme',
    ])
  })

  test('a computed property that returns This: each employer read keeps its own', () => {
    const classes = {
      CompanyEntity: `
Class extends Entity

Function get me() : Object
  return This
`,
    }
    const code = `
var $e; $employer : Object
var $kept : Collection:=[]
For each ($e; ${ORDERED})
  $employer:=$e.employer
  $kept.push($employer.me)
End for each
return $kept.map(Formula($1.value.name))`
    expect(runFor(store(), code, { classes, steps })).toEqual(['Acme', 'Acme', 'Globex'])
  })
})
