// JSON Validate (docs/commands-legacy/json-validate.md): draft-4 keywords, each failure with the
// page's code and message, and an invalid schema raising.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Runtime } from '../index.js'
import { fromJSON } from '../convert/json.js'
import { errorOf, plain, run } from './run.fixture.js'
import { COMMANDS } from './index.js'

/** The errors of `JSON Validate(json; schema)`, both given as 4D literals. */
const errors = (json: string, schema: string): unknown =>
  (run(`$r:=JSON Validate(${json}; ${schema})\nreturn $r`) as { errors?: unknown }).errors

const one = (code: number, jsonPath: string, message: string, schemaPaths: string) => [
  { code, jsonPath, message, schemaPaths },
]

describe('JSON Validate', () => {
  it('a valid value gives {success: true} and no errors', () => {
    expect(
      run(
        `return JSON Validate({name: "x"; age: 7}; {type: "object"; required: ["name"]; properties: {age: {type: "integer"; minimum: 5}}})`,
      ),
    ).toEqual({ success: true })
  })

  it("the brief's example: a missing required property and a minimum, in order", () => {
    expect(
      run(`$r:=JSON Validate({name: "x"; age: 3}; {type: "object"; required: ["name"; "email"]; properties: {age: {type: "integer"; minimum: 5}}})
return $r`),
    ).toEqual({
      success: false,
      errors: [
        {
          code: 16,
          jsonPath: '$',
          message: 'The required property "email" is missing.',
          schemaPaths: '#/required',
        },
        {
          code: 5,
          jsonPath: '$.age',
          message: 'The value provided should not be less than specified in the schema ("5").',
          schemaPaths: '#/properties/age/minimum',
        },
      ],
    })
  })

  it('type: one name, a list of names, integer against number', () => {
    expect(errors(`{a: "1"}`, `{properties: {a: {type: "number"}}}`)).toEqual(
      one(20, '$.a', 'Incorrect type. Expected type is: number', '#/properties/a/type'),
    )
    expect(errors(`{a: 1.5}`, `{properties: {a: {type: ["integer"; "null"]}}}`)).toEqual(
      one(20, '$.a', 'Incorrect type. Expected type is: integer, null', '#/properties/a/type'),
    )
    expect(
      errors(
        `{a: 2; b: Null; c: [1]}`,
        `{properties: {a: {type: "integer"}; b: {type: "null"}; c: {type: "array"}}}`,
      ),
    ).toBeUndefined()
  })

  it('numbers: multipleOf, maximum, minimum, and the draft-4 exclusive flags', () => {
    expect(errors(`{n: 7}`, `{properties: {n: {multipleOf: 2}}}`)).toEqual(
      one(
        2,
        '$.n',
        "Error while validating against 'multipleOf' key.",
        '#/properties/n/multipleOf',
      ),
    )
    expect(errors(`{n: 0.3}`, `{properties: {n: {multipleOf: 0.1}}}`)).toBeUndefined()
    expect(errors(`{n: 11}`, `{properties: {n: {maximum: 10}}}`)).toEqual(
      one(
        3,
        '$.n',
        'The value provided should not be greater than specified in the schema ("10").',
        '#/properties/n/maximum',
      ),
    )
    expect(errors(`{n: 10}`, `{properties: {n: {maximum: 10; exclusiveMaximum: True}}}`)).toEqual(
      one(
        4,
        '$.n',
        'The value provided should be less than specified in the schema ("10").',
        '#/properties/n/exclusiveMaximum',
      ),
    )
    expect(errors(`{n: 1.5}`, `{properties: {n: {minimum: 1.5; exclusiveMinimum: True}}}`)).toEqual(
      one(
        6,
        '$.n',
        'The value provided should be greater than specified in the schema ("1.5").',
        '#/properties/n/exclusiveMinimum',
      ),
    )
    expect(errors(`{n: 10}`, `{properties: {n: {maximum: 10; minimum: 10}}}`)).toBeUndefined()
  })

  it('strings: maxLength and minLength in code points, pattern unanchored, format', () => {
    expect(errors(`{s: "abcd"}`, `{properties: {s: {maxLength: 3}}}`)).toEqual(
      one(
        7,
        '$.s',
        'The string is longer than specified in the schema.',
        '#/properties/s/maxLength',
      ),
    )
    expect(errors(`{s: "ab"}`, `{properties: {s: {minLength: 3}}}`)).toEqual(
      one(
        8,
        '$.s',
        'The string is shorter than specified in the schema.',
        '#/properties/s/minLength',
      ),
    )
    // Two emoji: two code points, four UTF-16 units.
    expect(errors(`{s: "😀😀"}`, `{properties: {s: {maxLength: 2}}}`)).toBeUndefined()
    expect(errors(`{s: "xx-12-yy"}`, `{properties: {s: {pattern: "\\\\d+"}}}`)).toBeUndefined()
    expect(errors(`{s: "abc"}`, `{properties: {s: {pattern: "^\\\\d+$"}}}`)).toEqual(
      one(
        9,
        '$.s',
        'The string "abc" does not match the pattern in the schema:^\\d+$.',
        '#/properties/s/pattern',
      ),
    )
    expect(errors(`{m: "nobody"}`, `{properties: {m: {format: "email"}}}`)).toEqual(
      one(24, '$.m', 'The string does not match ("email")', '#/properties/m/format'),
    )
  })

  it('formats: date-time, email, hostname, ipv4, ipv6, uri; an unknown format passes', () => {
    const check = (format: string, good: string, bad: string) => {
      expect(
        errors(`{v: "${good}"}`, `{properties: {v: {format: "${format}"}}}`),
        good,
      ).toBeUndefined()
      expect(errors(`{v: "${bad}"}`, `{properties: {v: {format: "${format}"}}}`), bad).toEqual(
        one(24, '$.v', `The string does not match ("${format}")`, '#/properties/v/format'),
      )
    }
    check('date-time', '2024-02-29T10:20:30.5Z', '2024-02-29')
    check('email', 'a.b@example.com', 'a@b@c')
    check('hostname', 'api.example-1.com', 'bad_host.com')
    check('ipv4', '192.168.0.255', '256.1.1.1')
    check('ipv6', '::ffff:192.168.0.1', '1:2:3:4:5:6:7:8:9')
    check('ipv6', 'fe80::1', 'fe80:::1')
    check('uri', 'https://example.com/a?b=c', 'not a uri')
    expect(errors(`{v: "x"}`, `{properties: {v: {format: "color"}}}`)).toBeUndefined()
    expect(errors(`{v: 12}`, `{properties: {v: {format: "email"}}}`)).toBeUndefined()
  })

  it('a 4D date is validated as its YYYY-MM-DD text', () => {
    expect(
      errors(`{d: !2024-05-06!}`, `{properties: {d: {type: "string"; pattern: "^2024-05-06$"}}}`),
    ).toBeUndefined()
  })

  it('arrays: items (one schema, a list), additionalItems, minItems, maxItems, uniqueItems', () => {
    expect(
      errors(`{list: [1; "two"; 3]}`, `{properties: {list: {items: {type: "integer"}}}}`),
    ).toEqual(
      one(
        20,
        '$.list[1]',
        'Incorrect type. Expected type is: integer',
        '#/properties/list/items/type',
      ),
    )
    expect(
      errors(
        `[1; "a"; True]`,
        `{items: [{type: "integer"}; {type: "string"}]; additionalItems: False}`,
      ),
    ).toEqual(
      one(
        10,
        '$',
        'Error while validating an array. JSON contains more elements than specified in the schema.',
        '#/additionalItems',
      ),
    )
    expect(
      errors(`[1; "a"; True]`, `{items: [{type: "integer"}]; additionalItems: {type: "string"}}`),
    ).toEqual(one(20, '$[2]', 'Incorrect type. Expected type is: string', '#/additionalItems/type'))
    expect(errors(`[1; 2; 3]`, `{maxItems: 2}`)).toEqual(
      one(11, '$', 'The array contains more items than specified in the schema.', '#/maxItems'),
    )
    expect(errors(`[]`, `{minItems: 1}`)).toEqual(
      one(12, '$', 'The array contains less items than specified in the schema.', '#/minItems'),
    )
    expect(errors(`["a"; {x: 1}; "a"; {x: 1}]`, `{uniqueItems: True}`)).toEqual([
      {
        code: 13,
        jsonPath: '$[2]',
        message:
          'Error while validating an array. Elements are not unique. Another instance of "a" is already in the array.',
        schemaPaths: '#/uniqueItems',
      },
      {
        code: 13,
        jsonPath: '$[3]',
        message:
          'Error while validating an array. Elements are not unique. Another instance of "{"x":1}" is already in the array.',
        schemaPaths: '#/uniqueItems',
      },
    ])
  })

  it('objects: max/minProperties, additionalProperties, patternProperties, dependencies', () => {
    expect(errors(`{a: 1; b: 2}`, `{maxProperties: 1}`)).toEqual(
      one(
        14,
        '$',
        'The number of properties is greater than specified in the schema.',
        '#/maxProperties',
      ),
    )
    expect(errors(`{}`, `{minProperties: 1}`)).toEqual(
      one(
        15,
        '$',
        'The number of properties is less than specified in the schema.',
        '#/minProperties',
      ),
    )
    expect(
      errors(
        `{a: 1; x_1: 2; b: 3; c: 4}`,
        `{properties: {a: {}}; patternProperties: {"^x_": {type: "integer"}}; additionalProperties: False}`,
      ),
    ).toEqual(
      one(
        17,
        '$',
        'No additional properties allowed by the schema. The property(ies) "b", "c" should be removed.',
        '#/additionalProperties',
      ),
    )
    expect(errors(`{x_1: "no"}`, `{patternProperties: {"^x_": {type: "integer"}}}`)).toEqual(
      one(20, '$.x_1', 'Incorrect type. Expected type is: integer', '#/patternProperties/^x_/type'),
    )
    expect(
      errors(`{a: 1; b: "x"}`, `{properties: {a: {}}; additionalProperties: {type: "integer"}}`),
    ).toEqual(
      one(20, '$.b', 'Incorrect type. Expected type is: integer', '#/additionalProperties/type'),
    )
    expect(errors(`{card: 1}`, `{dependencies: {card: ["billing"]}}`)).toEqual(
      one(18, '$', 'The property "card" requires the property "billing".', '#/dependencies/card'),
    )
    expect(errors(`{card: 1}`, `{dependencies: {card: {required: ["billing"]}}}`)).toEqual(
      one(16, '$', 'The required property "billing" is missing.', '#/dependencies/card/required'),
    )
    expect(errors(`{other: 1}`, `{dependencies: {card: ["billing"]}}`)).toBeUndefined()
  })

  it('enum compares values deeply', () => {
    expect(errors(`{c: "green"}`, `{properties: {c: {enum: ["red"; "blue"]}}}`)).toEqual(
      one(
        19,
        '$.c',
        'Error while validating against \'enum\' key. "green" does not match any enum element in the schema.',
        '#/properties/c/enum',
      ),
    )
    expect(errors(`{c: {b: 2; a: 1}}`, `{properties: {c: {enum: [{a: 1; b: 2}]}}}`)).toBeUndefined()
  })

  it('allOf, anyOf, oneOf (21 and 22), not', () => {
    expect(errors(`5`, `{allOf: [{minimum: 6}; {maximum: 4}]}`)).toEqual([
      {
        code: 5,
        jsonPath: '$',
        message: 'The value provided should not be less than specified in the schema ("6").',
        schemaPaths: '#/allOf/0/minimum',
      },
      {
        code: 3,
        jsonPath: '$',
        message: 'The value provided should not be greater than specified in the schema ("4").',
        schemaPaths: '#/allOf/1/maximum',
      },
    ])
    expect(errors(`"a"`, `{anyOf: [{type: "integer"}; {type: "null"}]}`)).toEqual(
      one(22, '$', 'The JSON does not match any value.', '#/anyOf'),
    )
    expect(errors(`"a"`, `{anyOf: [{type: "integer"}; {type: "string"}]}`)).toBeUndefined()
    expect(errors(`4`, `{oneOf: [{type: "integer"}; {minimum: 2}]}`)).toEqual(
      one(21, '$', 'The JSON matches more than one value.', '#/oneOf'),
    )
    expect(errors(`1.5`, `{oneOf: [{type: "integer"}; {minimum: 2}]}`)).toEqual(
      one(22, '$', 'The JSON does not match any value.', '#/oneOf'),
    )
    expect(errors(`3`, `{oneOf: [{type: "integer"}; {type: "string"}]}`)).toBeUndefined()
    expect(errors(`{a: "x"}`, `{properties: {a: {not: {type: "string"}}}}`)).toEqual(
      one(23, '$.a', "The JSON is valid against the value of 'not'.", '#/properties/a/not'),
    )
  })

  it('nested paths: objects in collections in objects, and names that are not identifiers', () => {
    expect(
      errors(
        `{order: {lines: [{qty: 1}; {qty: 0}]; "my key": {deep: True}}}`,
        `{properties: {order: {properties: {lines: {items: {properties: {qty: {minimum: 1}}}}; "my key": {properties: {deep: {type: "string"}}}}}}}`,
      ),
    ).toEqual([
      {
        code: 5,
        jsonPath: '$.order.lines[1].qty',
        message: 'The value provided should not be less than specified in the schema ("1").',
        schemaPaths: '#/properties/order/properties/lines/items/properties/qty/minimum',
      },
      {
        code: 20,
        jsonPath: "$.order['my key'].deep",
        message: 'Incorrect type. Expected type is: string',
        schemaPaths: '#/properties/order/properties/my key/properties/deep/type',
      },
    ])
  })

  it("$ref to #/definitions and to # (a recursive tree); the paths are the target's", () => {
    expect(
      errors(
        `{price: -1}`,
        `{definitions: {positive: {type: "number"; minimum: 0}}; properties: {price: {$ref: "#/definitions/positive"}}}`,
      ),
    ).toEqual(
      one(
        5,
        '$.price',
        'The value provided should not be less than specified in the schema ("0").',
        '#/definitions/positive/minimum',
      ),
    )
    const tree = `{type: "object"; required: ["name"]; properties: {name: {type: "string"}; children: {type: "array"; items: {$ref: "#"}}}}`
    expect(
      errors(`{name: "a"; children: [{name: "b"; children: [{name: "c"}]}]}`, tree),
    ).toBeUndefined()
    expect(errors(`{name: "a"; children: [{name: "b"; children: [{}]}]}`, tree)).toEqual(
      one(
        16,
        '$.children[0].children[0]',
        'The required property "name" is missing.',
        '#/required',
      ),
    )
  })

  it('an invalid schema raises, and with ON ERR CALL the result stays Null', () => {
    const raises = (schema: string) => errorOf(`$r:=JSON Validate({a: 1}; ${schema})`)
    for (const schema of [
      `"not an object"`,
      `{type: "int"}`,
      `{properties: {a: {type: ["string"; "whatever"]}}}`,
      `{properties: {a: {$ref: "#/definitions/missing"}}}`,
      `{$ref: "http://example.com/schema.json"}`,
      `{properties: {a: {pattern: "(unclosed"}}}`,
      `{required: "a"}`,
      `{definitions: {a: {$ref: "#/definitions/b"}; b: {$ref: "#/definitions/a"}}; $ref: "#/definitions/a"}`,
    ])
      expect(raises(schema).errCode, schema).toBe(9415)
    expect(raises(`{type: "int"}`).message).toBe(
      'The "vSchema" parameter of JSON Validate is not valid: the JSON schema is not valid: #/type names an unknown type: "int"',
    )
    // In a branch the value never reaches: the schema is still refused.
    expect(raises(`{anyOf: [{}; {type: "nope"}]}`).errCode).toBe(9415)
    // A loop of $ref that reads no value.
    expect(raises(`{allOf: [{$ref: "#"}]}`).errCode).toBe(9415)
    expect(
      run(
        `ON ERR CALL("ignore")
$r:=JSON Validate({a: 1}; {type: "int"})
ON ERR CALL("")
return [$r=Null; gCode]`,
        { methods: { ignore: `gCode:=Error` } },
      ),
    ).toEqual([true, 9415])
  })
})

