// docs/Concepts/dt_string.md, dt_number.md, dt_boolean.md, dt_date.md, dt_time.md: each row of
// the operator tables and each documented example a check.
import { expr, page, steps, type Check } from './doc.fixture.js'

/** One check a table row: `[expression, value]`. */
const rows = (table: readonly (readonly [string, unknown])[]): Check[] =>
  table.map(([e, v]) => expr(e, v))

page('dt_string: operators', [
  rows([
    ['"abc" + "def"', 'abcdef'],
    ['"ab" * 3', 'ababab'],
    ['"abc" = "abc"', true],
    ['"abc" = "abd"', false],
    ['"abc" # "abd"', true],
    ['"abc" # "abc"', false],
    ['"abd" > "abc"', true],
    ['"abc" > "abc"', false],
    ['"abc" < "abd"', true],
    ['"abc" < "abc"', false],
    ['"abd" >= "abc"', true],
    ['"abc" >= "abd"', false],
    ['"abc" <= "abd"', true],
    ['"abd" <= "abc"', false],
    ['"Alpha Bravo" % "Bravo"', true],
    ['"Alpha Bravo" % "ravo"', false],
  ]),
])

page('dt_string: comparisons, wildcard, keywords', [
  rows([
    ['"a"="A"', true],
    ['Character code("A")=Character code("a")', false],
    ['"n"="ñ"', true],
    ['"n"="Ñ"', true],
    ['"A"="å"', true],
    ['"abcdefghij"="abc@"', true],
    ['"abc@"="abcdefghij"', false],
    ['"abcdefghij"="abcdefghij@"', true],
    ['"abcdefghij"="@abcdefghij"', true],
    ['"abcdefghij"="abcd@efghij"', true],
    ['"abcdefghij"="@abcdefghij@"', true],
    ['"abcdefghij"="@abcde@fghij@"', true],
    ['"abcdefghij"="abc@@fg"', false],
    ['"abcd"<="abc@"', true],
    ['"Alpha Bravo Charlie"%"Bravo"', true],
    ['"Alpha Bravo Charlie"%"vo"', false],
    ['"Alpha Bravo Charlie"%"Alpha Bravo"', false],
    ['"Alpha,Bravo,Charlie"%"Alpha"', true],
    ['"Software and Computers"%"comput@"', true],
  ]),
  {
    name: 'escape sequences \\n \\t \\r \\\\ \\"',
    code: 'return [Character code("\\n"); Character code("\\t"); Character code("\\r"); "\\\\"; "\\""]',
    expected: [10, 9, 13, '\\', '"'],
  },
  steps('the last character is "@"', '$vsValue:="mail@"', [
    ['', '$vsValue[[Length($vsValue)]]="@"', true],
    ['', 'Character code($vsValue[[Length($vsValue)]])#64', false],
    ['$vsValue:="mail"', '$vsValue[[Length($vsValue)]]="@"', true],
    ['', 'Character code($vsValue[[Length($vsValue)]])#64', true],
  ]),
  steps('character reference symbols', '$vsName:="jane"', [
    ['$vsName[[1]]:=Uppercase($vsName[[1]])', '$vsName', 'Jane'],
    ['', '$vsName[[4]]', 'e'],
  ]),
  {
    name: 'Capitalize_text',
    code: 'return Capitalize_text("hello, my name is jane doe and i\'m running for president!")',
    options: {
      methods: {
        Capitalize_text: `$0:=$1
$vlLen:=Length($0)
If($vlLen>0)
  $0[[1]]:=Uppercase($0[[1]])
  For($vlChar;1;$vlLen-1)
    If(Position($0[[$vlChar]];" !&()-{}:;<>?/,.=+*")>0)
      $0[[$vlChar+1]]:=Uppercase($0[[$vlChar+1]])
    End if
  End for
End if`,
      },
    },
    expected: "Hello, My Name Is Jane Doe And I'm Running For President!",
  },
])

page('dt_number: operators, modulo, integer division, precedence, bits', [
  rows([
    ['2 + 3', 5],
    ['3 - 2', 1],
    ['5 * 2', 10],
    ['5 / 2', 2.5],
    ['5 \\ 2', 2],
    ['5 % 2', 1],
    ['2 ^ 3', 8],
    ['10 = 10', true],
    ['10 = 11', false],
    ['10 #11', true],
    ['10 # 10', false],
    ['11 > 10', true],
    ['10 > 11', false],
    ['10 < 11', true],
    ['11 < 10', false],
    ['11 >= 10', true],
    ['10 >= 11', false],
    ['10 <= 11', true],
    ['11 <= 10', false],
    ['10 % 2', 0],
    ['10 % 3', 1],
    ['10.5 % 2', 0],
    ['7 \\ 2 = Int(7/2)', true],
    ['3+4*5', 35],
    ['3+(4*5)', 23],
    ['0x0000FFFF & 0xFF00FF00', 0x0000ff00],
    ['0x0000FFFF | 0xFF00FF00', 0xff00ffff | 0],
    ['0x0000FFFF ^| 0xFF00FF00', 0xff0000ff | 0],
    ['0x0000FFFF << 8', 0x00ffff00],
    ['0x0000FFFF >> 8', 0x000000ff],
    ['0x00000000 ?+ 16', 0x00010000],
    ['0x00010000 ?- 16', 0],
    ['0x00010000 ?? 16', true],
    ['-27 + 27', 0],
    ['0.0076 * 1000', 7.6],
  ]),
  // `/` by zero gives INF, `\` and `%` by zero raise (compat.md).
  { name: 'String(1/0) is "INF"', code: 'return String(1/0)', expected: 'INF' },
  { name: '5 \\ 0 is an error', code: 'return 5 \\ 0', error: { errCode: 9400 } },
  { name: '5 % 0 is an error', code: 'return 5 % 0', error: { errCode: 9400 } },
])

