import { describe, expect, test } from 'vitest'
import { DatastoreError } from '../errors/datastore-error.js'
import {
  Ast,
  type ComparisonOp,
  type FilterNode,
  type LiteralNode,
  type OrderByItemNode,
  type ValueNode,
} from './ast.js'
import { parseOrderBy, parseQuery } from './parse-filter.js'

// ---- AST shorthands: `path('children[].age')`, `cmp('a', 'eq', num(1))` ----

const path = (text: string) =>
  Ast.path(
    text.split('.').map((segment) => {
      const m = /^(.+)\[([a-z]?)\]$/.exec(segment)
      return m ? { name: m[1]!, collection: { letter: m[2] || null } } : { name: segment }
    }),
  )
const str = (value: string): LiteralNode => Ast.literal({ type: 'string', value })
const num = (value: number): LiteralNode => Ast.literal({ type: 'number', value })
const bool = (value: boolean): LiteralNode => Ast.literal({ type: 'boolean', value })
const date = (value: string): LiteralNode => Ast.literal({ type: 'date', value })
const NULL = Ast.literal({ type: 'null', value: null })
const ph = (ref: number | string) => Ast.placeholder(ref)
const cmp = (p: string, op: ComparisonOp, value: ValueNode) => Ast.comparison(path(p), op, value)
const and = (...operands: FilterNode[]) => Ast.logical('And', operands)
const or = (...operands: FilterNode[]) => Ast.logical('Or', operands)
const except = (...operands: FilterNode[]) => Ast.logical('Except', operands)
const not = (operand: FilterNode) => Ast.not(operand)
const asc = (p: string): OrderByItemNode => Ast.orderByItem(path(p), 'asc')
const desc = (p: string): OrderByItemNode => Ast.orderByItem(path(p), 'desc')

const A = cmp('a', 'eq', num(1))
const B = cmp('b', 'eq', num(2))
const C = cmp('c', 'eq', num(3))
const D = cmp('d', 'eq', num(4))

/** The error thrown by `run`, which must be a DatastoreError. */
function caught(run: () => unknown): DatastoreError {
  try {
    run()
  } catch (e) {
    if (DatastoreError.is(e)) return e
    throw new Error(`expected a DatastoreError, got ${String(e)}`)
  }
  throw new Error('expected an error, but parsing succeeded')
}

