/**
 * @module The paths of one dataclass: its selection (`/rest/Employee`, read and written), one entity
 * by key (`/rest/Employee({key})`) or by a unique attribute (`/rest/Employee:{attribute}({value})`),
 * the aggregates of an attribute (`/rest/Employee/{attribute}`), its entity sets, and, for each
 * relation and each picture or BLOB, the path below an entity that reads it.
 */
import type { AttributeDef, DataClassDef } from '@entistore/core'
import { errorReplies, json, param } from './shared-schemas.js'
import type { DataClassView } from './dataclass-schemas.js'
import { readValue, ref, type Schema } from './value-schemas.js'

/** The paths of the description, each with its operations by method. */
export type Paths = Record<string, Record<string, Schema>>

/** What the paths need beyond the dataclass schemas. */
export interface PathContext extends DataClassView {
  /** `/rest` */
  readonly base: string
}

const READS = [400, 401, 403, 404]
const WRITES = [400, 401, 403, 404, 409, 413, 415]

/** The selection's read parameters, for a dataclass, a relation or an entity set. */
const PAGE = ['filter', 'params', 'orderby', 'top', 'limit', 'skip', 'attributes', 'expand']
const FORMS = ['asArray', 'format', 'queryplan', 'querypath']
const KEEP = ['timeout', 'savedfilter', 'savedorderby']

/** The `{key}` of a path, of the key's own type. */
export const keyParameter = (dc: DataClassDef): Schema => ({
  name: 'key',
  in: 'path',
  required: true,
  schema: readValue(dc.key.type, dc.key),
  description: `the ${dc.key.name} of the ${dc.name} (\`[key]\` works too)`,
})

/** Every form a read of a selection of `name` may take. */
const selectionForms = (name: string): Schema[] => [
  ref(`${name}.selection`),
  { type: 'array', items: { anyOf: [ref(`${name}.plain`), ref('rest.DeletedEntity')] } },
  ref('rest.Dashboard'),
]

const selectionReply = (name: string): Schema =>
  json(`A page of ${name} entities (\`$asArray\`: a bare array; \`$format=looker\`: rows).`, {
    anyOf: selectionForms(name),
  })

const entityReply = (name: string): Schema =>
  json(`The ${name} entity (with \`$lock\`: the lock's result).`, {
    anyOf: [ref(name), ref('rest.LockResult')],
  })

const params = (...names: string[]): Schema[] => names.map(param)

const methodParameter = (values: readonly string[], required: boolean): Schema => ({
  name: '$method',
  in: 'query',
  required,
  schema: { enum: values },
})

