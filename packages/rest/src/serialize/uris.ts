/**
 * @module The URIs the server writes into responses (`__deferred.uri`, `dataURI`, `__ENTITYSET`).
 * Relative, like the real server's: `/rest/Company[1]`. Entity keys are written in square brackets,
 * the form the current server emits (4D's older docs show parentheses; both are accepted on input).
 */
import { keyText, type KeyValue } from '@entistore/core'

export class Uris {
  readonly base: string

  constructor(basePath: string) {
    this.base = basePath
  }

  dataClass(dataClass: string): string {
    return `${this.base}/${dataClass}`
  }

  catalogDataClass(dataClass: string): string {
    return `${this.base}/$catalog/${dataClass}`
  }

  entity(dataClass: string, key: KeyValue): string {
    // Keys with URL-significant characters are percent-encoded; plain numbers and uuids are not touched.
    const text = typeof key === 'number' ? String(key) : encodeURIComponent(keyText(key))
    return `${this.base}/${dataClass}[${text}]`
  }

  /** The deferred form of a 1→N relation, or of a picture/BLOB attribute (`extra` adds the format params). */
  attribute(dataClass: string, key: KeyValue, attribute: string, extra = ''): string {
    return `${this.entity(dataClass, key)}/${attribute}?${extra}$expand=${attribute}`
  }

  entitySet(dataClass: string, id: string): string {
    return `${this.base}/${dataClass}/$entityset/${id}`
  }
}
