// The Date and Time commands (Current date and Current time on the injectable clock, Date, Time,
// Time string, Day of, Month of, Year of, Day number, Milliseconds), the String theme's text
// commands (Replace string, Substring, Position, Change string, Insert string, Delete string,
// Lowercase, Uppercase, Char, Character code, Length, Split string) and the Math theme's
// trigonometric, logarithmic and random functions (docs/commands/*.md).
import { ManualClock } from '@entistore/core'
import { afterAll, beforeAll } from 'vitest'
import { expr, page, type Check } from './doc.fixture.js'

let zone: string | undefined
beforeAll(() => {
  zone = process.env.TZ
  process.env.TZ = 'Europe/Paris'
})
afterAll(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

const rows = (table: readonly (readonly [string, unknown])[]): Check[] =>
  table.map(([e, v]) => expr(e, v))

// 2010-09-13 16:11:53 in Paris (14:11:53 GMT), a Monday.
const CLOCK = { runtime: { clock: new ManualClock(Date.UTC(2010, 8, 13, 14, 11, 53)) } }

page('Date and Time commands', [
  rows([
    ['Day of(!1992-12-25!)', 25],
    ['Month of(!1992-12-25!)', 12],
    ['Year of(!1992-12-25!)', 1992],
    ['Year of(!12/25/92!)', 1992],
    ['Year of(!1892-12-25!)', 1892],
    ['Year of(!2092-12-25!)', 2092],
    ['Day number(!2010-09-13!)', 2],
    ['Day number(!2010-09-12!)', 1],
    ['Day number(!2010-09-18!)', 7],
    ['Day number(!2010-09-13!)=Monday', true],
    ['Day number(!2010-09-19!)=Sunday', true],
    ['Month of(!2010-09-19!)=September', true],
    ['December', 12],
    ['Date("2023-09-08")', '2023-09-08'],
    ['Date("12/25/2003")', '2003-12-25'],
    ['Date("2010-09-13T16:11:53")', '2010-09-13'],
    ['Date(!2023-01-31!)', '2023-01-31'],
    ['Date("")', '0000-00-00'],
    ['Time("01:02:03")', '01:02:03'],
    ['Time(3661)', '01:01:01'],
    ['Time(?10:00:00?+3600)', '11:00:00'],
    ['Time string(3661)', '01:01:01'],
    ['Time string(?02:03:04?)', '02:03:04'],
    ['Time string(46800)', '13:00:00'],
    ['?01:00:00?+0', 3600],
    ['Add to date(!2023-01-31!;0;0;1)', '2023-02-01'],
    ['Add to date(!2023-03-01!;0;0;-1)', '2023-02-28'],
    ['Add to date(!2024-03-01!;0;0;-1)', '2024-02-29'],
    ['Add to date(!2023-12-31!;-1;0;0)', '2022-12-31'],
    ['!2023-03-01!-!2023-02-01!', 28],
    ['Day of(!2023-02-01!+27)', 28],
    ['Day of(!00-00-00!)', 0],
    ['Year of(!00-00-00!)', 0],
  ]),
  rows([
    ['Current date', '2010-09-13'],
    ['Current time', '16:11:53'],
    ['Day number(Current date)', 2],
    ['Year of(Current date)', 2010],
    ['Month of(Current date)', 9],
    ['Day of(Current date)', 13],
    ['Current date-!2010-01-01!', 255],
    ['Current time>?12:00:00?', true],
    ['Milliseconds-Milliseconds', 0],
    ['Current date(*)', '2010-09-13'],
    ['String(Current date;ISO date)', '2010-09-13T00:00:00'],
  ]).map((c) => ({ ...c, options: CLOCK })),
])

page(
  'Text commands: Replace string, Substring, Position, Change/Insert/Delete string, case, Char',
  [
    rows([
      ['Replace string("Willow";"ll";"d")', 'Widow'],
      ['Replace string("Shout at them";"at";"to")', 'Shout to them'],
      ['Replace string("aaa";"a";"b";2)', 'bba'],
      ['Replace string("Hello";"L";"x")', 'Hexxo'],
      ['Replace string("Hello";"L";"x";*)', 'Hello'],
      ['Replace string("Hello";"l";"x";*)', 'Hexxo'],
      ['Replace string("a-b-c";"-";"")', 'abc'],
      ['Replace string("abc";"";"x")', 'abc'],
      ['Substring("08/04/62";4;2)', '04'],
      ['Substring("Emergency";1;6)', 'Emerge'],
      ['Substring("Emergency";3)', 'ergency'],
      ['Substring("abc";5)', ''],
      ['Substring("abc";2;10)', 'bc'],
      ['Position("ll";"Willow")', 3],
      ['Position("day";"Today is the first day";1)', 3],
      ['Position("day";"Today is the first day";4)', 20],
      ['Position("DAY";"Today is the first day";1;*)', 0],
      ['Position("DAY";"Today is the first day")', 3],
      ['Position("x";"abc")', 0],
      ['Position("é";"cafe")', 4],
      ['Position("é";"cafe";*)', 0],
      ['Change string("Acme";"CME";2)', 'ACME'],
      ['Change string("November";"Dec";1)', 'December'],
      ['Insert string("The tree";" green";4)', 'The green tree'],
      ['Insert string("Shut";"o";3)', 'Shout'],
      ['Insert string("Indention";"";1)', 'Indention'],
      ['Delete string("Lamborghini";6;6)', 'Lambo'],
      ['Delete string("Indentation";6;2)', 'Indention'],
      ['Delete string("Lamborghini";1;100)', ''],
      ['Uppercase("hello")', 'HELLO'],
      ['Lowercase("HELLO")', 'hello'],
      ['Uppercase("hélène")', 'HELENE'],
      ['Uppercase("hélène";*)', 'HÉLÈNE'],
      ['Lowercase("DÉJÀ")', 'deja'],
      ['Lowercase("DÉJÀ";*)', 'déjà'],
      ['Char(65)', 'A'],
      ['Char(97)+Char(98)', 'ab'],
      ['Character code("A")', 65],
      ['Character code("a")', 97],
      ['Character code("ABC")', 65],
      ['Character code(Char(Carriage return))', 13],
      ['Char(Line feed)="\\n"', true],
      ['Length("Hello")', 5],
      ['Length("")', 0],
      ['"Hello"[[1]]', 'H'],
      [
        'Split string("John;Doe;120 jefferson st.;Riverside;; NY; 10001";";")',
        ['John', 'Doe', '120 jefferson st.', 'Riverside', '', ' NY', ' 10001'],
      ],
      [
        'Split string("John;Doe;120 jefferson st.;Riverside;; NY; 10001";";";sk ignore empty strings)',
        ['John', 'Doe', '120 jefferson st.', 'Riverside', ' NY', ' 10001'],
      ],
      [
        'Split string("John;Doe;120 jefferson st.;Riverside;; NY; 10001";";";sk ignore empty strings+sk trim spaces)',
        ['John', 'Doe', '120 jefferson st.', 'Riverside', 'NY', '10001'],
      ],
      ['Split string("abc";"")', ['a', 'b', 'c']],
      ['Split string("abc";",")', ['abc']],
      ['Split string("a, b ,c";",";sk trim spaces)', ['a', 'b', 'c']],
      ['Compare strings("a";"b")', -1],
      ['Compare strings("b";"a")', 1],
      ['Compare strings("a";"A")', 0],
      ['Compare strings("a";"A";sk char codes)', 1],
      ['Num("123.45")', 123.45],
      ['Num("abc")', 0],
      ['String(12)+"px"', '12px'],
    ]),
  ],
)

page('Math: trigonometry, logarithms, Random', [
  rows([
    ['Sin(0)', 0],
    ['Cos(0)', 1],
    ['Tan(0)', 0],
    ['Arctan(0)', 0],
    ['Exp(0)', 1],
    ['Log(1)', 0],
    ['Square root(16)', 4],
    ['Abs(-5)', 5],
    ['Int(7.9)', 7],
    ['Int(-7.1)', -8],
    ['Dec(-7.25)', 0.75],
    ['Round(2.5;0)', 3],
    ['Round(-2.5;0)', -3],
    ['Round(1234.5678;-2)', 1200],
    ['Trunc(3.999;2)', 3.99],
    ['Mod(10;3)', 1],
    ['10%3', 1],
    ['2^10', 1024],
    ['Random>=0', true],
    ['Random<=32767', true],
  ]),
  [
    ['Sin(Pi/2)', 1],
    ['Cos(Pi)', -1],
    ['Arctan(1)*4', Math.PI],
    ['Pi', Math.PI],
    ['Exp(1)', Math.E],
    ['Log(Exp(1))', 1],
    ['Log(10)', Math.LN10],
    ['Square root(2)', Math.SQRT2],
    ['Sin(30*Degree)', 0.5],
    ['Tan(Pi/4)', 1],
    ['Log(100)/Log(10)', 2],
    ['Dec(7.31)', 0.31],
  ].map(([e, v]): Check => ({ ...expr(e as string, v), digits: 9 })),
  {
    name: 'Random between vStart and vEnd: Random%(vEnd-vStart+1)+vStart',
    code: '$ok:=True\nFor($i;1;200)\n$r:=(Random%(20-10+1))+10\n$ok:=$ok & ($r>=10) & ($r<=20) & (Int($r)=$r)\nEnd for\nreturn $ok',
    expected: true,
  },
  {
    name: 'Random gives more than one value',
    code: '$c:=[]\nFor($i;1;50)\n$c.push(Random)\nEnd for\nreturn $c.distinct().length>1',
    expected: true,
  },
])