page('dt_boolean: logical operators and functions', [
  rows([
    ['("A" = "A") & (15 # 3)', true],
    ['("A" = "B") & (15 # 3)', false],
    ['("A" = "B") & (15 = 3)', false],
    ['("A" = "A") | (15 # 3)', true],
    ['("A" = "B") | (15 # 3)', true],
    ['("A" = "B") | (15 = 3)', false],
    ['True & False', false],
    ['True | False', true],
    ['Not(True)', false],
    ['(True|False) & Not(True & False)', true],
    ['(True|True) & Not(True & True)', false],
  ]),
  steps('myBoolean:=(myButton=1)', '$myButton:=1', [
    ['$myBoolean:=($myButton=1)', '$myBoolean', true],
    ['$myButton:=0\n$myBoolean:=($myButton=1)', '$myBoolean', false],
  ]),
])

page('dt_date: literals and operators', [
  rows([
    ['!2017-01-20! - !2017-01-01!', 19],
    ['!2017-01-20! + 9', '2017-01-29'],
    ['!2017-01-20! - 9', '2017-01-11'],
    ['!2017-01-01! =!2017-01-01!', true],
    ['!2017-01-20! = !2017-01-01!', false],
    ['!2017-01-20! # !2017-01-01!', true],
    ['!2017-01-20! # !2017-01-20!', false],
    ['!2017-01-20! > !2017-01-01!', true],
    ['!2017-01-20! > !2017-01-20!', false],
    ['!2017-01-01! < !2017-01-20!', true],
    ['!2017-01-20! < !2017-01-20!', false],
    ['!2017-01-20! >=!2017-01-01!', true],
    ['!2017-01-01!>=!2017-01-20!', false],
    ['!2017-01-01! <= !2017-01-20!', true],
    ['!2017-01-20! <= !2017-01-01!', false],
    ['!1976-01-01!', '1976-01-01'],
    ['!00-00-00!', '0000-00-00'],
    ['!12/04/98!', '1998-12-04'],
    ['!12/04/20!', '2020-12-04'],
    ['!2018/01/21!', '2018-01-21'],
    ['Date("2013-08-23T00:00:00Z")=!2013-08-23!', true],
    ['JSON Parse("\\"2013-08-23\\"";Is date)', '2013-08-23'],
  ]),
])

page('dt_time: literals and operators', [
  rows([
    ['?02:03:04? + ?01:02:03?', '03:05:07'],
    ['?02:03:04? - ?01:02:03?', '01:01:01'],
    ['?02:03:04? + 65', 7449],
    ['?02:03:04? - 65', 7319],
    ['?02:03:04? * 2', 14768],
    ['?02:03:04? / 2', 3692],
    ['?02:03:04? \\ 2', 3692],
    ['?20:10:00? % ?04:20:00?', '02:50:00'],
    ['?02:03:04? % 2', 0],
    ['?01:02:03? = ?01:02:03?', true],
    ['?01:02:03? = ?01:02:04?', false],
    ['?01:02:03? # ?01:02:04?', true],
    ['?01:02:03? # ?01:02:03?', false],
    ['?01:02:04? > ?01:02:03?', true],
    ['?01:02:03? > ?01:02:03?', false],
    ['?01:02:03? < ?01:02:04?', true],
    ['?01:02:03? < ?01:02:03?', false],
    ['?01:02:03? >=?01:02:03?', true],
    ['?01:02:03? >=?01:02:04?', false],
    ['?01:02:03? <=?01:02:03?', true],
    ['?01:02:04? <=?01:02:03?', false],
    ['?13:01:59?+0', 46919],
    ['?00:00:00?', '00:00:00'],
  ]),
  steps('24-hour arithmetic', '$t1:=?23:00:00?', [
    ['$t2:=$t1 +?02:30:00?', '$t2', '25:30:00'],
    ['$t2:=($t1 +?02:30:00?)%?24:00:00?', '$t2', '01:30:00'],
  ]),
])
