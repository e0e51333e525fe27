/**
 * @module The state of the keyboard's modifier keys (`Shift down`, `Caps lock down`, `Windows Alt
 * down`…: docs/commands-legacy/shift-down.md and its siblings). Code runs here as in a process
 * of 4D Server, which has no keyboard: no key is down, each answers False, as 4D Server's
 * processes do. (Code that branches on them, a developer's shortcut in a method, runs its
 * ordinary branch.)
 */
import type { CommandSpec } from './table.js'

const up = (number: number, name: string): CommandSpec => ({
  number,
  name,
  signature: '(): Boolean',
  impl: () => false,
})

export const KEYS_DOWN_COMMANDS: readonly CommandSpec[] = [
  up(543, 'Shift down'),
  up(544, 'Macintosh control down'),
  up(545, 'Macintosh option down'),
  up(546, 'Macintosh command down'),
  up(547, 'Caps lock down'),
  up(562, 'Windows Ctrl down'),
  up(563, 'Windows Alt down'),
]
