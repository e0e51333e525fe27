// The String theme, with the examples of each command's page (docs/commands-legacy/*.md,
// docs/commands/string.md).
import { describe, expect, it } from 'vitest'
import { Collection } from '../values/collection.js'
import {
  budgetTests,
  errorOf,
  run,
  stepsTests,
  underBudget,
  type BudgetCase,
} from './run.fixture.js'

describe('Substring, Length, Char, Character code', () => {
  it('Substring("08/04/62";4;2) "04", ("Emergency";1;6) "Emerge", (var;2) all but the first', () => {
    expect(
      run(
        `return [Substring("08/04/62";4;2); Substring("Emergency";1;6); Substring("Hello";2); Substring("abc";9)]`,
      ),
    ).toEqual(['04', 'Emerge', 'ello', ''])
  })
  it('Character code("ABC") is 65; "A"="a" but their codes differ; Char(Tab)', () => {
    expect(
      run(
        `return [Character code("ABC"); "A"="a"; Character code("A")=Character code("a"); Char(Carriage return)=Char(13); Character code(Char(Tab))=Tab; Length("hello")]`,
      ),
    ).toEqual([65, true, false, true, true, 5])
  })
})

describe('Position', () => {
  it('("ll";"Willow") 3; ("day";…;1) 3; ("day";…;4) 20; ("DAY";…;1;*) 0', () => {
    expect(
      run(
        `return [Position("ll";"Willow"); Position("day";"Today is the first day";1); Position("day";"Today is the first day";4); Position("DAY";"Today is the first day";1;*); Position("day";"Today is the first day";1;*)]`,
      ),
    ).toEqual([3, 3, 20, 0, 3])
  })
  it('accents are ignored without *; @ is a character; "" is never found', () => {
    expect(
      run(
        `return [Position("e";"café"); Position("é";"cafe"); Position("a@";"xa@b"); Position("";""); Position("";"abc")]`,
      ),
    ).toEqual([4, 4, 2, 0, 0])
  })
  it('Position("œ";"Bœuf";1;$length): 2, $length 1; lengthFound 0 when not found', () => {
    expect(
      run(`var $length : Integer
$r:=[Position("œ";"Bœuf";1;$length); $length]
$r.push(Position("x";"Bœuf";1;$length); $length)
return $r`),
    ).toEqual([2, 1, 0, 0])
  })
  it('example 3: every "joel" replaced, $p moving by $lengthFound (options after it)', () => {
    expect(
      run(`var $lengthFound : Integer
$string:="Hello Joelle et joel!"
$find:="joel"
$replace:="Joël"
$option:=sk case insensitive+sk diacritic insensitive
$p:=0
Repeat
  $p:=Position($find;$string;$p+1;$lengthFound;$option)
  If($p>0)
    $string:=Substring($string;1;$p-1)+$replace+Substring($string;$p+$lengthFound)
  End if
Until($p<=0)
return $string`),
    ).toBe('Hello Joëlle et Joël!')
  })
  it('lengthFound with * and with sk whole word (32, a name the grammar does not know yet)', () => {
    expect(
      run(`$r:=[Position("DAY";"Today";1;$l;*); $l; Position("day";"Today";1;$l;*); $l]
$r.push(Position("where";"somewhere where";1;$l;32); $l)  // sk whole word
return $r`),
    ).toEqual([0, 0, 3, 3, 11, 5])
  })
  it('lengthFound that is not a variable: 9415 naming it, not a silent 0', () => {
    const { errCode, message } = errorOf(`return Position("œ";"Bœuf";1;5)`)
    expect(errCode).toBe(9415)
    expect(message).toContain('"lengthFound" parameter of Position')
  })
})

describe('Replace string, Change string, Insert string, Delete string', () => {
  it('Replace string: "Widow", "Shut", tabs to commas with *', () => {
    expect(
      run(
        `return [Replace string("Willow";"ll";"d"); Replace string("Shout";"o";""); Replace string("a"+Char(Tab)+"b";Char(Tab);",";*); Replace string("abc";"";"x")]`,
      ),
    ).toEqual(['Widow', 'Shut', 'a,b', 'abc'])
  })
  it('Replace string example 3: "Crème caramel", and unchanged with *', () => {
    expect(
      run(
        `return [Replace string("Crème brûlée";"Brulee";"caramel"); Replace string("Crème brûlée";"Brulee";"caramel";*)]`,
      ),
    ).toEqual(['Crème caramel', 'Crème brûlée'])
  })
  it('Replace string with howMany', () => {
    expect(run(`return Replace string("a-a-a-a";"a";"b";2)`)).toBe('b-b-a-a')
  })
  it('Change string: "ACME", "December"; where out of range leaves the text', () => {
    expect(
      run(
        `return [Change string("Acme";"CME";2); Change string("November";"Dec";1); Change string("abc";"x";0); Change string("abc";"xyz";3)]`,
      ),
    ).toEqual(['ACME', 'December', 'abc', 'abx'])
  })
  it('Insert string: "The green tree", "Shout", "Indentation"', () => {
    expect(
      run(
        `return [Insert string("The tree";" green";4); Insert string("Shut";"o";3); Insert string("Indention";"ta";6); Insert string("ab";"c";9); Insert string("ab";"c";-1)]`,
      ),
    ).toEqual(['The green tree', 'Shout', 'Indentation', 'abc', 'cab'])
  })
  it('Delete string: "Lambo", "Indention", the first two characters', () => {
    expect(
      run(
        `return [Delete string("Lamborghini";6;6); Delete string("Indentation";6;2); Delete string("abcdef";3;32000); Delete string("abc";5;1); Delete string("abc";1;0)]`,
      ),
    ).toEqual(['Lambo', 'Indention', 'ab', 'abc', 'abc'])
  })
})

