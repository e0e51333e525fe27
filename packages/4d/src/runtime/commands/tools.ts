/**
 * @module The Tools theme's commands that compute (docs/commands/theme/Tools.md): `Generate
 * UUID` (docs/commands/generate-uuid.md) and `Generate digest`
 * (docs/commands-legacy/generate-digest.md), on the host's cryptography: 4D code only calls the
 * commands. A UUID is 32 hexadecimal characters in capitals (4D's non-canonical form), version
 * 4 (random) or 7 (the clock's milliseconds, then random). A digest is computed on the UTF-8 of
 * a text (or on a BLOB's bytes), in lowercase hexadecimal, or Base64URL with `*`; the obsolete
 * "4D digest" (2) is refused.
 *
 * The budget (context/budget.ts): a digest and a Base64 encoding go a piece at a time (a
 * megabyte), each piece counted before; a decoding (one native call, about a tenth of a second at
 * the bound of a text's length) counts its length before it starts.
 */
import { createHash, randomBytes, randomUUID, type Hash } from 'node:crypto'
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
import { encodeText } from '../arguments/charsets.js'
import { spend, type Passes } from '../values/passes.js'
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

/** The bytes a piece of Base64 encodes at once: a multiple of 3, so that pieces join. */
const BASE64_PIECE = 3 << 18

/** A Text's UTF-8 or a BLOB's bytes, in Base64 (Base64URL with `*`), as text. */
function encode(rt: Passes, input: string | Uint8Array, url: boolean): string {
  const bytes = typeof input === 'string' ? encodeText('BASE64 ENCODE', input, 'utf-8', rt) : input
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)
  let out = ''
  for (let at = 0; at < buffer.length; at += BASE64_PIECE) {
    const piece = buffer.subarray(at, at + BASE64_PIECE)
    spend(rt, piece.length)
    out += piece.toString(url ? 'base64url' : 'base64')
  }
  return out
}

/** Base64 (either alphabet: Node reads both) of a text or a BLOB, as bytes. */
function decode(rt: Passes, input: string | Uint8Array, url: boolean): Uint8Array {
  spend(rt, input.length)
  return new Uint8Array(
    Buffer.from(
      typeof input === 'string' ? input : Buffer.from(input).toString('latin1'),
      url ? 'base64url' : 'base64',
    ),
  )
}

/** The digest of a text's UTF-8 or of bytes, a megabyte at a time, each counted before. */
function digest(rt: Passes, algorithm: string, input: string | Uint8Array): Hash {
  const hash = createHash(algorithm)
  const PIECE = 1 << 20
  for (let from = 0; from < input.length;) {
    let to = Math.min(from + PIECE, input.length)
    if (typeof input === 'string') {
      const last = input.charCodeAt(to - 1)
      if (to < input.length && last >= 0xd800 && last <= 0xdbff) to--
    }
    spend(rt, to - from)
    hash.update(typeof input === 'string' ? input.slice(from, to) : input.subarray(from, to))
    from = to
  }
  return hash
}

/**
 * `BASE64 ENCODE(toEncode {; encoded} {; *})` and `BASE64 DECODE` (docs/commands/base64-encode.md,
 * base64-decode.md): the result goes to the second variable when one is given, else replaces the
 * first. A variable holding a BLOB receives bytes; any other receives text (an encoding, ASCII; a
 * decoding, read as UTF-8).
 */
function base64Command(
  rt: Passes,
  command: string,
  all: readonly unknown[],
  code: (rt: Passes, input: string | Uint8Array, url: boolean) => string | Uint8Array,
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
  const result = code(rt, input, star)
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
    impl: (rt, param, algorithm, star) => {
      const code = integerArg('Generate digest', 'algorithm', algorithm)
      const name = ALGORITHMS[code]
      if (name === undefined)
        return invalid('Generate digest', 'algorithm', `${code} is not supported`)
      return digest(rt, name, bytesOf(param)).digest(isStar(star) ? 'base64url' : 'hex')
    },
  },
  {
    number: 895,
    name: 'BASE64 ENCODE',
    signature: '(toEncode: any; ...encodedStar: any)',
    writes: [0, 1],
    impl: (rt, ...all) => base64Command(rt, 'BASE64 ENCODE', all, encode),
  },
  {
    number: 896,
    name: 'BASE64 DECODE',
    signature: '(toDecode: any; ...decodedStar: any)',
    writes: [0, 1],
    impl: (rt, ...all) => base64Command(rt, 'BASE64 DECODE', all, decode),
  },
]
