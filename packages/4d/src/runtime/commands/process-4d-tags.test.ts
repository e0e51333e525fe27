// PROCESS 4D TAGS (process-4d-tags.md) and the transformation tags it runs
// (docs/Tags/transformation-tags.md): the pages' examples, each tag, nesting, the parameters,
// escaping, and what an error leaves in the output.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runOn, store } from '../../orda/orda.fixture.js'
import { projectFiles } from '../../project/project-files.js'
import { childrenOf, parseTemplate, type TemplateNode } from './four-d-tags.js'
import { errorOf, run } from './run.fixture.js'
import type { Run4dOptions } from '../../compile/run4d.js'
import { budgetOf } from '../context/budget.js'

/** A clock that moves 1 ms each time it is read, so that a budget runs out whatever the machine. */
const steppingClock = () => {
  let now = 1_000
  return { now: () => now++ }
}

/** A 4D string literal of `text`. */
const q = (text: string): string =>
  `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r/g, '\\r').replace(/\n/g, '\\n')}"`

/** The output of PROCESS 4D TAGS on `template`, after the lines of `setup`, with `params`. */
function tags(template: string, setup = '', params = '', options?: Run4dOptions): unknown {
  return run(
    `${setup}\nvar $out : Text\nPROCESS 4D TAGS(${q(template)}; $out${params})\nreturn $out`,
    options,
  )
}

describe('the pages’ examples', () => {
  it('4DEVAL runs an assignment and inserts a calculation (transformation-tags.md, 4DEVAL)', () => {
    expect(tags('<!--#4DEVAL a:=42--><!--#4DEVAL a+1-->')).toBe('43')
  })
  it('4DLOOP on an expression loops while it is True', () => {
    const template =
      '<!--#4DEVAL $i:=0-->\n<!--#4DLOOP ($i<4)-->\n<!--#4DEVAL $i-->\n<!--#4DEVAL $i:=$i+1-->\n<!--#4DENDLOOP-->'
    expect((tags(template) as string).split('\n').filter((l) => l !== '')).toEqual([
      '0',
      '1',
      '2',
      '3',
    ])
  })
  it('4DTEXT escapes what 4DHTML inserts as it is', () => {
    expect(tags('<!--#4DTEXT myvar-->|<!--#4DHTML myvar-->', 'myvar:="<B>"')).toBe('&lt;B&gt;|<B>')
  })
  it('$4DEVAL(…) takes enclosed quotes and parentheses', () => {
    expect(tags('$4DEVAL( String(1)+"\\"(hello)\\"")')).toBe('1"(hello)"')
  })
  it('a 4DHTML value that holds a tag is processed again; a 4DTEXT value is not', () => {
    const setup = 'myName:="<!--#4DEVAL gCalled:=True-->Bob"\ngCalled:=False'
    expect(tags('My name is: <!--#4DHTML myName--><!--#4DEVAL gCalled-->', setup)).toBe(
      'My name is: BobTrue',
    )
    expect(tags('My name is: <!--#4DTEXT myName--><!--#4DEVAL gCalled-->', setup)).toBe(
      'My name is: &lt;!--#4DEVAL gCalled:=True--&gt;BobFalse',
    )
  })
  it('a $4DEVAL(…) in a value is never processed again', () => {
    expect(tags('My name is: <!--#4DTEXT myName-->', 'myName:="$4DEVAL(1+1)"')).toBe(
      'My name is: $4DEVAL(1+1)',
    )
    expect(tags('<!--#4DHTML myName-->', 'myName:="$4DEVAL(1+1)"')).toBe('$4DEVAL(1+1)')
  })
  it('4DEACH over an entity-like collection of objects, as the PROCESS 4D TAGS example', () => {
    const setup = 'customers:=[{name: "Ann"}; {name: "Bob"}]'
    const template =
      '<!--#4DEACH $cust in customers--><!--#4DTEXT $cust.name -->\r<!--#4DENDEACH-->'
    expect(tags(template, setup)).toBe('Ann\rBob\r')
  })
  it('4DEACH over an entity selection, as the PROCESS 4D TAGS example', () => {
    const code = `customers:=ds.Employee.all().orderBy("ID")
var $input; $output : Text
$input:="<!--#4DEACH $cust in customers-->"
$input:=$input+"<!--#4DTEXT $cust.lastName -->"+Char(Carriage return)
$input:=$input+"<!--#4DENDEACH-->"
$input:=$input+"<!--#4DEACH $e in ds.Employee.query(\\"salary > 6500\\")-->$4DTEXT($e.email)<!--#4DENDEACH-->"
PROCESS 4D TAGS($input; $output)
return $output`
    expect(runOn(store(), code)).toBe('Lovelace\rTuring\rHopper\rgrace@globex')
  })
  it('4DEACH over an object’s properties, in their creation order', () => {
    const template =
      '<!--#4DCODE\n$gamers:={Mary: 10; Ann: 20; John: 40}\n-->' +
      '<!--#4DEACH $key in $gamers--><!--#4DTEXT $key-->=<!--#4DTEXT $gamers[$key]-->;<!--#4DENDEACH-->'
    expect(tags(template)).toBe('Mary=10;Ann=20;John=40;')
  })
})