describe('Uppercase, Lowercase', () => {
  it('Uppercase("hélène") "HELENE"; with * "HÉLÈNE"', () => {
    expect(
      run(
        `return [Uppercase("hélène"); Uppercase("hélène";*); Lowercase("HÉLÈNE"); Lowercase("HÉLÈNE";*)]`,
      ),
    ).toEqual(['HELENE', 'HÉLÈNE', 'helene', 'hélène'])
  })
})

describe('Split string', () => {
  it('example 1: plain, ignoring empty strings, and trimming spaces', () => {
    const vt = `$vt:="John;Doe;120 jefferson st.;Riverside;; NJ; 08075"\n`
    expect(run(`${vt}return Split string($vt;";")`)).toEqual([
      'John',
      'Doe',
      '120 jefferson st.',
      'Riverside',
      '',
      ' NJ',
      ' 08075',
    ])
    expect(run(`${vt}return Split string($vt;";";sk ignore empty strings)`)).toEqual([
      'John',
      'Doe',
      '120 jefferson st.',
      'Riverside',
      ' NJ',
      ' 08075',
    ])
    expect(run(`${vt}return Split string($vt;";";sk ignore empty strings+sk trim spaces)`)).toEqual(
      ['John', 'Doe', '120 jefferson st.', 'Riverside', 'NJ', '08075'],
    )
  })
  it('an empty separator gives each character; no separator found gives the text', () => {
    expect(run(`return [Split string("abc";""); Split string("abc";",")]`)).toEqual([
      ['a', 'b', 'c'],
      ['abc'],
    ])
  })
})

describe('Trim, Trim start, Trim end (21)', () => {
  it('"     Hello World!    " trimmed at both ends, the start, the end', () => {
    expect(
      run(`$input:="     Hello World!    "
return [Trim:C1853($input); Trim start:C1854($input); Trim end:C1855($input)]`),
    ).toEqual(['Hello World!', 'Hello World!    ', '     Hello World!'])
  })
})

describe('Compare strings', () => {
  it('example 1: 1 by character codes, 0 ignoring capitals', () => {
    const s = `$string1:="alpha Bravo charlie Delta Echo Fox-Trot"
$string2:="Alpha Bravo Charlie Delta Echo Fox-Trot"
`
    expect(
      run(
        `${s}return [Compare strings($string1;$string2;sk char codes); Compare strings($string1;$string2;sk char codes+sk case insensitive)]`,
      ),
    ).toEqual([1, 0])
  })
  it('by default as < does: "ete" equals "été"; -1 and 1 otherwise', () => {
    expect(
      run(
        `return [Compare strings("ete";"été"); Compare strings("a";"B"); Compare strings("b";"A"); Compare strings("ete";"été";sk strict)]`,
      ),
    ).toEqual([0, -1, 1, -1])
  })
})

