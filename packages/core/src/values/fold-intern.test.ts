import { describe, expect, it } from 'vitest'
import { fold } from './fold.js'
import { FoldInterner } from './fold-intern.js'

describe('FoldInterner', () => {
  it('folds as fold does, giving one string for one text', () => {
    const interner = new FoldInterner()
    for (const text of ['Paris', 'ÉLODIE', 'straße', '', 'ǅ'])
      expect(interner.fold(text)).toBe(fold(text))
    // Two texts made apart (as two rows of a file) get the very same folded string: pushed into
    // one array, V8 would not keep two copies. Object identity is not observable for strings, so
    // the map's size is what is checked.
    const a = interner.fold(['Pa', 'ris'].join(''))
    const b = interner.fold('Paris')
    expect(a).toBe(b)
  })

  it('stops sharing past its limit and still folds', () => {
    const interner = new FoldInterner(3)
    const texts = ['A', 'B', 'C', 'D', 'E', 'A']
    expect(texts.map((t) => interner.fold(t))).toEqual(texts.map(fold))
  })
})
