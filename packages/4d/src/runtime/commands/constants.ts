/**
 * @module The values of 4D's constants as code writes them (`Is text`, `Is text:K8:3`), by name
 * compared without case: the compiler puts the value in place. A constant missing here parses and
 * raises "not implemented" when reached. Values from 4D's documentation (value-type.md, the
 * "Field and Variable Types" and "Characters" themes).
 */

const VALUE_TYPES: Readonly<Record<string, number>> = {
  'Is real': 1,
  'Is text': 2,
  'Is picture': 3,
  'Is date': 4,
  'Is undefined': 5,
  'Is Boolean': 6,
  'Is integer': 8,
  'Is longint': 9,
  'Is time': 11,
  'Is variant': 12,
  'Is pointer': 23,
  'Is BLOB': 30,
  'Is object': 38,
  'Is collection': 42,
  'Is null': 255,
}

const CHARACTERS: Readonly<Record<string, string>> = {
  'Carriage return': '\r',
  'Line feed': '\n',
  Tab: '\t',
  Space: ' ',
  'Double quote': '"',
  Quote: "'",
  'At sign': '@',
}

const MATH: Readonly<Record<string, number>> = {
  Pi: Math.PI,
  'e number': Math.E,
  Degree: Math.PI / 180,
  Radian: 180 / Math.PI,
}

const TABLE = new Map<string, number | string>(
  Object.entries({ ...VALUE_TYPES, ...CHARACTERS, ...MATH }).map(([k, v]) => [k.toLowerCase(), v]),
)

/** The value of the constant of that name, if the table has it. */
export function constantValue(name: string): number | string | undefined {
  return TABLE.get(name.toLowerCase())
}