describe('Match regex', () => {
  it('two parameters: the whole text must match', () => {
    expect(
      run(
        `return [Match regex(".*smith.*";"John smith jr"); Match regex("smith";"John smith jr")]`,
      ),
    ).toEqual([true, false])
  })
  it('example 4: with * the match must begin at start', () => {
    expect(
      run(
        `return [Match regex("a.b";"---a-b---";1); Match regex("a.b";"---a-b---";1;*); Match regex("a.b";"---a-b---";4;*)]`,
      ),
    ).toEqual([true, false, true])
  })
  it('ICU flags (?i); a pattern that does not compile is an error', () => {
    expect(run(`return Match regex("(?i)ABC";"abc")`)).toBe(true)
    // Flags turned off after a `-`, as a public project writes them: multi-line on, the rest off.
    const pattern = String.raw`"(?m-si)^([^\\[]*)\\[(\\d*)]$"`
    expect(run(`return Match regex(${pattern}; "a" + Char(10) + "b[12]"; 1)`)).toBe(true)
    expect(run(`return Match regex("(?m-si)B"; "b"; 1)`)).toBe(false)
    expect(errorOf(`return Match regex("(";"abc")`).errCode).toBe(9415)
  })
  it('example 2: every tag, pos_found and length_found process variables', () => {
    expect(
      run(`$text:="a <b> c <i> d"
$tags:=[]
$start:=1
Repeat
  vfound:=Match regex("<[^>]*>";$text;$start;pos_found;length_found)
  If(vfound)
    $tags.push(Substring($text;pos_found;length_found))
    $start:=pos_found+length_found
  End if
Until(Not(vfound))
return $tags`),
    ).toEqual(['<b>', '<i>'])
  })
  it('example 4 with $pos_found and $length_found; 0 and 0 when nothing is found', () => {
    expect(
      run(`var $pos_found; $length_found : Integer
$r:=[Match regex("a.b";"---a-b---";1;$pos_found;$length_found); $pos_found; $length_found]
$r.push(Match regex("a.b";"---a-b---";1;$pos_found;$length_found;*); $pos_found; $length_found)
$r.push(Match regex("a.b";"---a-b---";4;$pos_found;$length_found;*); $pos_found; $length_found)
return $r`),
    ).toEqual([true, 4, 3, false, 0, 0, true, 4, 3])
  })
  it('pos_found without length_found, or a value for either: 9415 naming it', () => {
    expect(errorOf(`return Match regex("b";"abc";1;$p)`).message).toContain('"length_found"')
    expect(errorOf(`return Match regex("b";"abc";1;1;$l)`).message).toContain('"pos_found"')
  })
})

describe('Localized string, Num', () => {
  it('without XLIFF files, a resname stands for its text (both names of command 991)', () => {
    expect(run(`return [Localized string("Show on disk"); Get localized string("Hello")]`)).toEqual(
      ['Show on disk', 'Hello'],
    )
  })
  it('Num with a separator, and a base', () => {
    expect(run(`return [Num("33,333.33";"."); Num("ff";16); Num("A1B2C3")]`)).toEqual([
      33333.33, 255, 123,
    ])
  })
})

describe('the budget', () => {
  // 600,000 characters: more than 24,000 passes (5 stepping milliseconds), and more than six
  // pieces of 65,536 for what changes a text a piece at a time.
  const text = (n: number): string =>
    'Élodie a dit: «ça va» 42 fois. '.repeat(n / 30 + 1).slice(0, n)
  const CASES: BudgetCase[] = [
    ['Position', 'return Position("nowhere"; $1)'],
    [
      'Position sk whole word',
      'return Position("dit"; $1; 1; $l; sk whole word+sk case insensitive)',
    ],
    ['Replace string', 'return Length(Replace string($1; "É"; "e"))'],
    ['Uppercase', 'return Length(Uppercase($1))'],
    ['Uppercase *', 'return Length(Uppercase($1; *))'],
    ['Lowercase', 'return Length(Lowercase($1))'],
    ['Split string', 'return Split string($1; " ").length'],
    ['Split string, trimmed', 'return Split string($1; "a"; sk trim spaces).length'],
    ['Compare strings', 'return Compare strings($1; $1+"x")'],
    ['Compare strings sk char codes', 'return Compare strings($1; $1+"x"; sk char codes)'],
    ['Num', 'return Num($1)'],
  ]

  // 300,000 characters without a budget: the clock is read on the way, far from the deadline.
  const SIZES = {
    large: 600_000,
    small: 300_000,
    unit: 'characters',
    args: (n: number) => [text(n)],
  }
  budgetTests(CASES, SIZES)
  // Written as steps (values/work.ts): a call in slices stops inside them. Compare strings with
  // ICU's options is one native call (below), not steps.
  const STEPPED = [
    'Position',
    'Position sk whole word',
    'Replace string',
    'Uppercase',
    'Uppercase *',
    'Lowercase',
    'Split string',
    'Split string, trimmed',
    'Compare strings',
    'Compare strings sk char codes',
    'Num',
  ]
  stepsTests(
    CASES.filter(([name]) => STEPPED.includes(name)),
    SIZES,
  )

  it('Uppercase and Lowercase of a long text are those of the whole text', () => {
    const t = text(300_000)
    const MARKS = /\p{M}/gu
    const bare = t.normalize('NFD').replace(MARKS, '').normalize('NFC')
    expect(underBudget('return [Uppercase($1); Lowercase($1); Uppercase($1; *)]', [t])).toEqual({
      value: [bare.toUpperCase(), bare.toLowerCase(), t.toUpperCase()],
    })
  })

  it('Compare strings with ICU options counts the texts before: past the budget, it does not start', () => {
    // Each call counts 1,200,000 passes and reads the clock: the sixth reading is past 5 ms.
    const code =
      '$n:=0\nFor ($i; 1; 100)\n\t$n:=$n+Compare strings($1; $1; sk case insensitive)+1\n\t$2.push($n)\nEnd for'
    const done = new Collection()
    expect(underBudget(code, [text(600_000), done], 5)).toEqual({ errCode: 9410 })
    expect(done.items).toEqual([1, 2, 3, 4, 5])
  })
})
