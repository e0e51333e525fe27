import { describe, expect, it } from 'vitest'
import { quoteBareKeys } from './bare-keys.js'

describe('quoteBareKeys', () => {
  it("quotes the bare keys 4D's pages write, and nothing inside strings", () => {
    expect(quoteBareKeys('[{vector:[1,2,3],threshold:1}]')).toBe(
      '[{"vector":[1,2,3],"threshold":1}]',
    )
    expect(quoteBareKeys('[{ a : "{b:1}", $c_2:{d:[{e:"x,f:"}]}}]')).toBe(
      '[{ "a" : "{b:1}", "$c_2":{"d":[{"e":"x,f:"}]}}]',
    )
    expect(JSON.parse(quoteBareKeys('[{s:"a\\"b:c", n:null}]')!)).toEqual([{ s: 'a"b:c', n: null }])
  })

  it('leaves text with no bare key to JSON and its error', () => {
    expect(quoteBareKeys('["a", 1]')).toBeUndefined()
    expect(quoteBareKeys('[1, true, x]')).toBeUndefined()
    expect(quoteBareKeys('[{"a":1}')).toBeUndefined()
  })
})
