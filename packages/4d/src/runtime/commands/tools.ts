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
import {
  integerArg,
  invalid,
  isStar,
  optionalInteger,
  textArg,
  withoutStar,
  wrongType,
} from '../arguments/arguments.js'
import { BlobObject, blobBytes, blobObject } from '../values/blob-object.js'
import { isOutParameter, outArg } from '../arguments/out-parameter.js'
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
  return blobBytes(v) ?? wrongType('Generate digest', 'param', 'Text or BLOB', v)
}

/** A Text's UTF-8 or a BLOB's bytes, in Base64 (Base64URL with `*`), as text. */
const encode = (input: string | Uint8Array, url: boolean): string =>
  Buffer.from(input).toString(url ? 'base64url' : 'base64')

/** Base64 (either alphabet: Node reads both) of a text or a BLOB, as bytes. */
const decode = (input: string | Uint8Array, url: boolean): Uint8Array =>
  new Uint8Array(
    Buffer.from(
      typeof input === 'string' ? input : Buffer.from(input).toString('latin1'),
      url ? 'base64url' : 'base64',
    ),
  )

/**
 * `BASE64 ENCODE(toEncode {; encoded} {; *})` and `BASE64 DECODE` (docs/commands/base64-encode.md,
 * base64-decode.md): the result goes to the second variable when one is given, else replaces the
 * first. A variable holding a BLOB receives bytes; any other receives text (an encoding, ASCII; a
 * decoding, read as UTF-8).
 */
function base64Command(
  command: string,
  all: readonly unknown[],
  code: (input: string | Uint8Array, url: boolean) => string | Uint8Array,
): void {
  const { args, star } = withoutStar(all)
  const [first, second] = args
  const [inName, outName] =
    command === 'BASE64 ENCODE' ? ['toEncode', 'encoded'] : ['toDecode', 'decoded']
  const value = isOutParameter(first) ? first.get() : first
  const input = blobBytes(value) ?? textArg(command, inName, value)
  const target = outArg(
    command,
    args.length > 1 ? 'encoded' : 'toEncode',
    args.length > 1 ? second : first,
  )
  const result = code(input, star)
  const held = target.get()
  if (blobBytes(held) === undefined)
    return target.set(typeof result === 'string' ? result : Buffer.from(result).toString('utf8'))
  const bytes = typeof result === 'string' ? new TextEncoder().encode(result) : result
  target.set(held instanceof BlobObject ? blobObject(bytes) : bytes)
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
  {
    number: 895,
    name: 'BASE64 ENCODE',
    signature: '(toEncode: any; ...encodedStar: any)',
    writes: [0, 1],
    impl: (_rt, ...all) => base64Command('BASE64 ENCODE', all, encode),
  },
  {
    number: 896,
    name: 'BASE64 DECODE',
    signature: '(toDecode: any; ...decodedStar: any)',
    writes: [0, 1],
    impl: (_rt, ...all) => base64Command('BASE64 DECODE', all, decode),
  },
]