describe('parseQuery accepts', () => {
  const docExamples: [string, FilterNode][] = [
    [
      "firstName!='' AND salary>30000",
      and(cmp('firstName', 'ne', str('')), cmp('salary', 'gt', num(30000))),
    ],
    ['lastName begin j', cmp('lastName', 'begin', str('j'))],
    [
      'salary>20000 AND  \n employer.name!=acme',
      and(cmp('salary', 'gt', num(20000)), cmp('employer.name', 'ne', str('acme'))),
    ],
    ['name=a*', cmp('name', 'eq', str('a*'))],
    ["lastName='A@'", cmp('lastName', 'eq', str('A@'))],
    ['lastname=b@', cmp('lastname', 'eq', str('b@'))],
    ['ID>=4', cmp('ID', 'ge', num(4))],
    ['ID<=3', cmp('ID', 'le', num(3))],
    [
      'employer.name=acme AND lastName=Jones',
      and(cmp('employer.name', 'eq', str('acme')), cmp('lastName', 'eq', str('Jones'))),
    ],
    ['objAttribute.prop2 == 9181', cmp('objAttribute.prop2', 'eq', num(9181))],
    ['anotherobj.mynum > 50', cmp('anotherobj.mynum', 'gt', num(50))],
    ['firstName in :1', cmp('firstName', 'in', ph(1))],
    ['not (firstName in :1)', not(cmp('firstName', 'in', ph(1)))],
    ['not(firstName=Kim)', not(cmp('firstName', 'eq', str('Kim')))],
    [
      '(firstName = :1 or firstName = :2) and (lastName = :3 or lastName = :4)',
      and(
        or(cmp('firstName', 'eq', ph(1)), cmp('firstName', 'eq', ph(2))),
        or(cmp('lastName', 'eq', ph(3)), cmp('lastName', 'eq', ph(4))),
      ),
    ],
    ["firstName = 'S@'", cmp('firstName', 'eq', str('S@'))],
    ['birthDate > :1', cmp('birthDate', 'gt', ph(1))],
    ['extraInfo.hobbies[].name = :1', cmp('extraInfo.hobbies[].name', 'eq', ph(1))],
    [
      'places.locations[a].kind= :1 and places.locations[a].city= :2',
      and(
        cmp('places.locations[a].kind', 'eq', ph(1)),
        cmp('places.locations[a].city', 'eq', ph(2)),
      ),
    ],
    [
      'info.married#true | info.married=null',
      or(cmp('info.married', 'ne', bool(true)), cmp('info.married', 'eq', NULL)),
    ],
    ["lastName=O'Reilly", cmp('lastName', 'eq', str("O'Reilly"))],
    ["lastName!=''", cmp('lastName', 'ne', str(''))],
    ['salary!=0', cmp('salary', 'ne', num(0))],
    [
      "employee.name = 'smith' AND employee.firstname = 'john'",
      and(cmp('employee.name', 'eq', str('smith')), cmp('employee.firstname', 'eq', str('john'))),
    ],
  ]
  test.each(docExamples)('doc example %j', (text, filter) => {
    expect(parseQuery(text)).toEqual(Ast.query(filter, []))
  })

  const operators: [string, ComparisonOp][] = [
    ['=', 'eq'],
    ['==', 'eq'],
    ['===', 'strictEq'],
    ['IS', 'strictEq'],
    ['is', 'strictEq'],
    ['Is', 'strictEq'],
    ['!=', 'ne'],
    ['#', 'ne'],
    ['!==', 'strictNe'],
    ['IS NOT', 'strictNe'],
    ['is  not', 'strictNe'],
    ['Is\tNot', 'strictNe'],
    ['<', 'lt'],
    ['>', 'gt'],
    ['<=', 'le'],
    ['>=', 'ge'],
    ['begin', 'begin'],
    ['BEGIN', 'begin'],
    ['Begin', 'begin'],
    ['%', 'contains'],
  ]
  test.each(operators)('operator %j with and without spaces', (spelling, op) => {
    expect(parseQuery(`x ${spelling} 5`).filter).toEqual(cmp('x', op, num(5)))
    if (/^[^a-z]/i.test(spelling))
      expect(parseQuery(`x${spelling}5`).filter).toEqual(cmp('x', op, num(5)))
  })

  test.each(['IN', 'in', 'In', 'iN'])('IN spelled %j, with a list or a placeholder', (spelling) => {
    expect(parseQuery(`x ${spelling} [1, 'b', :2, c, 2020-01-02]`).filter).toEqual(
      cmp('x', 'in', Ast.list([num(1), str('b'), ph(2), str('c'), date('2020-01-02')])),
    )
    expect(parseQuery(`x ${spelling}[1,2]`).filter).toEqual(
      cmp('x', 'in', Ast.list([num(1), num(2)])),
    )
    expect(parseQuery(`x ${spelling} [ ]`).filter).toEqual(cmp('x', 'in', Ast.list([])))
    expect(parseQuery(`x ${spelling} :values`).filter).toEqual(cmp('x', 'in', ph('values')))
  })

  test('IS NOT needs NOT as a whole word: `IS nothing` compares with "nothing"', () => {
    expect(parseQuery('x IS nothing').filter).toEqual(cmp('x', 'strictEq', str('nothing')))
    expect(parseQuery('x IS NOT null').filter).toEqual(cmp('x', 'strictNe', NULL))
  })

  const logical: [string, FilterNode][] = [
    ['a=1 AND b=2', and(A, B)],
    ['a=1 and b=2', and(A, B)],
    ['a=1 And b=2', and(A, B)],
    ['a=1 & b=2', and(A, B)],
    ['a=1&b=2', and(A, B)],
    ['a=1 && b=2', and(A, B)],
    ['a=1&&b=2', and(A, B)],
    ['a=1 OR b=2', or(A, B)],
    ['a=1 or b=2', or(A, B)],
    ['a=1 | b=2', or(A, B)],
    ['a=1|b=2', or(A, B)],
    ['a=1 || b=2', or(A, B)],
    ['a=1||b=2', or(A, B)],
    ['a=1 EXCEPT b=2', except(A, B)],
    ['a=1 except b=2', except(A, B)],
    ["a='x'and b=2", and(cmp('a', 'eq', str('x')), B)],
    // Precedence: NOT > AND > OR = EXCEPT, left to right.
    ['a=1 OR b=2 AND c=3', or(A, and(B, C))],
    ['a=1 AND b=2 OR c=3', or(and(A, B), C)],
    ['(a=1 OR b=2) AND c=3', and(or(A, B), C)],
    ['a=1 OR b=2 EXCEPT c=3', except(or(A, B), C)],
    ['a=1 EXCEPT b=2 OR c=3', or(except(A, B), C)],
    ['a=1 EXCEPT b=2 EXCEPT c=3', except(A, B, C)],
    ['a=1 EXCEPT (b=2 EXCEPT c=3)', except(A, except(B, C))],
    ['a=1 AND b=2 AND c=3 AND d=4', and(A, B, C, D)],
    ['a=1 AND (b=2 AND c=3)', and(A, B, C)],
    ['a=1 OR b=2 OR c=3', or(A, B, C)],
    ['a=1 & b=2 | c=3 & d=4', or(and(A, B), and(C, D))],
    ['NOT a=1 AND b=2', and(not(A), B)],
    ['NOT (a=1 AND b=2)', not(and(A, B))],
    ['not(a=1)', not(A)],
    ['NOT(a=1) OR b=2', or(not(A), B)],
    ['not not (a=1)', not(not(A))],
    ['NOT ((a=1))', not(A)],
    ['((((a=1))))', A],
    [' ( a=1 )\n\tAND\r\n( b=2 ) ', and(A, B)],
  ]
  test.each(logical)('logical %j', (text, filter) => {
    expect(parseQuery(text).filter).toEqual(filter)
  })

  test('keywords can still be attribute names', () => {
    expect(parseQuery('not = 1').filter).toEqual(cmp('not', 'eq', num(1)))
    expect(parseQuery('not in :1').filter).toEqual(cmp('not', 'in', ph(1)))
    expect(parseQuery('order = 1 and and = 2').filter).toEqual(
      and(cmp('order', 'eq', num(1)), cmp('and', 'eq', num(2))),
    )
    expect(parseQuery('notes = x').filter).toEqual(cmp('notes', 'eq', str('x')))
  })

  const values: [string, ValueNode][] = [
    ["'hello world'", str('hello world')],
    ['"hello world"', str('hello world')],
    ["''", str('')],
    ['""', str('')],
    ["'it\\'s'", str("it's")],
    ['"say \\"hi\\""', str('say "hi"')],
    ["'back\\\\slash'", str('back\\slash')],
    ["'O\\u0027Reilly'", str("O'Reilly")],
    ["'\\u0022quoted\\u0022'", str('"quoted"')],
    ['"\\u00e9t\\u00C9"', str('étÉ')],
    ['\'a "double" inside\'', str('a "double" inside')],
    ['"a \'single\' inside"', str("a 'single' inside")],
    ["'AND ( ) & | order by'", str('AND ( ) & | order by')],
    ["'line\nbreak'", str('line\nbreak')],
    ['O\\u0027Reilly', str("O'Reilly")],
    // A value opened by an escaped quote is a string that the same escape closes (clients that
    // wrap $filter in double quotes write the quotes inside as escapes).
    ['\\u0022Acme@\\u0022', str('Acme@')],
    ['\\u0027Acme@\\u0027', str('Acme@')],
    ['\\u0022hello world\\u0022', str('hello world')],
    ['\\u0022\\u0022', str('')],
    ["\\u0022O'Brien Orchard\\u0022", str("O'Brien Orchard")],
    ['\\u0027say "hi"\\u0027', str('say "hi"')],
    ['\\u0022a \\u0027b\\u0027\\u0022', str("a 'b'")],
    ['\\u0022back\\\\slash \\u00e9\\u0022', str('back\\slash é')],
    ['\\u0022AND ( ) & | order by\\u0022', str('AND ( ) & | order by')],
    ['C:\\dir', str('C:\\dir')],
    ['@smith@', str('@smith@')],
    ['a*', str('a*')],
    ['x,y[z]', str('x,y[z]')],
    ['-', str('-')],
    ['3abc', str('3abc')],
    ['1.', str('1.')],
    ['+3', str('+3')],
    ['1e', str('1e')],
    ['True', str('True')],
    ['FALSE', str('FALSE')],
    ['trueish', str('trueish')],
    ['nullable', str('nullable')],
    ['2020-13-01', str('2020-13-01')],
    ['2020-01-32', str('2020-01-32')],
    ['2020-01-01T10:00:00Z', str('2020-01-01T10:00:00Z')],
    ['é', str('é')],
    ['20000', num(20000)],
    ['0', num(0)],
    ['-0', num(-0)],
    ['007', num(7)],
    ['-3.5', num(-3.5)],
    ['1e3', num(1000)],
    ['1E3', num(1000)],
    ['2.5e-3', num(0.0025)],
    ['1e+21', num(1e21)],
    ['true', bool(true)],
    ['false', bool(false)],
    ['null', NULL],
    ['NULL', NULL],
    ['Null', NULL],
    ['2024-02-29', date('2024-02-29')],
    ['1999-12-31', date('1999-12-31')],
    // As REST replies write a day, and as 4D writes a date constant.
    ['!!2024-02-29!!', date('2024-02-29')],
    ['!1999-12-31!', date('1999-12-31')],
    [':1', ph(1)],
    [':12', ph(12)],
    [':name', ph('name')],
    [':_x$1', ph('_x$1')],
  ]
  test.each(values)('value %j', (text, value) => {
    expect(parseQuery(`x = ${text}`).filter).toEqual(cmp('x', 'eq', value))
  })

  test('-0 keeps its sign', () => {
    const f = parseQuery('x = -0').filter
    expect(
      f?.kind === 'Comparison' && f.value.kind === 'Literal' && Object.is(f.value.value, -0),
    ).toBe(true)
  })

  test('a value ends at ")", "&" and "|", which are never part of an unquoted string', () => {
    expect(parseQuery('(x=abc)').filter).toEqual(cmp('x', 'eq', str('abc')))
    expect(parseQuery('name=a&b=2').filter).toEqual(
      and(cmp('name', 'eq', str('a')), cmp('b', 'eq', num(2))),
    )
    expect(parseQuery('name=a|b=2').filter).toEqual(
      or(cmp('name', 'eq', str('a')), cmp('b', 'eq', num(2))),
    )
    expect(parseQuery('x=1&&y=2020-01-01').filter).toEqual(
      and(cmp('x', 'eq', num(1)), cmp('y', 'eq', date('2020-01-01'))),
    )
  })

  const paths = [
    'firstName',
    'employer.name',
    'extra.address.city',
    'children[].age',
    'places.locations[a].kind',
    'tags[]',
    'a.b[z].c[].d',
    '_private',
    '$special',
    'x1',
    'Ünïcödé.名前',
  ]
  test.each(paths)('attribute path %j', (p) => {
    expect(parseQuery(`${p} = 1`).filter).toEqual(cmp(p, 'eq', num(1)))
  })

  test('collection segments', () => {
    expect(parseQuery('a[].b[q] = 1').filter).toEqual(
      Ast.comparison(
        Ast.path([
          { name: 'a', collection: { letter: null } },
          { name: 'b', collection: { letter: 'q' } },
        ]),
        'eq',
        num(1),
      ),
    )
  })

  const orderBy: [string, FilterNode | null, OrderByItemNode[]][] = [
    [
      'nationality = :1 order by campus.name desc, lastname',
      cmp('nationality', 'eq', ph(1)),
      [desc('campus.name'), asc('lastname')],
    ],
    ['a=1 ORDER BY b ASC', A, [asc('b')]],
    ['a=1 Order  \n By b Desc,c asc ,d', A, [desc('b'), asc('c'), asc('d')]],
    ["a='x'order by b", cmp('a', 'eq', str('x')), [asc('b')]],
    ['order by b', null, [asc('b')]],
    ['  order by desc desc, asc  ', null, [desc('desc'), asc('asc')]],
    ['a=x order by children[].age', cmp('a', 'eq', str('x')), [asc('children[].age')]],
  ]
  test.each(orderBy)('order by: %j', (text, filter, items) => {
    expect(parseQuery(text)).toEqual(Ast.query(filter, items))
  })

  test.each(['', ' ', ' \t\r\n '])('empty query %j', (text) => {
    expect(parseQuery(text)).toEqual(Ast.query(null, []))
  })

  test('nodes are frozen', () => {
    const q = parseQuery('a = 1 AND b IN [1] order by c')
    expect(Object.isFrozen(q)).toBe(true)
    expect(Object.isFrozen(q.filter)).toBe(true)
    expect(Object.isFrozen(q.orderBy)).toBe(true)
  })

  test('256 levels of parentheses are fine', () => {
    const text = `${'('.repeat(256)}a=1${')'.repeat(256)}`
    expect(parseQuery(text).filter).toEqual(A)
  })
})

