// The constants named as a user interface's (ui.ts): what `check` and the corpus count as UI.
import { expect, it } from 'vitest'
import { isUiConstant } from './ui.js'

it('are the form, menu, keyboard, list and window ones, not those code on a server uses', () => {
  for (const name of [
    'On Clicked',
    'Command key mask',
    'Shift key bit',
    'Additional text',
    'Enable events others unchanged',
    'Tips delay',
    'Highlight menu background color',
    'ak copy',
    'Movable dialog box',
  ])
    expect(isUiConstant(name), name).toBe(true)
  for (const name of ['Is text', 'HTTP timeout', 'Scaled to fit', 'fk desktop folder', 'Normal'])
    expect(isUiConstant(name), name).toBe(false)
})
