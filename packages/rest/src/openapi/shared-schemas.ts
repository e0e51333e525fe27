/**
 * @module The parts of the description every model shares: the `rest.*` schemas (deferred forms,
 * `__STATUS`, the `__ERROR` envelope, the other shapes of a read), the query parameters of 4D's
 * REST keywords, and the error replies by status (errors/to-error-body.ts chooses the status from
 * the error's category: STATUS_BY_CATEGORY).
 */
import { OPEN, ref, type Schema } from './value-schemas.js'

const text = (description: string): Schema => ({ type: 'string', description })
const int = (description: string): Schema => ({ type: 'integer', description })
const object = (properties: Record<string, Schema>, required: string[]): Schema => ({
  type: 'object',
  properties,
  required,
})

/** The shared schemas, by name (each under `rest.`: no dataclass name holds a dot). */
export const SHARED_SCHEMAS: Readonly<Record<string, Schema>> = {
  'rest.ErrorItem': {
    ...object(
      {
        message: text('what went wrong (it may span several lines)'),
        componentSignature: text(
          "who says it: `dbmg` for 4D's codes, `enti` for Entistore's own (9000 and up), a function's own",
        ),
        errCode: int("4D's error code"),
      },
      ['message', 'componentSignature', 'errCode'],
    ),
  },
  'rest.ErrorList': {
    type: 'array',
    items: ref('rest.ErrorItem'),
    minItems: 1,
    description: 'the errors, outermost first',
  },
  'rest.Error': {
    ...object({ __ERROR: ref('rest.ErrorList') }, ['__ERROR']),
    description:
      'An error reply. A refused write also carries `__STATUS` and the entity as stored; a lock refused, `__STATUS` with `lockKind`, `lockKindText` and `lockInfo`.',
  },
  'rest.Status': {
    type: 'object',
    properties: {
      success: { type: 'boolean' },
      status: int(
        '2 stamp changed, 3 already locked, 4 other error, 5 entity does not exist, 7 and 8 a validation refused',
      ),
      statusText: { type: 'string' },
      lockKind: { type: 'integer' },
      lockKindText: { type: 'string' },
      lockInfo: OPEN,
    },
    description: "An ORDA status (4D's `__STATUS`): `success`, or `status` and `statusText`.",
  },
  'rest.DeferredEntity': {
    ...object(
      {
        __deferred: object(
          { uri: text('the related entity, to GET'), __KEY: text('its key, as text') },
          ['uri', '__KEY'],
        ),
      },
      ['__deferred'],
    ),
    description:
      'A related entity, not written out: `$expand` or `$attributes=relation.*` writes it.',
  },
  'rest.DeferredSelection': {
    ...object({ __deferred: object({ uri: text('the related entities, to GET') }, ['uri']) }, [
      '__deferred',
    ]),
    description: 'Related entities, not written out.',
  },
  'rest.DeferredImage': {
    ...object(
      {
        __deferred: object(
          {
            uri: text('the picture, to GET (`$imageformat` converts it)'),
            image: { const: true },
          },
          ['uri', 'image'],
        ),
      },
      ['__deferred'],
    ),
    description: 'A picture: its URI answers the bytes; `$version` there changes with each write.',
  },
  'rest.DeferredBlob': {
    ...object({ __deferred: object({ uri: text('the bytes, to GET') }, ['uri']) }, ['__deferred']),
    description: 'A BLOB: its URI answers the bytes.',
  },
  'rest.DeletedEntity': {
    type: 'object',
    properties: { __STAMP: { const: 0 } },
    required: ['__STAMP'],
    additionalProperties: false,
    description: 'A member of an entity set deleted since the set was made.',
  },
  'rest.KeyReference': {
    ...object({ __KEY: { type: ['string', 'number'] } }, ['__KEY']),
    description: 'An entity named by its key.',
  },
  'rest.UploadReference': {
    ...object({ ID: text('what `POST /rest/$upload` answered') }, ['ID']),
    description: 'A file uploaded before, by its ID.',
  },
  'rest.Base64Value': {
    ...object(
      {
        $base64: { type: 'string', contentEncoding: 'base64' },
        type: text('its media type (a picture without it: read from its bytes)'),
      },
      ['$base64'],
    ),
    description: 'Bytes in the JSON, base64-encoded.',
  },
  'rest.Ok': { ...object({ ok: { const: true } }, ['ok']) },
  'rest.Result': {
    ...object({ result: {} }, ['result']),
    description: '`{"result": …}`',
  },
  'rest.LockResult': {
    ...object({ result: { type: 'boolean' }, __STATUS: ref('rest.Status') }, [
      'result',
      '__STATUS',
    ]),
    description: '`$lock=true|false`: whether the lock was taken (or released), and why not.',
  },
  'rest.ComputeResult': {
    anyOf: [
      { type: ['number', 'string', 'boolean', 'null'], description: 'one keyword: its value' },
      {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: {
            count: { type: 'integer' },
            sum: { type: 'number' },
            average: { type: ['number', 'null'] },
            min: {},
            max: {},
          },
        },
        description: '`$all`: by attribute, `count`, `sum`, `average`, `min`, `max`',
      },
    ],
  },
  'rest.DistinctValues': {
    type: 'array',
    description: '`$distinct=true`: the distinct values, ascending',
  },
  'rest.Dashboard': {
    ...object(
      {
        schema: { type: 'array', items: OPEN },
        rows: {
          type: 'array',
          items: object({ values: { type: 'array' } }, ['values']),
        },
        filtersApplied: { type: 'boolean' },
        __COUNT: { type: 'integer' },
        __FIRST: { type: 'integer' },
      },
      ['schema', 'rows'],
    ),
    description: '`$format=looker` (or `dashboard`): the form a Looker Studio connector reads.',
  },
  'rest.AnyEntity': {
    ...object({ __KEY: { type: ['string', 'number'] }, __STAMP: { type: 'integer' } }, ['__KEY']),
    additionalProperties: true,
    description: "An entity of any dataclass (the dataclass's own schema says which attributes).",
  },
  'rest.AnySelection': {
    ...object(
      {
        __DATACLASS: { type: 'string' },
        __COUNT: { type: 'integer' },
        __ENTITIES: { type: 'array', items: OPEN },
      },
      ['__COUNT', '__ENTITIES'],
    ),
    additionalProperties: true,
    description: 'A selection of entities of any dataclass, in its envelope.',
  },
  'rest.FunctionResult': {
    anyOf: [ref('rest.Result'), ref('rest.AnyEntity'), ref('rest.AnySelection')],
    description:
      'What a function returns: an entity or an entity selection in its read form (`$attributes`, `$top`, `$skip` apply), anything else as `{"result": …}`.',
  },
  'rest.SelectionParameter': {
    ...object(
      {
        __DATASET: text('the entity set'),
        __ENTITIES: { const: true },
      },
      ['__DATASET', '__ENTITIES'],
    ),
    description: 'An entity selection passed to a function: an entity set by its id.',
  },
  'rest.Catalog': {
    ...object(
      {
        __UNIQID: { type: 'string' },
        __BASEID: { type: ['string', 'null'] },
        __NAME: { type: 'string' },
        properties: OPEN,
        methods: { type: 'array', items: OPEN },
        singletons: { type: 'array', items: OPEN },
        dataClasses: { type: 'array', items: OPEN },
      },
      ['__NAME', 'dataClasses'],
    ),
    description: "4D's catalog: the exposed dataclasses (and, with `$all`, their attributes).",
  },
  'rest.CatalogDataClass': {
    ...object(
      {
        name: { type: 'string' },
        dataURI: { type: 'string' },
        attributes: { type: 'array', items: OPEN },
        methods: { type: 'array', items: OPEN },
        key: { type: 'array', items: object({ name: { type: 'string' } }, ['name']) },
      },
      ['name', 'attributes', 'key'],
    ),
    description: 'One dataclass in detail, as `$catalog/$all` lists it.',
  },
}

