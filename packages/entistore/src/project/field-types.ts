/**
 * @module 4D's field type codes (the `type` of a `<field>` in catalog.4DCatalog) and the REST type
 * each one becomes. The codes are the value kinds of 4D's database engine, which 4D published in
 * its Wakanda toolbox: github.com/Wakanda/core-XToolbox, Kernel/Sources/VValue.h, the `VK_` enum
 * ("do not insert any value": the numbers are saved in files): 1 BOOLEAN, 2 BYTE, 3 WORD, 4 LONG,
 * 5 LONG8, 6 REAL, 7 FLOAT, 8 TIME (4D's Date), 9 DURATION (4D's Time), 10 STRING, 11 BLOB,
 * 12 IMAGE, 13 UUID, 14 TEXT, 15 SUBTABLE, 16 SUBTABLE_KEY, 17 obsolete, 18 BLOB_DB4D,
 * 19 STRING_UTF8, 20 TEXT_UTF8, 21 BLOB_OBJ (4D's Object). 4D's language constants (`Is longint`
 * = 9, `Is text` = 2, `Is BLOB` = 30…) are another numbering, not the file's. The structure files
 * 4D writes today use 1, 3–6, 8–10, 12, 18 and 21 (a Text is a 10 without `limiting_length`, a
 * UUID a 10 with `store_as_UUID`: 4D's own projects on GitHub, 4d-depot/EA_Recipes among them);
 * the other codes come from older or converted structures and are read all the same.
 * The REST names are those 4D's catalog gives (`$catalog/$all`: bool, word, long, long64,
 * number, date, duration, string, uuid, image, blob, object). docs/from-your-project.md shows this
 * table to 4D developers; serve-project.test.ts checks that the two agree and that each code is
 * served as the docs say.
 */
import type { ValueType } from '@entistore/core'

export interface FieldType {
  /** The name the 4D structure editor gives the type. */
  readonly fourD: string
  /** The catalog's type; undefined: a type Entistore cannot serve (the field is left out). */
  readonly rest: ValueType | undefined
  /**
   * What Entistore does differently from 4D for this type, said at start-up for each field of it
   * (docs/compat.md); undefined when it serves the type as 4D does.
   */
  readonly differs?: string
}

/** The codes of the structure file, by number. */
export const FIELD_TYPES: ReadonlyMap<number, FieldType> = new Map<number, FieldType>([
  [1, { fourD: 'Boolean', rest: 'bool' }],
  [2, { fourD: 'Byte', rest: 'byte' }],
  [3, { fourD: 'Integer', rest: 'word' }],
  [4, { fourD: 'Long Integer', rest: 'long' }],
  [5, { fourD: 'Integer 64 bits', rest: 'long64' }],
  [6, { fourD: 'Real', rest: 'number' }],
  [
    7,
    {
      fourD: 'Float',
      rest: 'number',
      differs: 'Float is served as number (a 64-bit real: no arbitrary precision)',
    },
  ],
  [8, { fourD: 'Date', rest: 'date' }],
  [9, { fourD: 'Time', rest: 'duration' }],
  // Alpha (with limiting_length) and Text (without): one code in the files 4D writes;
  // store_as_UUID makes it a UUID.
  [10, { fourD: 'Alpha / Text', rest: 'string' }],
  [11, { fourD: 'BLOB', rest: 'blob' }],
  [12, { fourD: 'Picture', rest: 'image' }],
  [13, { fourD: 'UUID', rest: 'uuid' }],
  [14, { fourD: 'Text', rest: 'string' }],
  [15, { fourD: 'Subtable', rest: undefined }],
  [16, { fourD: 'Subtable relation', rest: undefined }],
  [18, { fourD: 'BLOB', rest: 'blob' }],
  [19, { fourD: 'Alpha (UTF-8)', rest: 'string' }],
  [20, { fourD: 'Text (UTF-8)', rest: 'string' }],
  [21, { fourD: 'Object', rest: 'object' }],
])

/** The REST type of a field of `code`, an Alpha or Text stored as UUID becoming `uuid`. */
export function restType(code: number, storeAsUuid: boolean): ValueType | undefined {
  const rest = FIELD_TYPES.get(code)?.rest
  return rest === 'string' && storeAsUuid ? 'uuid' : rest
}
