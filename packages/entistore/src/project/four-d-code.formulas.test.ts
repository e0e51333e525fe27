/**
 * 4D code given as text in a project's function, over REST: `Formula from string` and `EXECUTE
 * FORMULA` compile it with the project's compiler on the request's context (its project
 * methods, its budget), and `EXECUTE METHOD` calls a project method by name. A text that cannot
 * run is a 4D error answered as one (422), never JavaScript.
 */
import { describe, expect, it } from 'vitest'
import { DOCS, projectCopy, served, TickingClock, type Json } from './four-d-rest.fixture.js'

const DATASTORE = `Class extends DataStoreImplementation

exposed Function evaluate($text : Text; $value : Variant) : Variant
\treturn Formula from string($text).call(Null; $value)

exposed Function execute($line : Text) : Variant
\tEXECUTE FORMULA($line)
\treturn gResult

exposed Function byName($method : Text; $value : Variant) : Variant
\tvar $result : Variant
\tEXECUTE METHOD($method; $result; $value)
\treturn $result
`

const errCode = (json: Json): unknown => (json.__ERROR as Json[] | undefined)?.[0]?.errCode

describe('code given as text in a project function', () => {
  const dir = projectCopy(DOCS, {
    'Project/Sources/Classes/DataStore.4dm': DATASTORE,
    'Project/Sources/Methods/double.4dm': '#DECLARE($x : Integer) -> $r : Integer\n$r:=$x*2',
    'Project/Sources/Methods/spin.4dm': 'While (True)\nEnd while',
  })

  it('Formula from string, EXECUTE FORMULA and EXECUTE METHOD run with the project methods', async () => {
    const post = await served(dir)
    expect((await post('$catalog/evaluate', ['Uppercase($1)', 'abc'])).json).toEqual({
      result: 'ABC',
    })
    expect((await post('$catalog/evaluate', ['double($1)+1', 20])).json).toEqual({ result: 41 })
    expect((await post('$catalog/execute', ['gResult:=double(21)'])).json).toEqual({ result: 42 })
    expect((await post('$catalog/byName', ['double', 4])).json).toEqual({ result: 8 })
  })

  it('a text that cannot run is a 4D error: a local (-10737), a syntax error, JavaScript', async () => {
    const post = await served(dir)
    for (const [text, code] of [
      ['$value', -10737],
      ['1+', 9408],
      ['process.exit(1)', -10729],
    ] as const) {
      const reply = await post('$catalog/evaluate', [text, 1])
      expect([text, reply.status, errCode(reply.json)]).toEqual([text, 422, code])
    }
    const quoted = await post('$catalog/evaluate', ['"x\\"); process.exit(1); (\\""', 1])
    expect(quoted.json).toEqual({ result: 'x"); process.exit(1); ("' })
  })

  it("the text's code stops at the request's budget", async () => {
    const post = await served(dir, { clock: new TickingClock() })
    const reply = await post('$catalog/evaluate', ['spin', 1])
    expect([reply.status, errCode(reply.json)]).toEqual([422, 9410])
  })
})