describe('value tags', () => {
  it('turn values to text as String does, "." the decimal separator', () => {
    expect(
      tags(
        '<!--#4DTEXT 1.5-->|<!--#4DTEXT True-->|<!--#4DTEXT !2020-01-02!-->|<!--#4DTEXT Null-->',
      ),
    ).toBe('1.5|True|01/02/2020|null')
    expect(tags('[<!--#4DTEXT gUndefined-->]')).toBe('[]')
  })
  it('4DTEXT escapes & < > and "', () => {
    expect(tags('<!--#4DTEXT $1-->', '', '; "a&b <c> \\"d\\""')).toBe(
      'a&amp;b &lt;c&gt; &quot;d&quot;',
    )
  })
  it('4DEVAL of a statement that returns nothing inserts nothing', () => {
    expect(tags('[<!--#4DEVAL gX:=1-->]<!--#4DEVAL gX-->')).toBe('[]1')
  })
  it('the $ forms: $4DTEXT escapes, $4DHTML and $4DEVAL do not; spaces before ( are taken', () => {
    expect(tags('<x a="$4DTEXT($1)" b="$4DHTML($1)" c="$4DEVAL ($1)"/>', '', '; "<"')).toBe(
      '<x a="&lt;" b="<" c="<"/>',
    )
  })
  it('tag names are read without case; tokens are taken', () => {
    expect(tags('<!--#4dtext Uppercase:C13("a")-->$4dEval(Length:C16("abc"))')).toBe('A3')
  })
})

describe('parameters', () => {
  it('are $1…$n in the tags, of any type', () => {
    expect(
      tags('<!--#4DTEXT $1-->-<!--#4DTEXT $2+1-->-<!--#4DTEXT $3.a-->', '', '; "x"; 41; {a: "o"}'),
    ).toBe('x-42-o')
  })
  it('a pointer reaches the caller’s variable', () => {
    expect(
      run(
        `var $n : Integer\n$n:=1\nvar $out : Text\nPROCESS 4D TAGS("<!--#4DEVAL $1->:=$1->+1-->"; $out; ->$n)\nreturn $n`,
      ),
    ).toBe(2)
  })
  it('Count parameters counts them', () => {
    expect(tags('<!--#4DTEXT Count parameters-->', '', '; 1; 2; 3')).toBe('3')
  })
})

describe('locals', () => {
  it('are the template’s own, shared by its tags, not the caller’s', () => {
    expect(tags('<!--#4DEVAL $x:="tag"--><!--#4DTEXT $x-->', '$x:="caller"')).toBe('tag')
    expect(
      run(
        '$x:="caller"\nvar $out : Text\nPROCESS 4D TAGS("<!--#4DEVAL $x:=1-->"; $out)\nreturn $x',
      ),
    ).toBe('caller')
  })
  it('are named without case, and typed once declared', () => {
    expect(tags('<!--#4DCODE\nvar $n : Integer\n$N:=1.6\n--><!--#4DTEXT $n-->')).toBe('2')
    expect(tags('<!--#4DCODE\nC_TEXT:C284($t)\n--><!--#4DTEXT Length($t)-->')).toBe('0')
  })
})