/** A query parameter of 4D's, under the component name `name`. */
const query = (name: string, schema: Schema, description: string): Schema => ({
  name,
  in: 'query',
  schema,
  description,
})
const flag = (name: string, description: string): Schema =>
  query(name, { type: 'boolean' }, description)

/** The query parameters, by component name (`$` is not allowed in one). */
export const PARAMETERS: Readonly<Record<string, Schema>> = {
  filter: query(
    '$filter',
    { type: 'string' },
    "4D's query (`lastName=:1 and salary>1000`); quotes around it are optional",
  ),
  params: query(
    '$params',
    { type: 'string' },
    'the values of `:1`, `:2`… as a JSON array text (`["Silva"]`)',
  ),
  orderby: query('$orderby', { type: 'string' }, '`attribute [asc|desc], …`'),
  top: query(
    '$top',
    { type: 'integer', minimum: 0 },
    "at most this many entities (default: the dataclass's page size, 100)",
  ),
  limit: query('$limit', { type: 'integer', minimum: 0 }, 'the same as `$top`'),
  skip: query('$skip', { type: 'integer', minimum: 0 }, 'start after this many'),
  attributes: query(
    '$attributes',
    { type: 'string' },
    'the attributes to write, comma-separated; `relation.*` or `relation.name` writes a relation out',
  ),
  expand: query('$expand', { type: 'string' }, 'relations to write out, comma-separated'),
  asArray: flag('$asArray', 'a bare array of entities, without the envelope'),
  format: query(
    '$format',
    { enum: ['json', 'looker', 'dashboard'] },
    '`looker` (or `dashboard`): the Looker Studio form',
  ),
  queryplan: flag('$queryplan', "adds the query's plan (`__queryPlan`, `__extendedQueryPlan`)"),
  querypath: flag('$querypath', 'adds the path the query took, with counts'),
  entityset: query(
    '$method',
    { enum: ['entityset'] },
    '`entityset` keeps the whole selection as an entity set (`__ENTITYSET`)',
  ),
  timeout: query(
    '$timeout',
    { type: 'integer', minimum: 0 },
    "the entity set's lifetime, in seconds (7200)",
  ),
  savedfilter: query(
    '$savedfilter',
    { type: 'string' },
    'the filter to remake the entity set with once it is gone',
  ),
  savedorderby: query(
    '$savedorderby',
    { type: 'string' },
    'the order to remake the entity set with once it is gone',
  ),
  compute: query(
    '$compute',
    { enum: ['$all', 'count', 'sum', 'average', 'min', 'max'] },
    'an aggregate of the attribute',
  ),
  distinct: flag('$distinct', 'the distinct values of the attribute'),
  lock: flag(
    '$lock',
    "`true` locks the entity for the session, `false` unlocks it; the reply is then a lock's result",
  ),
  atomic: flag('$atomic', 'the whole body in one transaction: all saved, or nothing'),
  atOnce: flag('$atOnce', 'the same as `$atomic`'),
  logicOperator: query(
    '$logicOperator',
    { enum: ['AND', 'OR', 'EXCEPT', 'INTERSECT'] },
    'combines the set with `$otherCollection`; INTERSECT answers true or false',
  ),
  otherCollection: query('$otherCollection', { type: 'string' }, 'the other entity set'),
  clean: flag('$clean', 'with `$method=entityset`: a new set without the members deleted since'),
  release: query(
    '$method',
    { enum: ['entityset', 'release'] },
    '`release` drops the set (`{"ok": true}`); `entityset` keeps the result as a new one',
  ),
}

