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
 * megabyte), each piece counted before, the work giving way between two pieces, where a call in
 * slices may stop (values/resumable.ts); a decoding (one native call, about a tenth of a second at
 * the bound of a text's length) counts its length before it starts. The variable a Base64 command
 * writes is written once its work is done.
 */
import type { Hash } from 'node:crypto'
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
import { encodeWork } from '../arguments/charsets.js'
import { andThen, DONE, inPieces, type Made, type Resumable } from '../values/resumable.js'
import { isOutParameter, outArg } from '../arguments/out-parameter.js'
import { byWork, type CommandWork } from './plain-forms.js'
import type { CommandSpec } from './table.js'
import { raise } from '../errors/fourd-error.js'
import { nodeBuiltin } from '../platform/node-builtins.js'
import { base64Of, bytesOfBase64, hexOf, randomBytes, randomUuid } from '../platform/bytes.js'

const ALGORITHMS: Readonly<Record<number, string>> = {
  0: 'md5',
  1: 'sha1',
  3: 'sha256',
  4: 'sha512',
}

function uuid(version: number, now: number): string {
  if (version === 4) return randomUuid().replaceAll('-', '').toUpperCase()
  if (version !== 7) return invalid('Generate UUID', 'version', `${version} is neither 4 nor 7`)
  const bytes = randomBytes(16)
  const ms = BigInt(Math.max(0, Math.floor(now)))
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn)
  bytes[6] = (bytes[6]! & 0x0f) | 0x70
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  return hexOf(bytes)
}

function bytesOf(v: unknown): Uint8Array | string {
  if (typeof v === 'string') return v
  return blobBytes(v) ?? wrongType('Generate digest', 'param', 'Text or BLOB', v)
}

/** The bytes a piece of Base64 encodes at once: a multiple of 3, so that pieces join. */
const BASE64_PIECE = 3 << 18

/** A Text's UTF-8 or a BLOB's bytes, in Base64 (Base64URL with `*`), as text. */
function encode(input: string | Uint8Array, url: boolean): [Made<string>, Resumable] {
  const out = { value: '' }
  const [bytes, written]: [Made<Uint8Array>, Resumable] =
    typeof input === 'string'
      ? encodeWork('BASE64 ENCODE', input, 'utf-8')
      : [{ value: input }, DONE]
  const work = andThen(written, () => {
    const b = bytes.value
    const cut = (from: number): number => Math.min(from + BASE64_PIECE, b.length)
    return inPieces(b.length, cut, (from, to) => {
      out.value += base64Of(b.subarray(from, to), url)
    })
  })
  return [out, work]
}

/** Base64 (either alphabet: Node reads both) of a text or a BLOB, as bytes: one native call. */
function decode(input: string | Uint8Array): [Made<Uint8Array>, Resumable] {
  const out: Made<Uint8Array> = { value: new Uint8Array(0) }
  // One piece: its length counted before it starts.
  const work = inPieces(
    input.length,
    () => input.length,
    () => {
      out.value = bytesOfBase64(
        // A BLOB's bytes as characters: those past ASCII are no Base64 either way.
        typeof input === 'string' ? input : new TextDecoder('latin1').decode(input),
      )
    },
  )
  return [out, work]
}

/** The digest of a text's UTF-8 or of bytes, a megabyte at a time, each counted before. */
function digest(algorithm: string, input: string | Uint8Array): [Hash, Resumable] {
  // Node's hashes are synchronous, Web Crypto's are not: a page has none to give 4D code.
  const crypto = nodeBuiltin('node:crypto')
  if (crypto === undefined)
    return raise('NotSupported', { construct: 'Generate digest (no node:crypto here)' })
  const hash = crypto.createHash(algorithm)
  const PIECE = 1 << 20
  const cut = (from: number): number => {
    const to = Math.min(from + PIECE, input.length)
    if (typeof input !== 'string' || to === input.length) return to
    const last = input.charCodeAt(to - 1)
    return last >= 0xd800 && last <= 0xdbff ? to - 1 : to
  }
  const work = inPieces(input.length, cut, (from, to) => {
    hash.update(typeof input === 'string' ? input.slice(from, to) : input.subarray(from, to))
  })
  return [hash, work]
}

/**
 * `BASE64 ENCODE(toEncode {; encoded} {; *})` and `BASE64 DECODE` (docs/commands/base64-encode.md,
 * base64-decode.md): the result goes to the second variable when one is given, else replaces the
 * first. A variable holding a BLOB receives bytes; any other receives text (an encoding, ASCII; a
 * decoding, read as UTF-8). The variable is written once the work is done: a call the budget ends
 * leaves it as it was.
 */
function base64Command(
  command: string,
  all: readonly unknown[],
  code: (input: string | Uint8Array, url: boolean) => [Made<string | Uint8Array>, Resumable],
): CommandWork {
  const { args, star } = withoutStar(all)
  const [first, second] = args
  const inName = command === 'BASE64 ENCODE' ? 'toEncode' : 'toDecode'
  const value = isOutParameter(first) ? first.get() : first
  const input = blobBytes(value) ?? textArg(command, inName, value)
  const target = outArg(
    command,
    args.length > 1 ? 'encoded' : 'toEncode',
    args.length > 1 ? second : first,
  )
  const [made, work] = code(input, star)
  const done = (): void => {
    const result = made.value
    const held = target.get()
    if (blobBytes(held) === undefined)
      return target.set(typeof result === 'string' ? result : new TextDecoder().decode(result))
    const bytes = typeof result === 'string' ? new TextEncoder().encode(result) : result
    target.set(held instanceof BlobObject ? blobObject(bytes) : bytes)
  }
  return { work, done }
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
    ...byWork((_rt, param, algorithm, star) => {
      const code = integerArg('Generate digest', 'algorithm', algorithm)
      const name = ALGORITHMS[code]
      if (name === undefined)
        return invalid('Generate digest', 'algorithm', `${code} is not supported`)
      const [hash, work] = digest(name, bytesOf(param))
      return { work, done: () => hash.digest(isStar(star) ? 'base64url' : 'hex') }
    }),
  },
  {
    number: 895,
    name: 'BASE64 ENCODE',
    signature: '(toEncode: any; ...encodedStar: any)',
    writes: [0, 1],
    ...byWork((_rt, ...all) => base64Command('BASE64 ENCODE', all, encode)),
  },
  {
    number: 896,
    name: 'BASE64 DECODE',
    signature: '(toDecode: any; ...decodedStar: any)',
    writes: [0, 1],
    ...byWork((_rt, ...all) => base64Command('BASE64 DECODE', all, decode)),
  },
]