describe('4DCODE', () => {
  it('runs lines and blocks, comments and continuations allowed', () => {
    const code = `<!--#4DCODE
// a comment
var $total : Integer
For ($i; 1; 5)
  If ($i%2=0)
    $total:=$total+$i /* even */
  Else
    $total:=$total+\\
      0
  End if
End for
Case of
  : ($total=6)
    $label:="six"
  Else
    $label:="other"
End case
-->$4DTEXT($label)-$4DTEXT($i)`
    expect(tags(code)).toBe('six-6')
  })
  it('While, Repeat, For each, break and continue', () => {
    const code = `<!--#4DCODE
$s:=""
$n:=0
While ($n<10)
  $n:=$n+1
  If ($n=2)
    continue
  End if
  If ($n=4)
    break
  End if
  $s:=$s+String($n)
End while
Repeat
  $n:=$n-1
Until ($n=0)
For each ($v; [5; 6])
  $s:=$s+String($v)
End for each
-->$4DTEXT($s)`
    expect(tags(code)).toBe('1356')
  })
  it('an error is a 4D error, thrown to the caller', () => {
    expect(
      errorOf('var $out : Text\nPROCESS 4D TAGS("<!--#4DCODE\\n$x:=1+\\n-->"; $out)').errCode,
    ).toBe(9408)
    expect(
      errorOf('var $out : Text\nPROCESS 4D TAGS("<!--#4DCODE\\nIf (True)\\n-->"; $out)').message,
    ).toContain('End if')
    expect(
      run(
        'Try\nvar $out : Text\nPROCESS 4D TAGS("<!--#4DCODE\\n$x:=1/\\"a\\"\\n-->"; $out)\nCatch\nreturn "caught"\nEnd try',
      ),
    ).toBe('caught')
  })
  it('a syntax error on a later line stops the block before its first line runs', () => {
    expect(
      run(
        'gRan:=False\nTry\nvar $out : Text\nPROCESS 4D TAGS("<!--#4DCODE\\ngRan:=True\\n$x:=(\\n-->"; $out)\nCatch\nEnd try\nreturn gRan',
      ),
    ).toBe(false)
  })
})

describe('4DIF', () => {
  it('runs the first branch whose condition is True, else 4DELSE', () => {
    const template = '<!--#4DIF $1=1-->one<!--#4DELSEIF $1=2-->two<!--#4DELSE-->many<!--#4DENDIF-->'
    expect([1, 2, 3].map((n) => tags(template, '', `; ${n}`))).toEqual(['one', 'two', 'many'])
    expect(tags('a<!--#4DIF False-->b<!--#4DENDIF-->c')).toBe('ac')
  })
  it('nests', () => {
    const template =
      '<!--#4DIF True--><!--#4DIF False-->x<!--#4DELSE-->y<!--#4DENDIF-->z<!--#4DENDIF-->'
    expect(tags(template)).toBe('yz')
  })
  it('"A Boolean expression was expected" in place of the block, for a value or an error', () => {
    expect(tags('a<!--#4DIF 1-->b<!--#4DENDIF-->c')).toBe(
      'a<!--#4DIF 1-->: A Boolean expression was expected' + 'c',
    )
    expect(tags('<!--#4DIF 1+-->b<!--#4DENDIF-->')).toBe(
      '<!--#4DIF 1+-->: A Boolean expression was expected',
    )
  })
  it('"4DENDIF expected" when it is missing', () => {
    expect(tags('a<!--#4DIF True-->b')).toBe('a<!--#4DIF True-->: 4DENDIF expected')
  })
})

describe('4DLOOP', () => {
  it('on a method: method(0) first, then 1, 2… while it returns True', () => {
    const methods = {
      my_method:
        '#DECLARE($n : Integer) -> $r : Boolean\nIf ($n=0)\n$r:=True\nElse\nmyvar:=$n*10\n$r:=$n<4\nEnd if',
    }
    expect(
      tags('<!--#4DLOOP my_method--><!--#4DTEXT myvar-->,<!--#4DENDLOOP-->', '', '', { methods }),
    ).toBe('10,20,30,')
  })
  it('on a Boolean variable', () => {
    expect(
      tags('<!--#4DLOOP gGo--><!--#4DEVAL gGo:=False-->once<!--#4DENDLOOP-->', 'gGo:=True'),
    ).toBe('once')
  })
  it('errors in place of the block: the expression’s type, its error, a missing 4DENDLOOP', () => {
    expect(tags('<!--#4DLOOP 1-->x<!--#4DENDLOOP-->')).toBe(
      '<!--#4DLOOP 1-->: Unexpected expression type',
    )
    expect(tags('<!--#4DLOOP (1+"a")-->x<!--#4DENDLOOP-->')).toMatch(
      /^<!--#4DLOOP \(1\+"a"\)-->: Argument types/,
    )
    expect(tags('<!--#4DLOOP True-->x')).toBe('<!--#4DLOOP True-->: 4DENDLOOP expected')
  })
  it('on a table’s selection or an array: not supported here', () => {
    expect(
      errorOf('var $out : Text\nPROCESS 4D TAGS("<!--#4DLOOP [People]--><!--#4DENDLOOP-->"; $out)')
        .errCode,
    ).toBe(9414)
    const code =
      'ARRAY TEXT($a; 2)\nvar $out : Text\nPROCESS 4D TAGS("<!--#4DLOOP $1--><!--#4DENDLOOP-->"; $out; ->$a)'
    expect(errorOf(code).message).toContain('array')
  })
  it('an endless loop stops at the run’s budget', () => {
    const e = errorOf(
      'var $out : Text\nPROCESS 4D TAGS("<!--#4DLOOP True-->x<!--#4DENDLOOP-->"; $out)',
      {
        runtime: { budget: budgetOf(50, steppingClock()) },
      },
    )
    expect(e.errCode).toBe(9410)
  })
})

