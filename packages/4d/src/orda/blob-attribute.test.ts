/**
 * @module A Blob attribute from 4D code (dt_blob.md, "Automatic conversion of blob type"): read,
 * it is a 4D.Blob (an object's value, not alterable); assigned a scalar BLOB or a 4D.Blob, core
 * stores its bytes.
 */
import { createDatastore, isBinaryValue, type Datastore } from '@entistore/core'
import { describe, expect, test } from 'vitest'
import { plain } from '../runtime/commands/run.fixture.js'
import { runOn } from './orda.fixture.js'

const docs = (): Datastore =>
  createDatastore(
    {
      __NAME: 'docs',
      dataClasses: [
        {
          name: 'Doc',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'content', type: 'blob' },
          ],
        },
      ],
    },
    { data: { Doc: [{ ID: 1, content: { $base64: 'aGVsbG8=' } }, { ID: 2 }] } },
  ) as unknown as Datastore

const stored = (ds: Datastore, id: number): string => {
  const value = ds.dataClass('Doc').get(id)!.get('content')
  return isBinaryValue(value) ? new TextDecoder().decode(value.bytes) : String(value)
}

describe('a Blob attribute', () => {
  test('reads as a 4D.Blob that the BLOB commands read', () => {
    const code = `$b:=ds.Doc.get(1).content
return [OB Instance of($b; 4D.Blob); Value type($b); $b.size; BLOB to text($b; UTF8 text without length)]`
    expect(plain(runOn(docs(), code))).toEqual([true, 38, 5, 'hello'])
  })

  test('takes a scalar BLOB and a 4D.Blob, stored as their bytes', () => {
    const ds = docs()
    runOn(
      ds,
      `var $b : Blob
TEXT TO BLOB("scalar"; $b; UTF8 text without length)
$e:=ds.Doc.get(2)
$e.content:=$b
$e.save()
$f:=ds.Doc.get(1)
$f.content:=$e.content.slice(0; 3)
$f.save()`,
    )
    expect([stored(ds, 2), stored(ds, 1)]).toEqual(['scalar', 'sca'])
  })
})
