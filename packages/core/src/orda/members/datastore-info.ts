/**
 * @module What 4D's DataStore class answers about the datastore itself, as 4D answers it for a
 * datastore like Entistore's: local (the code runs where the data is), not encrypted, and with no
 * client/server optimisation contexts.
 *
 * - `getInfo()`: 4D's object for `ds` on the server or a single-user 4D, `{ type: "4D",
 *   networked: false, localID: "" }`.
 * - `encryptionStatus()` and `provideDataKey()`: the data is never encrypted (in memory, and the
 *   journal of `--persist` is plain), so the status says so, and no key can match it.
 * - The remote contexts (`setRemoteContextInfo`, `getRemoteContextInfo`, `getAllRemoteContexts`,
 *   `clearAllRemoteContexts`): 4D keeps them on a remote datastore only, to shape what its client
 *   asks the server for. On the server's own datastore there are none, and none is kept: that is
 *   what these answer (the arguments of `setRemoteContextInfo` are still checked).
 */
import { fail } from '../../errors/datastore-error.js'
import type { MemberClass } from './member-class.js'

/** `ds.getInfo()`. */
export interface DatastoreInfo {
  /** "4D": the datastore of the application the code runs in (4D Server or single-user). */
  readonly type: '4D'
  /** Reached through no network connection. */
  readonly networked: false
  /** The main datastore's local id: "". */
  readonly localID: ''
}

/** `ds.encryptionStatus()`. */
export interface EncryptionStatus {
  readonly isEncrypted: boolean
  readonly keyProvided: boolean
  /** One property per encryptable or encrypted table: none. */
  readonly tables: Readonly<
    Record<
      string,
      {
        readonly name: string
        readonly num: number
        readonly isEncryptable: boolean
        readonly isEncrypted: boolean
      }
    >
  >
}

/** `ds.provideDataKey()`'s result, as 4D's. */
export interface DataKeyResult {
  readonly success: boolean
  /** 4 when the key given does not match the data (here: there is no encrypted data to match). */
  readonly status?: number
  readonly statusText?: string
}

/** A remote context, as `getRemoteContextInfo` describes one (4D's object). */
export interface RemoteContextInfo {
  readonly name: string
  readonly dataclass: string
  /** The attributes of the context's `main` type, separated by commas. */
  readonly main: string
  /** The attributes of its `currentItem` type. */
  readonly currentItem: string
}

const INFO: DatastoreInfo = Object.freeze({ type: '4D', networked: false, localID: '' })

export const datastoreInfo = (): DatastoreInfo => ({ ...INFO })

export const encryptionStatus = (): EncryptionStatus => ({
  isEncrypted: false,
  keyProvided: false,
  tables: {},
})

/**
 * 4D's `provideDataKey(passPhrase | dataKey)`: null when no key is given (4D's answer), else a
 * failure: no key matches data that is not encrypted.
 */
export function provideDataKey(
  key?: string | { readonly encodedKey: string } | null,
): DataKeyResult | null {
  if (key === undefined || key === null || key === '') return null
  return {
    success: false,
    status: 4,
    statusText: 'The data is not encrypted: no data key matches it',
  }
}

/**
 * Checks the arguments of 4D's `setRemoteContextInfo(contextName, dataClass, attributes,
 * contextType, pageLength)` against `dataClassOf` (the datastore's dataclass of a name, or of a
 * DataClass object); keeps nothing (see the module note).
 * @throws DatastoreError DataClassNotFound (1800), InvalidParameter (1806).
 */
export function checkRemoteContext<D extends Pick<MemberClass, 'name' | 'def'>>(
  dataClassOf: (dc: string | D) => D | undefined,
  contextName: unknown,
  dataClass: unknown,
  attributes: unknown,
  contextType: unknown,
  pageLength: unknown,
): void {
  if (typeof contextName !== 'string' || contextName === '')
    fail('InvalidParameter', ['contextName', String(contextName), 'a context name'])
  const dc =
    typeof dataClass === 'string' || (typeof dataClass === 'object' && dataClass !== null)
      ? dataClassOf(dataClass as string | D)
      : undefined
  if (dc === undefined) return fail('DataClassNotFound', [String(dataClass)])
  const names =
    typeof attributes === 'string'
      ? attributes.split(',').map((a) => a.trim())
      : Array.isArray(attributes)
        ? (attributes as unknown[])
        : undefined
  if (names === undefined)
    fail('InvalidParameter', [
      'attributes',
      String(attributes),
      'attribute names, a text or a collection',
    ])
  for (const name of names)
    if (
      typeof name !== 'string' ||
      (name !== '' && !dc.def.attributesByName.has(name.split('.')[0]!))
    )
      fail('AttributeNotFound', [String(name), dc.name])
  if (contextType !== undefined && contextType !== 'main' && contextType !== 'currentItem')
    fail('InvalidParameter', ['contextType', String(contextType), '"main" or "currentItem"'])
  if (pageLength !== undefined && !(Number.isSafeInteger(pageLength) && (pageLength as number) > 0))
    fail('InvalidParameter', ['pageLength', String(pageLength), 'a whole number above 0'])
}
