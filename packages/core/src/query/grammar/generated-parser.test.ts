/**
 * @module Drift test: the checked-in parser must be exactly what peggy makes of filter.peggy
 * (tools/peggy-drift.ts replays the peggy CLI with peggy.config.json).
 */
import { describe, expect, test } from 'vitest'
import { peggyOutputs } from '../../../../../tools/peggy-drift.js'

const HINT = 'the generated parser is stale: run `npm run gen -w @entistore/core` and commit'
const outputs = peggyOutputs(new URL('../../../', import.meta.url))

describe('generated filter parser', () => {
  test('filter-parser.js matches filter.peggy byte for byte', () => {
    // A boolean comparison keeps a mismatch from dumping 90 kB of diff; the hint says what to do.
    expect(outputs.parser.expected === outputs.parser.onDisk, HINT).toBe(true)
  })

  test('filter-parser.d.ts matches the config', () => {
    expect(outputs.declarations).not.toBeNull()
    expect(outputs.declarations!.expected === outputs.declarations!.onDisk, HINT).toBe(true)
  })
})