describe('JSON Validate (properties)', () => {
  const rt = new Runtime()
  const validate = (
    json: unknown,
    schema: unknown,
  ): { success: boolean; errors?: { code: number }[] } =>
    plain(COMMANDS.impls[1456]!(rt, fromJSON(json), fromJSON(schema))) as never

  type Value = null | boolean | number | string | Value[] | { [key: string]: Value }
  const key = fc.stringMatching(/^[a-z]{1,4}$/)
  const { value } = fc.letrec<{ value: Value }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constant(null),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string(),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(key, tie('value'), { maxKeys: 4 }),
    ),
  }))

  /** The schema of a value's own shape: its type, all its keys required, recursively. */
  function shapeOf(v: Value, closed: boolean): Record<string, unknown> {
    if (v === null) return { type: 'null' }
    if (Array.isArray(v)) return { type: 'array', items: v.map((item) => shapeOf(item, closed)) }
    if (typeof v === 'object') {
      const properties: Record<string, unknown> = {}
      for (const [k, item] of Object.entries(v)) properties[k] = shapeOf(item, closed)
      return {
        type: 'object',
        required: Object.keys(v),
        properties,
        ...(closed ? { additionalProperties: false } : {}),
      }
    }
    if (typeof v === 'number') return { type: Number.isInteger(v) ? 'integer' : 'number' }
    return { type: typeof v }
  }

  it('a value always validates against the schema of its own shape', () => {
    fc.assert(
      fc.property(value, fc.boolean(), (v, closed) => {
        expect(validate(v, shapeOf(v, closed))).toEqual({ success: true })
      }),
      { numRuns: 300 },
    )
  })

  it('an object given one property more fails with 17 when additionalProperties is false', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 4 }), value, (o, extraValue) => {
        const schema = shapeOf(o, true)
        const result = validate({ ...o, zzzzz: extraValue }, schema)
        expect(result.success).toBe(false)
        expect(result.errors).toEqual([
          {
            code: 17,
            jsonPath: '$',
            message:
              'No additional properties allowed by the schema. The property(ies) "zzzzz" should be removed.',
            schemaPaths: '#/additionalProperties',
          },
        ])
      }),
      { numRuns: 300 },
    )
  })

  it('a required key removed fails with 16 naming it', () => {
    fc.assert(
      fc.property(fc.dictionary(key, value, { minKeys: 1, maxKeys: 4 }), (o) => {
        const [gone, ...rest] = Object.keys(o)
        const smaller = Object.fromEntries(rest.map((k) => [k, o[k]!]))
        expect(validate(smaller, shapeOf(o, false)).errors).toEqual([
          {
            code: 16,
            jsonPath: '$',
            message: `The required property "${gone}" is missing.`,
            schemaPaths: '#/required',
          },
        ])
      }),
      { numRuns: 300 },
    )
  })
})