/** The paths of dataclass `dc`. */
export function dataClassPaths(ctx: PathContext, dc: DataClassDef): Paths {
  const name = dc.name
  const at = `${ctx.base}/${name}`
  const tags = [name]
  const key = keyParameter(dc)
  const attributes = ctx.attributes(dc)
  const paths: Paths = {
    [at]: {
      get: {
        operationId: `${name}_list`,
        tags,
        summary: `Reads ${name} entities`,
        description: `The entities \`$filter\` selects (all without it), in \`$orderby\`'s order, a page of them (\`$skip\`, \`$top\`); \`$method=entityset\` keeps the whole selection as an entity set.`,
        parameters: params(...PAGE, ...FORMS, 'entityset', ...KEEP),
        responses: { 200: selectionReply(name), ...errorReplies(READS) },
      },
      post: {
        operationId: `${name}_write`,
        tags,
        summary: `Creates, updates or deletes ${name} entities`,
        description:
          '`$method=update` (or `insert`: new entities only) saves the entity or the array of entities in the body: an item with `__KEY` updates (checked against its `__STAMP` when given), one without creates. `$method=delete` deletes the entities `$filter` selects, or those whose keys the body lists. `$atomic=true`: all or nothing.',
        parameters: [
          methodParameter(['update', 'insert', 'delete'], false),
          ...params('filter', 'params', 'atomic', 'atOnce'),
        ],
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: {
                anyOf: [
                  ref(`${name}.input`),
                  { type: 'array', items: ref(`${name}.input`) },
                  { type: 'array', items: ref('rest.KeyReference') },
                ],
              },
            },
          },
        },
        responses: {
          200: json(
            'The entity saved; for an array, each item saved or refused (`__ENTITIES`); a delete, `{"ok": true}`.',
            {
              anyOf: [
                ref(`${name}.written`),
                {
                  type: 'object',
                  properties: { __ENTITIES: { type: 'array', items: ref(`${name}.written`) } },
                  required: ['__ENTITIES'],
                  additionalProperties: false,
                },
                ref('rest.Ok'),
              ],
            },
          ),
          ...errorReplies(WRITES),
        },
      },
    },
    [`${at}({key})`]: {
      get: {
        operationId: `${name}_get`,
        tags,
        summary: `Reads one ${name}`,
        parameters: [key, ...params('attributes', 'expand', 'lock')],
        responses: { 200: entityReply(name), ...errorReplies(READS) },
      },
      post: {
        operationId: `${name}_delete`,
        tags,
        summary: `Deletes one ${name}`,
        parameters: [key, methodParameter(['delete'], true)],
        responses: { 200: json('Deleted.', ref('rest.Ok')), ...errorReplies(WRITES) },
      },
    },
  }
  const lookups = attributes.filter((a) => a.kind === 'storage' && a !== dc.key)
  if (lookups.length > 0)
    paths[`${at}:{attribute}({value})`] = {
      get: {
        operationId: `${name}_lookup`,
        tags,
        summary: `Reads the ${name} whose attribute has a value`,
        description: 'Meant for a unique attribute: when several entities match, the first by key.',
        parameters: [
          {
            name: 'attribute',
            in: 'path',
            required: true,
            schema: { enum: lookups.map((a) => a.name) },
          },
          { name: 'value', in: 'path', required: true, schema: { type: 'string' } },
          ...params('attributes', 'expand', 'lock'),
        ],
        responses: { 200: entityReply(name), ...errorReplies(READS) },
      },
    }
  paths[`${at}/{attribute}`] = {
    get: {
      operationId: `${name}_attribute`,
      tags,
      summary: `Aggregates or distinct values of a ${name} attribute`,
      description:
        'With `$compute`, an aggregate of the attribute over the selection `$filter` makes; with `$distinct=true`, its distinct values; with neither, the selection with only the attributes named (a comma-separated list, as `$attributes`). A path into an object attribute is written with dots (`extra.city`).',
      parameters: [
        {
          name: 'attribute',
          in: 'path',
          required: true,
          schema: { type: 'string' },
          description: `an attribute of ${name}, or several separated by commas`,
        },
        ...params('compute', 'distinct', 'filter', 'params', 'orderby', 'skip', 'top', 'limit'),
      ],
      responses: {
        200: json('The aggregate, the distinct values, or the selection.', {
          anyOf: [ref('rest.ComputeResult'), ref('rest.DistinctValues'), ref(`${name}.selection`)],
        }),
        ...errorReplies(READS),
      },
    },
  }
  const set = { name: 'entitySetId', in: 'path', required: true, schema: { type: 'string' } }
  paths[`${at}/$entityset/{entitySetId}`] = {
    get: {
      operationId: `${name}_entitySet`,
      tags,
      summary: `Reads a ${name} entity set`,
      description:
        'The set `__ENTITYSET` named, with any read parameter; `$method=release` drops it; `$logicOperator` with `$otherCollection` combines two sets. A set that is gone is 404 (1802) unless `$savedfilter` remakes it.',
      parameters: [
        set,
        ...params(
          ...PAGE,
          ...FORMS,
          'release',
          ...KEEP,
          'logicOperator',
          'otherCollection',
          'clean',
        ),
      ],
      responses: {
        200: json('The set, `{"ok": true}` for a release, or true/false for INTERSECT.', {
          anyOf: [...selectionForms(name), ref('rest.Ok'), { type: 'boolean' }],
        }),
        ...errorReplies(READS),
      },
    },
    post: {
      operationId: `${name}_entitySetDelete`,
      tags,
      summary: `Deletes the entities of a ${name} entity set`,
      parameters: [set, methodParameter(['delete'], true)],
      responses: { 200: json('Deleted.', ref('rest.Ok')), ...errorReplies(WRITES) },
    },
  }
  for (const attr of attributes) Object.assign(paths, attributePaths(ctx, dc, attr, key))
  return paths
}

