/**
 * @module Checks of a description by established tools, for the tests: the OpenAPI 3.1 schema
 * validator (`@seriousme/openapi-schema-validator`, the specification's own JSON Schemas), and
 * replies checked against the description's schemas with Ajv's JSON Schema 2020-12 (OpenAPI 3.1's
 * dialect), formats included: a reply of the real handler that its description does not allow
 * fails the test with Ajv's errors.
 */
import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

/** The validator's verdict on `document` as OpenAPI 3.1, with its errors. */
export async function validateOpenApi(
  document: object,
): Promise<{ valid: boolean; errors: unknown; version: string }> {
  const validator = new Validator()
  const result = await validator.validate(document as never)
  return { valid: result.valid, errors: result.errors, version: validator.version }
}

const ID = 'urn:entistore:openapi'

/** A JSON pointer's token (RFC 6901), written in a URI fragment. */
const token = (name: string): string =>
  encodeURIComponent(name.replace(/~/g, '~0').replace(/\//g, '~1'))

/** Checks values against the schemas of one description. */
export class ResponseCheck {
  readonly #ajv: Ajv2020

  constructor(document: object) {
    // Not strict: the description holds OpenAPI's own members (`paths`, `info`…) around its schemas.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false })
    addFormats.default(this.#ajv)
    // OpenAPI's integer formats (ajv-formats knows them) and its annotation keywords.
    this.#ajv.addSchema({ ...document, $id: ID })
  }

  /** The errors of `value` against the schema at `pointer` (tokens), or [] when it is valid. */
  #errors(tokens: readonly string[], value: unknown): string[] {
    const validate = this.#ajv.getSchema(`${ID}#/${tokens.map(token).join('/')}`)
    if (!validate) throw new Error(`no schema at /${tokens.join('/')}`)
    if (validate(value)) return []
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    )
  }

  /** The errors of `value` against the component schema `name`. */
  schema(name: string, value: unknown): string[] {
    return this.#errors(['components', 'schemas', name], value)
  }

  /**
   * The errors of `body` against the JSON reply the description gives `method` of `path` for
   * `status` (its `default` when the status is not listed).
   */
  reply(path: string, method: string, status: number, body: unknown): string[] {
    const responses = this.#operation(path, method).responses as Record<string, unknown>
    const code = String(status) in responses ? String(status) : 'default'
    const entry = responses[code] as { $ref?: string } | undefined
    if (!entry) throw new Error(`${method} ${path} describes no reply ${status}`)
    // A reply that is a component (the errors) is checked at the component.
    const at = entry.$ref
      ? entry.$ref.slice(2).split('/')
      : ['paths', path, method, 'responses', code]
    return this.#errors([...at, 'content', 'application/json', 'schema'], body)
  }

  /** The errors of `body` against the JSON request body of `method` of `path`. */
  request(path: string, method: string, body: unknown): string[] {
    return this.#errors(
      ['paths', path, method, 'requestBody', 'content', 'application/json', 'schema'],
      body,
    )
  }

  #operation(path: string, method: string): Record<string, unknown> {
    const doc = this.#ajv.getSchema(ID)!.schema as { paths: Record<string, Record<string, object>> }
    const operation = doc.paths[path]?.[method]
    if (!operation) throw new Error(`the description has no ${method} ${path}`)
    return operation as Record<string, unknown>
  }
}
