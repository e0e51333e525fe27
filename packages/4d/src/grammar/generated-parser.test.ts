/**
 * @module Drift test: the checked-in parser must be exactly what peggy makes of 4d.peggy
 * (tools/peggy-drift.ts replays the peggy CLI with peggy.config.json).
 */
import { describe, expect, test } from 'vitest'
import { peggyOutputs } from '../../../../tools/peggy-drift.js'

const HINT = 'the generated parser is stale: run `npm run gen -w @entistore/4d` and commit'
const outputs = peggyOutputs(new URL('../../', import.meta.url))

describe('generated 4D parser', () => {
  test('4d-parser.js matches 4d.peggy byte for byte', () => {
    expect(outputs.parser.expected === outputs.parser.onDisk, HINT).toBe(true)
  })

  test('4d-parser.d.ts matches the config', () => {
    expect(outputs.declarations).not.toBeNull()
    expect(outputs.declarations!.expected === outputs.declarations!.onDisk, HINT).toBe(true)
  })
})