/** The path below an entity that reads a relation, or a picture or BLOB (and writes its bytes). */
function attributePaths(
  ctx: PathContext,
  dc: DataClassDef,
  attr: AttributeDef,
  key: Schema,
): Paths {
  const at = `${ctx.base}/${dc.name}({key})/${attr.name}`
  const id = `${dc.name}_${attr.name}`
  const tags = [dc.name]
  if (attr.kind === 'relatedEntity' && ctx.shown(attr.target))
    return {
      [at]: {
        get: {
          operationId: id,
          tags,
          summary: `Reads the ${attr.target} of a ${dc.name} (\`${attr.name}\`)`,
          parameters: [key, ...params('attributes', 'expand')],
          responses: {
            200: json(`The related ${attr.target}, or null.`, {
              anyOf: [ref(attr.target), { type: 'null' }],
            }),
            ...errorReplies(READS),
          },
        },
      },
    }
  if (attr.kind === 'relatedEntities' && ctx.shown(attr.target))
    return {
      [at]: {
        get: {
          operationId: id,
          tags,
          summary: `Reads the ${attr.target} entities of a ${dc.name} (\`${attr.name}\`)`,
          parameters: [key, ...params(...PAGE, 'asArray', 'entityset', 'timeout')],
          responses: { 200: selectionReply(attr.target), ...errorReplies(READS) },
        },
      },
    }
  if (attr.kind !== 'storage' || (attr.type !== 'image' && attr.type !== 'blob')) return {}
  const image = attr.type === 'image'
  return {
    [at]: {
      get: {
        operationId: id,
        tags,
        summary: `Reads the ${image ? 'picture' : 'BLOB'} \`${attr.name}\` of a ${dc.name}`,
        description: image
          ? '`$imageformat` converts it (`best`, `png`, `jpeg`, `gif`, `tiff`); a null picture, or one no format serves, answers `{}`. `ETag` and `If-None-Match` work.'
          : '`$binary=true&$expand={attribute}` answers the bytes as an attachment.',
        parameters: [
          key,
          ...(image
            ? [{ name: '$imageformat', in: 'query', schema: { type: 'string' } }]
            : [{ name: '$binary', in: 'query', schema: { type: 'boolean' } }]),
          { name: '$expand', in: 'query', schema: { type: 'string' } },
          { name: '$version', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          200: {
            description: 'The bytes, with their media type.',
            content: image
              ? {
                  'image/*': { schema: {} },
                  'application/json': { schema: { type: 'object', maxProperties: 0 } },
                }
              : { 'application/octet-stream': { schema: {} } },
          },
          304: { description: 'Not modified (`If-None-Match`).' },
          ...errorReplies(READS),
        },
      },
      post: {
        operationId: `${id}_upload`,
        tags,
        summary: `Writes the ${image ? 'picture' : 'BLOB'} \`${attr.name}\` of a ${dc.name} from the bytes sent`,
        parameters: [
          key,
          {
            name: '$rawPict',
            in: 'query',
            schema: { type: 'string' },
            description: "the picture's media type (`image/png`); else read from its bytes",
          },
        ],
        requestBody: { required: true, content: { 'application/octet-stream': { schema: {} } } },
        responses: { 200: json('Written.', ref('rest.Ok')), ...errorReplies(WRITES) },
      },
    },
  }
}
