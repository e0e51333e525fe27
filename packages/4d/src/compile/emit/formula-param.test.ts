import { describe, expect, it } from 'vitest'
import { parseExpression } from '../../grammar/parse.js'
import { keepsFirstParam } from './formula-param.js'

const keeps = (text: string): boolean => keepsFirstParam(parseExpression(text))

describe('keepsFirstParam', () => {
  it('a formula reading members of $1 only keeps it nowhere', () => {
    for (const text of [
      '$1.value*2',
      '$1.value>=500',
      '$1.value.name+$1.value2.name',
      '$1.value.items.length',
      'String($1.value)',
      '$2+$1.value',
      'Formula($1)',
      '$1.value.push($2)',
    ])
      expect(keeps(text), text).toBe(false)
  })

  it('any other use of $1 may keep it', () => {
    for (const text of [
      '$1',
      '[$1]',
      '{p: $1}',
      'New object("p"; $1)',
      'String($1)',
      '$1.f()',
      '$1.value.push($1)',
      '$1["value"]',
      '${1}.value',
      '->$1',
      'Formula($1).call(Null; $1)',
      '$1.value+Copy parameters.length',
    ])
      expect(keeps(text), text).toBe(true)
  })
})