describe('parseQuery rejects', () => {
  interface Reject {
    readonly text: string
    readonly error: 'FilterSyntax' | 'UnclosedSingleQuote' | 'UnclosedDoubleQuote'
    readonly offset: number
    readonly message: string
    readonly expected?: readonly string[]
  }
  const rejects: Reject[] = [
    {
      text: 'name = ',
      error: 'FilterSyntax',
      offset: 7,
      message: 'Filter syntax error: Expected value but end of input found at line 1, column 8',
      expected: ['value'],
    },
    {
      text: "name eq 'x' and age gx 3",
      error: 'FilterSyntax',
      offset: 5,
      message:
        'Filter syntax error: Expected comparison operator but "e" found at line 1, column 6',
      expected: ['comparison operator'],
    },
    {
      text: "name = 'x' and age gx 3",
      error: 'FilterSyntax',
      offset: 19,
      message:
        'Filter syntax error: Expected comparison operator but "g" found at line 1, column 20',
    },
    {
      // A day that does not exist, or a date form's marks unmatched, is no date.
      text: 'd = !!2020-13-01!!',
      error: 'FilterSyntax',
      offset: 4,
      message: 'Expected value but "!" found',
    },
    {
      text: 'd = !!2020-01-15!',
      error: 'FilterSyntax',
      offset: 4,
      message: 'Expected value but "!" found',
    },
    {
      text: 'a ~ 1',
      error: 'FilterSyntax',
      offset: 2,
      message: 'Expected comparison operator but "~" found',
    },
    {
      text: 'a <> 1',
      error: 'FilterSyntax',
      offset: 3,
      message: 'Expected value but ">" found',
    },
    {
      text: "lastName = 'abc",
      error: 'UnclosedSingleQuote',
      offset: 11,
      message: 'Expecting a closing single quote in $filter',
    },
    {
      text: "a = 'x\\'",
      error: 'UnclosedSingleQuote',
      offset: 4,
      message: 'Expecting a closing single quote in $filter',
    },
    {
      text: 'a IN [1, "x',
      error: 'UnclosedDoubleQuote',
      offset: 9,
      message: 'Expecting a closing double quote in $filter',
    },
    {
      text: 'lastName = "abc\\',
      error: 'UnclosedDoubleQuote',
      offset: 11,
      message: 'Expecting a closing double quote in $filter',
    },
    {
      text: 'name = \\u0022Acme',
      error: 'UnclosedDoubleQuote',
      offset: 7,
      message: 'Expecting a closing double quote in $filter',
    },
    {
      text: 'name = \\u0027Acme\\u0022',
      error: 'UnclosedSingleQuote',
      offset: 7,
      message: 'Expecting a closing single quote in $filter',
    },
    {
      text: '(a=1',
      error: 'FilterSyntax',
      offset: 4,
      message: 'Expected ")" or logical operator but end of input found at line 1, column 5',
      expected: ['")"', 'logical operator'],
    },
    {
      text: 'a=1)',
      error: 'FilterSyntax',
      offset: 3,
      message: 'Expected logical operator, order by, or end of input but ")" found',
    },
    {
      text: '((a=1) AND (b=2)',
      error: 'FilterSyntax',
      offset: 16,
      message: 'Expected ")" or logical operator but end of input found',
    },
    {
      text: '()',
      error: 'FilterSyntax',
      offset: 1,
      message: 'Expected "(", NOT, attribute path, or placeholder but ")" found',
    },
    {
      text: 'a=1 b=2',
      error: 'FilterSyntax',
      offset: 4,
      message:
        'Expected logical operator, order by, or end of input but "b" found at line 1, column 5',
      expected: ['logical operator', 'order by', 'end of input'],
    },
    {
      text: 'a=1 AND',
      error: 'FilterSyntax',
      offset: 7,
      message: 'Expected "(", NOT, attribute path, or placeholder but end of input found',
    },
    {
      text: 'x = :0',
      error: 'FilterSyntax',
      offset: 4,
      message: 'Placeholder indexes run from :1 up; :0 is not valid at line 1, column 5',
      expected: [],
    },
    {
      text: 'x = :1abc',
      error: 'FilterSyntax',
      offset: 4,
      message: 'Expected value but ":" found',
    },
    {
      text: 'x IN 3',
      error: 'FilterSyntax',
      offset: 5,
      message: 'Expected "[" or placeholder but "3" found',
    },
    {
      text: 'x IN [1, 2',
      error: 'FilterSyntax',
      offset: 10,
      message: 'Expected "," or "]" but end of input found',
    },
    {
      text: "x = 'a\\qb'",
      error: 'FilterSyntax',
      offset: 7,
      message: 'Invalid escape sequence \\q',
    },
    {
      text: 'x = 1e999',
      error: 'FilterSyntax',
      offset: 4,
      message: 'The number 1e999 is out of range',
    },
    {
      text: 'a[A] = 1',
      error: 'FilterSyntax',
      offset: 1,
      message: 'Expected comparison operator but "[" found',
    },
    {
      text: 'a = 1 order by',
      error: 'FilterSyntax',
      offset: 14,
      message: 'Expected attribute path but end of input found',
    },
    {
      text: 'a = 1 order by b up',
      error: 'FilterSyntax',
      offset: 17,
      message: 'Expected ",", ASC or DESC, or end of input but "u" found',
    },
    {
      text: `${'('.repeat(257)}a=1${')'.repeat(257)}`,
      error: 'FilterSyntax',
      offset: 257,
      message: 'nested more than 256 levels deep',
    },
    {
      text: `${'not '.repeat(300)}a=1`,
      error: 'FilterSyntax',
      offset: 1028,
      message: 'nested more than 256 levels deep',
    },
  ]
  test.each(rejects)('$text', ({ text, error, offset, message, expected }) => {
    const e = caught(() => parseQuery(text))
    expect(e.name).toBe(error)
    expect(e.errCode).toBe(
      { FilterSyntax: 9001, UnclosedSingleQuote: 1808, UnclosedDoubleQuote: 1809 }[error],
    )
    expect(e.message).toContain(message)
    expect(e.details).toMatchObject({ offset, line: 1, column: offset + 1 })
    if (expected) expect(e.details?.expected).toEqual(expected)
  })

  test('details carry line, column, found and a caret excerpt', () => {
    const e = caught(() => parseQuery("name = 'x'\n  AND age gx 3"))
    expect(e.details).toEqual({
      offset: 21,
      line: 2,
      column: 11,
      expected: ['comparison operator'],
      found: 'g',
      excerpt: '  AND age gx 3\n          ^',
    })
    expect(e.message).toBe(
      'Filter syntax error: Expected comparison operator but "g" found at line 2, column 11',
    )
  })

  test('found is null at the end of input, and long lines are cut around the error', () => {
    const e = caught(() => parseQuery(`${'a=1 AND '.repeat(20)}b`))
    expect(e.details?.['found']).toBeNull()
    const [line, caret] = String(e.details?.['excerpt']).split('\n')
    expect(line!.startsWith('…')).toBe(true)
    // The caret points one past the last character: that is where the input ended.
    expect(caret).toBe(`${' '.repeat(line!.length)}^`)
  })

  test('the source name appears in unclosed-quote messages', () => {
    expect(caught(() => parseQuery("a='x", 'query()')).message).toBe(
      'Expecting a closing single quote in query()',
    )
  })

  test('a non-string is a FilterSyntax error, not a TypeError', () => {
    expect(caught(() => parseQuery(42 as unknown as string)).name).toBe('FilterSyntax')
  })

  test('very deep nesting never overflows the stack', () => {
    for (const text of ['('.repeat(100_000), `${'NOT ('.repeat(50_000)}a=1`, '['.repeat(10_000)]) {
      expect(caught(() => parseQuery(text)).name).toBe('FilterSyntax')
    }
  })
})

