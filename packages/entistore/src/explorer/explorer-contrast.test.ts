/**
 * The explorer's colours meet WCAG AA for normal text (4.5:1) in both themes: each pair of a text
 * colour and the background it is drawn on, read from explorer.css itself, so a change of colour
 * that loses contrast fails here.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const css = readFileSync(new URL('../../explorer/explorer.css', import.meta.url), 'utf8')

/** The variables of the block whose selector list contains `selector`. */
function theme(selector: string): Map<string, string> {
  const block = new RegExp(`${selector.replace(/[[\]']/g, '\\$&')}[^{]*\\{([^}]*)\\}`).exec(css)
  if (!block) throw new Error(`no ${selector} block in explorer.css`)
  return new Map(
    [...block[1]!.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((m) => [m[1]!, m[2]!]),
  )
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi! + 0.05) / (lo! + 0.05)
}

// Text colour on background colour, as the style sheet draws them.
const PAIRS: readonly (readonly [string, string])[] = [
  ['text', 'bg'],
  ['text', 'panel'],
  ['text', 'row-alt'],
  ['muted', 'bg'],
  ['muted', 'panel'],
  ['muted', 'row-alt'],
  ['accent', 'bg'],
  ['accent', 'row-alt'],
  ['accent-text', 'accent'],
  ['error', 'error-bg'],
  ['indexed', 'panel'],
  ['scan', 'panel'],
  // A row just changed (following live): its values, nulls and relation links.
  ['text', 'live'],
  ['muted', 'live'],
  ['accent', 'live'],
]

describe.each(["[data-theme='light']", "[data-theme='dark']"])('the %s theme', (selector) => {
  const colours = theme(selector)
  it.each(PAIRS)('draws --%s on --%s at 4.5:1 or more', (text, background) => {
    expect(contrast(colours.get(text)!, colours.get(background)!)).toBeGreaterThanOrEqual(4.5)
  })
})
