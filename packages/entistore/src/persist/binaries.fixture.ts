/**
 * Pictures and BLOBs for the tests that carry data through a file (`serve --save`, `clone`, the
 * fixture's `reset`): random bytes that base64 must not bend (0x00, 0xFF, lengths that are not a
 * multiple of 3), versions other than 1, an empty BLOB next to a null one. Test-only.
 */
import { randomBytes } from 'node:crypto'
import { isBinaryValue, type Datastore, type ModelJson } from '@entistore/core'

export const BINARY_MODEL: ModelJson = {
  __NAME: 'binaries',
  dataClasses: [
    {
      name: 'Doc',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'title', type: 'string' },
        { name: 'picture', type: 'image' },
        { name: 'file', type: 'blob' },
      ],
    },
  ],
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

/** `n` random bytes after 0x00 and 0xFF, behind `prefix`. */
export const someBytes = (n: number, prefix: readonly number[] = []): Uint8Array =>
  Uint8Array.from([...prefix, 0x00, 0xff, ...randomBytes(n)])

const inFile = (bytes: Uint8Array, type: string, version?: number) => ({
  $base64: Buffer.from(bytes).toString('base64'),
  type,
  ...(version === undefined ? {} : { version }),
})

/**
 * A data file of BINARY_MODEL, new random bytes on each call. Doc 1 has both, with versions 4 and 2
 * (511 and 1001 bytes: lengths of remainder 1 and 2 by 3); Doc 2 an empty BLOB and a picture of
 * version 1; Doc 3 neither.
 */
export function binaryData() {
  return {
    Doc: [
      {
        ID: 1,
        title: 'both',
        picture: inFile(someBytes(501, PNG_SIGNATURE), 'image/png', 4),
        file: inFile(someBytes(999), 'application/pdf', 2),
      },
      {
        ID: 2,
        title: 'an empty BLOB',
        picture: inFile(someBytes(40, PNG_SIGNATURE), 'image/png'),
        file: inFile(new Uint8Array(0), 'application/octet-stream'),
      },
      { ID: 3, title: 'neither' },
    ],
  }
}

/** A picture or BLOB as seen: its bytes, media type and version. */
export interface SeenBinary {
  readonly bytes: Uint8Array
  readonly type: string | null
  readonly version: number
}

/** One Doc's picture and BLOB, null where there is none. */
export interface DocBinaries {
  readonly key: unknown
  readonly picture: SeenBinary | null
  readonly file: SeenBinary | null
}

/** Doc's pictures and BLOBs as the store holds them. */
export function storedBinaries(ds: Datastore): DocBinaries[] {
  const seen = (v: unknown): SeenBinary | null =>
    isBinaryValue(v) ? { bytes: v.bytes, type: v.type, version: v.version } : null
  return ds
    .dataClass('Doc')
    .all()
    .toArray()
    .map((e) => ({ key: e.getKey(), picture: seen(e.get('picture')), file: seen(e.get('file')) }))
}

/**
 * Doc's pictures and BLOBs as a REST client of the server at `url` reads them: each deferred URI
 * fetched, its media type, and the URI's `$version`.
 */
export async function servedBinaries(url: string): Promise<DocBinaries[]> {
  type Deferred = { readonly __deferred: { readonly uri: string } } | null
  const read = (await (await fetch(`${url}/rest/Doc?$orderby=ID`)).json()) as {
    __ENTITIES: { __KEY: string; picture: Deferred; file: Deferred }[]
  }
  const seen = async (v: Deferred): Promise<SeenBinary | null> => {
    if (v === null) return null
    const uri = new URL(v.__deferred.uri, url)
    const res = await fetch(uri)
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      type: res.headers.get('content-type'),
      version: Number(uri.searchParams.get('$version')),
    }
  }
  return Promise.all(
    read.__ENTITIES.map(async (entity) => ({
      key: Number(entity.__KEY),
      picture: await seen(entity.picture),
      file: await seen(entity.file),
    })),
  )
}