describe('4DEACH', () => {
  it('over a collection, with 4DIF inside', () => {
    const template =
      '<!--#4DEACH $n in $1--><!--#4DIF $n%2=0-->[<!--#4DTEXT $n-->]<!--#4DELSE--><!--#4DTEXT $n--><!--#4DENDIF--><!--#4DENDEACH-->'
    expect(tags(template, '', '; [1; 2; 3; 4]')).toBe('1[2]3[4]')
  })
  it('an object element is the collection’s own', () => {
    const code =
      'var $c : Collection\n$c:=[{a: 1}; {a: 2}]\nvar $out : Text\nPROCESS 4D TAGS("<!--#4DEACH $o in $1--><!--#4DEVAL $o.a:=$o.a*10--><!--#4DENDEACH-->"; $out; $c)\nreturn $c'
    expect(run(code)).toEqual([{ a: 10 }, { a: 20 }])
  })
  it('an element of another type than the first stops the loop with an error', () => {
    expect(
      tags('<!--#4DEACH $x in $1--><!--#4DTEXT $x--><!--#4DENDEACH-->', '', '; [1; "a"]'),
    ).toMatch(/^<!--#4DEACH \$x in \$1-->: Argument types are incompatible/)
  })
  it('a process variable as the item; an empty collection; a malformed tag', () => {
    expect(
      tags('<!--#4DEACH gItem in $1--><!--#4DTEXT gItem--><!--#4DENDEACH-->', '', '; ["a"; "b"]'),
    ).toBe('ab')
    expect(tags('x<!--#4DEACH $i in $1-->y<!--#4DENDEACH-->', '', '; []')).toBe('x')
    expect(tags('<!--#4DEACH $i-->y<!--#4DENDEACH-->')).toBe(
      '<!--#4DEACH $i-->: 4DEACH variable in expression expected',
    )
  })
})

describe('errors in value tags', () => {
  it('leave the tag and the error code in the output, as the page writes each', () => {
    expect(tags('a<!--#4DTEXT 1+-->b')).toBe('a<!--#4DTEXT 1+--> : ## error # 9408b')
    expect(tags('<!--#4DHTML 1+"a"-->')).toBe('<!--#4DHTML 1+"a"--> : ## error # 54')
    expect(tags('<!--#4DEVAL 1+"a"-->')).toBe('<!--#4DEVAL 1+"a"-->: ## error # 54')
    expect(tags('$4DTEXT(1+"a")')).toBe('$4DTEXT(1+"a") : ## error # 54')
  })
  it('a value String does not take (an object) is an error too', () => {
    expect(tags('<!--#4DTEXT $1-->', '', '; {a: 1}')).toBe('<!--#4DTEXT $1--> : ## error # 9406')
  })
})

describe('what is not a tag', () => {
  it('stays as written', () => {
    for (const text of [
      '<!-- a comment -->',
      '<!--#notATag x-->',
      '<!--#4DTEXT never closed',
      '$4DTEXT(unclosed',
      '$4DTEXTx $5 $4D',
      '<!--#4DENDIF-->',
      '<!--#4DCODEx-->',
    ])
      expect(tags(`a${text}b`)).toBe(`a${text}b`)
  })
  it('a template that makes nothing gives the template back, as the command’s page says', () => {
    expect(tags('<!--#4DIF False-->x<!--#4DENDIF-->')).toBe('<!--#4DIF False-->x<!--#4DENDIF-->')
    expect(tags('')).toBe('')
  })
})

describe('4DSCRIPT', () => {
  const methods = {
    MYMETH: '#DECLARE($param : Text) : Text\nreturn "<"+$param+">"',
    RAW: '#DECLARE($param : Text) : Text\nreturn Char(1)+"<b>"+$param+"</b>"',
  }
  it('calls the method with "/param"; its text escaped unless it starts with Char(1)', () => {
    expect(tags('<!--#4DSCRIPT/MYMETH/x-->', '', '', { methods })).toBe('&lt;/x&gt;')
    expect(tags('<!--#4DSCRIPT/RAW/y-->', '', '', { methods })).toBe('<b>/y</b>')
    expect(tags('<!--#4DSCRIPT/NOPE/y-->', '', '', { methods })).toBe(
      '<!--#4DSCRIPT/NOPE/y--> : ## error # -10508',
    )
  })
})

describe('4DINCLUDE and 4DBASE', () => {
  const root = mkdtempSync(join(tmpdir(), 'entistore-4d-tags-'))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'Project', 'parts', 'sub'), { recursive: true })
  writeFileSync(
    join(root, 'Project', 'head.html'),
    '<html><body>Hi <!--#4DTEXT $1-->$4DEVAL(1+1)</body></html>',
  )
  writeFileSync(join(root, 'Project', 'parts', 'a.txt'), 'A<!--#4DINCLUDE ../head.html-->')
  writeFileSync(join(root, 'Project', 'parts', 'sub', 'b.txt'), 'B')
  const options = { runtime: { files: projectFiles(root) } }

  it('inserts the body of a file of the project folder, its tags processed', () => {
    expect(tags('[<!--#4DINCLUDE head.html-->]', '', '; "you"', options)).toBe('[Hi you2]')
  })
  it('only at one level; a missing file or one outside: "The document cannot be opened"', () => {
    expect(tags('<!--#4DINCLUDE parts/a.txt-->', '', '', options)).toBe(
      'A<!--#4DINCLUDE ../head.html--> :The document cannot be opened',
    )
    expect(tags('<!--#4DINCLUDE nope.html-->', '', '', options)).toBe(
      '<!--#4DINCLUDE nope.html--> :The document cannot be opened',
    )
    expect(tags('<!--#4DINCLUDE ../../x-->', '', '', options)).toContain(
      ':The document cannot be opened',
    )
  })
  it('4DBASE sets the folder of the next includes, relative to the page; WEBFOLDER restores it', () => {
    const template =
      '<!--#4DBASE parts/sub/--><!--#4DINCLUDE b.txt--><!--#4DBASE parts/--><!--#4DINCLUDE sub/b.txt-->' +
      '<!--#4DIF True--><!--#4DBASE WEBFOLDER--><!--#4DENDIF--><!--#4DINCLUDE parts/sub/b.txt-->'
    expect(tags(template, '', '', options)).toBe('BBB')
  })
  it('without the project’s folders, a 4D error that says so', () => {
    expect(
      errorOf('var $out : Text\nPROCESS 4D TAGS("<!--#4DINCLUDE a.html-->"; $out)').message,
    ).toContain('4DINCLUDE')
  })
})

describe('the command', () => {
  it('writes a variable; a value there is an error', () => {
    expect(errorOf('PROCESS 4D TAGS("x"; "y")').errCode).toBe(9415)
  })
  it('without a compiler given to the run, a 4D error that says so', () => {
    const e = errorOf('var $out : Text\nPROCESS 4D TAGS("<!--#4DTEXT 1-->"; $out)', {
      runtime: { compileFormula: undefined },
    })
    expect(e.errCode).toBe(9414)
  })
})

describe('the template’s tree', () => {
  it('holds the blocks’ nodes where childrenOf finds them', () => {
    const kinds = (nodes: readonly TemplateNode[]): string[] =>
      nodes.flatMap((n) => [n.kind, ...kinds(childrenOf(n))])
    const tree = parseTemplate(
      '<!--#4DEACH $a in $1--><!--#4DIF x-->$4DTEXT(1)<!--#4DELSE--><!--#4DLOOP y-->t<!--#4DENDLOOP--><!--#4DENDIF--><!--#4DENDEACH-->',
      { dollar: true },
    )
    expect(kinds(tree)).toEqual(['each', 'if', 'value', 'loop', 'text'])
  })
})
