/**
 * @module The Tools theme's commands that compute (docs/commands/theme/Tools.md): `Generate
 * UUID` (docs/commands/generate-uuid.md) and `Generate digest`
 * (docs/commands-legacy/generate-digest.md), on the host's cryptography: 4D code only calls the
 * commands. A UUID is 32 hexadecimal characters in capitals (4D's non-canonical form), version
 * 4 (random) or 7 (the clock's milliseconds, then random). A digest is computed on the UTF-8 of
 * a text (or on a BLOB's bytes), in lowercase hexadecimal, or Base64URL with `*`; the obsolete
 * "4D digest" (2) is refused.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { integerArg, invalid, isStar, optionalInteger, wrongType } from './arguments.js'
import type { CommandSpec } from './table.js'

const ALGORITHMS: Readonly<Record<number, string>> = {
  0: 'md5',
  1: 'sha1',
  3: 'sha256',
  4: 'sha512',
}

function uuid(version: number, now: number): string {
  if (version === 4) return randomUUID().replaceAll('-', '').toUpperCase()
  if (version !== 7) return invalid('Generate UUID', 'version', `${version} is neither 4 nor 7`)
  const bytes = randomBytes(16)
  const ms = BigInt(Math.max(0, Math.floor(now)))
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  return bytes.toString('hex').toUpperCase()
}

function bytesOf(v: unknown): Uint8Array | string {
  if (typeof v === 'string') return v
  if (v instanceof Uint8Array) return v
  return wrongType('Generate digest', 'param', 'Text or BLOB', v)
}

export const TOOLS_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1066,
    name: 'Generate UUID',
    signature: '(version?: Integer): Text',
    impl: (rt, version) => uuid(optionalInteger('Generate UUID', 'version', version, 4), rt.now()),
  },
  {
    number: 1147,
    name: 'Generate digest',
    signature: '(param: any; algorithm: Integer; star?: any): Text',
    impl: (_rt, param, algorithm, star) => {
      const code = integerArg('Generate digest', 'algorithm', algorithm)
      const name = ALGORITHMS[code]
      if (name === undefined)
        return invalid('Generate digest', 'algorithm', `${code} is not supported`)
      return createHash(name)
        .update(bytesOf(param))
        .digest(isStar(star) ? 'base64url' : 'hex')
    },
  },
  { number: 1533, name: 'Generate password hash', notRunnable: 'not yet' },
  { number: 1534, name: 'Verify password hash', notRunnable: 'not yet' },
  { number: 895, name: 'BASE64 ENCODE', notRunnable: 'not yet' },
  { number: 896, name: 'BASE64 DECODE', notRunnable: 'not yet' },
]
