// A picture's or BLOB's version (what `$version` names) is the stamp of the write that set it.
import { describe, expect, it } from 'vitest'
import { createDatastore } from '../orda/objects/datastore.js'
import { isBinaryValue, type BinaryValue } from '../values/binary.js'

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const bytes = (...tail: number[]) => new Uint8Array([...PNG, ...tail])

const fresh = () => {
  const ds = createDatastore({
    dataClasses: [
      {
        name: 'Farm',
        attributes: [
          { name: 'ID', type: 'long', autosequence: true },
          { name: 'name', type: 'string' },
          { name: 'logo', type: 'image' },
          { name: 'deed', type: 'blob' },
        ],
      },
    ],
  })
  return ds.dataClass('Farm')
}

const versionOf = (v: unknown): number => {
  expect(isBinaryValue(v)).toBe(true)
  return (v as BinaryValue).version
}

describe('the version of a picture or BLOB', () => {
  it('is 1 on a create, then the stamp of each write of it', () => {
    const Farm = fresh()
    const farm = Farm.create({ name: 'a', logo: bytes(1), deed: new Uint8Array([7]) })
    expect(versionOf(farm.get('logo'))).toBe(1)
    expect(versionOf(farm.get('deed'))).toBe(1)
    const renamed = Farm.update(farm.key, { name: 'b' })
    // Another attribute's write keeps the picture and its version.
    expect(renamed.get('logo')).toBe(farm.get('logo'))
    const drawn = Farm.update(farm.key, { logo: bytes(2) })
    expect(drawn.stamp).toBe(3)
    expect(versionOf(drawn.get('logo'))).toBe(3)
    expect(versionOf(drawn.get('deed'))).toBe(1)
  })

  it('changes on every write of it, the same bytes included, and never goes back through a null', () => {
    const Farm = fresh()
    const farm = Farm.create({ logo: bytes(1) })
    const same = Farm.update(farm.key, { logo: bytes(1) })
    expect(versionOf(same.get('logo'))).toBe(2)
    const cleared = Farm.update(farm.key, { logo: null })
    expect(cleared.get('logo')).toBeNull()
    const again = Farm.update(farm.key, { logo: bytes(1) })
    expect(versionOf(again.get('logo'))).toBe(4)
  })

  it('is kept when the value read is written back, and replaced when another one is given', () => {
    const Farm = fresh()
    const a = Farm.create({ logo: bytes(1) })
    const b = Farm.create({ logo: bytes(2) })
    Farm.update(b.key, { name: 'x' })
    Farm.update(b.key, { name: 'y' })
    const stored = Farm.get(b.key)!.get('logo')
    expect(versionOf(stored)).toBe(1)
    const back = Farm.update(b.key, { logo: stored })
    expect(back.get('logo')).toBe(stored)
    // b's picture given to a: a's next stamp, whatever version it had on b.
    const moved = Farm.update(a.key, { logo: Farm.update(b.key, { logo: bytes(3) }).get('logo') })
    expect(versionOf(moved.get('logo'))).toBe(2)
  })
  it('goes past a version a data file gave, however small the stamp', () => {
    const ds = createDatastore(
      {
        dataClasses: [
          {
            name: 'Farm',
            attributes: [
              { name: 'ID', type: 'long' },
              { name: 'logo', type: 'image' },
            ],
          },
        ],
      },
      {
        data: {
          Farm: [{ ID: 1, logo: { $base64: 'iVBORw0KGgo=', type: 'image/png', version: 9 } }],
        },
      },
    )
    const Farm = ds.dataClass('Farm')
    expect(versionOf(Farm.get(1)!.get('logo'))).toBe(9)
    expect(versionOf(Farm.update(1, { logo: bytes(5) }).get('logo'))).toBe(10)
  })
})
