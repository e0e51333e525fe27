/**
 * @module Which requests send a file's raw bytes rather than JSON: `POST /rest/$upload`, and a POST
 * to one picture or BLOB attribute of one entity (`/rest/Employee(3)/photo?$rawPict=image/png`, as
 * Wakanda's client sends pictures). One definition for the two that must agree: the transports'
 * body limit (`RestCore.bodyLimit`: `maxUploadBytes` for these, `maxBodyBytes` for JSON) and the
 * router, which sends these to resources/upload.ts.
 */
import {
  isPublic,
  type AttributeDef,
  type Datastore,
  type StorageAttributeDef,
} from '@entistore/core'
import { isShown } from '../serialize/entity.js'
import { parseRestUrl, type RestTarget } from '../url/parse-rest-url.js'

type DataClassTarget = Extract<RestTarget, { kind: 'dataClass' }>

/** The entity and the attribute of a POST shaped as a raw write: `{dataClass}({key})/{attribute}`. */
export function rawWriteTarget(
  target: DataClassTarget,
): { readonly key: string; readonly attribute: string } | undefined {
  const names = target.attributes
  if (
    target.key === undefined ||
    target.lookup !== undefined ||
    target.entitySet !== undefined ||
    names?.length !== 1
  )
    return undefined
  return { key: target.key, attribute: names[0]! }
}

/** Whether `attr` holds a picture or a BLOB: the attributes that take a file's bytes. */
export function isFileAttribute(
  attr: AttributeDef | undefined,
): attr is StorageAttributeDef & { readonly type: 'image' | 'blob' } {
  return attr?.kind === 'storage' && (attr.type === 'image' || attr.type === 'blob')
}

/**
 * Whether a POST to `path` sends a file's raw bytes: `$upload`, or a raw write to a picture or BLOB
 * attribute a client may see. Only the path is read (it is what tells them apart), and only for
 * requests with a body: a GET never comes here. A path that does not parse is JSON's, whose limit
 * is the smaller: the request is refused anyway.
 */
export function sendsFileBytes(ds: Datastore, path: string, basePath: string): boolean {
  let target: RestTarget
  try {
    const parsed = parseRestUrl(path, '', basePath)
    if (parsed === undefined) return false
    target = parsed.target
  } catch {
    return false
  }
  if (target.kind === 'upload') return true
  if (target.kind !== 'dataClass') return false
  const raw = rawWriteTarget(target)
  if (raw === undefined) return false
  const dc = ds.findDataClass(target.dataClass)
  if (dc === undefined || !isPublic(dc.def)) return false
  const attr = dc.def.attributesByName.get(raw.attribute)
  return isFileAttribute(attr) && isShown(ds.schema, attr)
}
