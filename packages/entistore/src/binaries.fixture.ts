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

/** Doc's pictures and BLOBs as the store holds them: by key, bytes, type and version, or null. */
export function storedBinaries(ds: Datastore) {
  return ds
    .dataClass('Doc')
    .all()
    .toArray()
    .map((e) => ({
      key: e.getKey(),
      ...Object.fromEntries(
        ['picture', 'file'].map((name) => {
          const v = e.get(name)
          return [name, isBinaryValue(v) ? { bytes: v.bytes, type: v.type, version: v.version } : v]
        }),
      ),
    }))
}

/**
 * Doc's pictures and BLOBs as a REST client of the server at `url` reads them: each deferred URI
 * fetched, as bytes, media type and the URI's `$version`; null where the read says null.
 */
export async function servedBinaries(url: string) {
  const read = (await (await fetch(`${url}/rest/Doc?$orderby=ID`)).json()) as {
    __ENTITIES: Record<string, unknown>[]
  }
  return Promise.all(
    read.__ENTITIES.map(async (entity) => ({
      key: Number(entity.__KEY),
      ...Object.fromEntries(
        await Promise.all(
          ['picture', 'file'].map(async (name) => {
            const v = entity[name] as { __deferred: { uri: string } } | null
            if (v === null) return [name, null]
            const uri = new URL(v.__deferred.uri, url)
            const res = await fetch(uri)
            return [
              name,
              {
                bytes: new Uint8Array(await res.arrayBuffer()),
                type: res.headers.get('content-type'),
                version: Number(uri.searchParams.get('$version')),
              },
            ]
          }),
        ),
      ),
    })),
  )
}