describe('parseOrderBy', () => {
  const accepts: [string, OrderByItemNode[]][] = [
    ['lastName', [asc('lastName')]],
    ['lastName desc, firstName asc', [desc('lastName'), asc('firstName')]],
    ['salary DESC,lastName ASC,firstName ASC', [desc('salary'), asc('lastName'), asc('firstName')]],
    ['lastName asc, department.name desc', [asc('lastName'), desc('department.name')]],
    ['  a Desc ,  b dEsC , c  ', [desc('a'), desc('b'), asc('c')]],
    ['children[].age', [asc('children[].age')]],
  ]
  test.each(accepts)('%j', (text, items) => {
    expect(parseOrderBy(text)).toEqual(items)
  })

  const rejects: [string, number, string][] = [
    ['', 0, 'Expected attribute path but end of input found at line 1, column 1'],
    ['   ', 3, 'Expected attribute path but end of input found'],
    [
      'lastName up',
      9,
      'Expected ",", ASC or DESC, or end of input but "u" found at line 1, column 10',
    ],
    ['lastName descending', 9, 'Expected ",", ASC or DESC, or end of input but "d" found'],
    ['a,', 2, 'Expected attribute path but end of input found'],
    ['a,,b', 2, 'Expected attribute path but "," found'],
    ["'a'", 0, 'Expected attribute path but "\'" found'],
  ]
  test.each(rejects)('rejects %j', (text, offset, message) => {
    const e = caught(() => parseOrderBy(text))
    expect(e.name).toBe('WrongOrderBy')
    expect(e.errCode).toBe(1810)
    expect(e.message.startsWith(`Wrong list of attributes to order by "${text}": Expected`)).toBe(
      true,
    )
    expect(e.message).toContain(message)
    expect(e.details).toMatchObject({ offset, line: 1, column: offset + 1 })
  })

  test('a text parsed again gives the kept items, frozen; a failure is refused every time', () => {
    const first = parseOrderBy('kept desc, other')
    expect(parseOrderBy('kept desc, other')).toBe(first)
    expect(Object.isFrozen(first)).toBe(true)
    expect(parseOrderBy('kept desc,other')).toEqual(first)
    for (let i = 0; i < 2; i++) expect(caught(() => parseOrderBy('kept up')).errCode).toBe(1810)
  })
})