/** The error replies, by status: each an `__ERROR` body. */
const ERROR_REPLIES: Readonly<Record<number, string>> = {
  400: 'The request is malformed, or a value is refused (the `__ERROR` says which).',
  401: 'The session must log in first (`forceLogin`).',
  402: 'No more sessions can be opened.',
  403: 'The session may not do this (its roles or the `authorize` hook).',
  404: 'A dataclass, attribute, entity, entity set or function that does not exist for REST.',
  405: 'Not with this method (`Allow` says which).',
  409: 'The entity changed since it was read, is locked by another session, or a unique value is taken.',
  413: 'The body is larger than the server accepts.',
  415: 'The body is not JSON (nor bytes where a file is expected).',
  422: "The application's code refused it: the function threw (its message and code).",
  429: 'Over a quota (requests, bytes, sessions, entity sets, logins): try again later (`Retry-After`).',
  500: 'A bug: the server could not answer.',
  501: 'A feature of the real server this version does not have.',
  503: 'The server will not answer this now: try again (`Retry-After`).',
  504: 'A function took longer than its time limit.',
}

const errorReply = (description: string): Schema => ({
  description,
  content: { 'application/json': { schema: ref('rest.Error') } },
})

/** The `responses` components: one error reply a status, and `error` for any other. */
export const RESPONSES: Readonly<Record<string, Schema>> = {
  ...Object.fromEntries(
    Object.entries(ERROR_REPLIES).map(([status, description]) => [
      `error${status}`,
      errorReply(description),
    ]),
  ),
  error: errorReply('Any other error, with its `__ERROR`.'),
}

/**
 * The error replies of an operation: those of `statuses`, 429 and any other (`default`). Every
 * operation may answer 429: the web server's quotas refuse a request before its route is known.
 */
export function errorReplies(statuses: readonly number[]): Record<string, Schema> {
  const out: Record<string, Schema> = {}
  for (const status of [...statuses, 429])
    out[String(status)] = { $ref: `#/components/responses/error${status}` }
  out.default = { $ref: '#/components/responses/error' }
  return out
}

/** A JSON reply with `schema`. */
export const json = (description: string, schema: Schema): Schema => ({
  description,
  content: { 'application/json': { schema } },
})

/** A `$ref` to a parameter component. */
export const param = (name: string): Schema => ({ $ref: `#/components/parameters/${name}` })
