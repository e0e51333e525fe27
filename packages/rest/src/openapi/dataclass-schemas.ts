/**
 * @module The schemas of one dataclass, in the forms its replies and requests take:
 *
 * | schema | what |
 * |---|---|
 * | `Employee` | an entity as a read writes it (`__entityModel`, `__KEY`, `__STAMP`, its attributes) |
 * | `Employee.selection` | a selection's envelope (`__COUNT`, `__FIRST`, `__SENT`, `__ENTITIES`…) |
 * | `Employee.related` | a relatedEntities attribute written out inside another entity |
 * | `Employee.plain` | an entity of `$asArray=true`: the key as its own JSON type, no relations |
 * | `Employee.input` | an entity a write sends (`$method=update`, `insert`) |
 * | `Employee.written` | an entity a write answers (`__STATUS`, `uri`, the day of `__TIMESTAMP`) |
 *
 * Every attribute is optional: `$attributes` names which are written, and an attribute the
 * session may not read is left out. An entity set keeps a member deleted since as `{"__STAMP": 0}`.
 */
import type { AttributeDef, DataClassDef } from '@entistore/core'
import {
  attributeNote,
  attributeRead,
  attributeWrite,
  OPEN,
  readValue,
  ref,
  writeValue,
  type AttributeContext,
  type Schema,
} from './value-schemas.js'

/** What a dataclass's schemas need: the attributes the description shows, and the rest. */
export interface DataClassView extends AttributeContext {
  readonly attributes: (dc: DataClassDef) => readonly AttributeDef[]
}

const STAMP: Schema = { type: 'integer', minimum: 0, description: "the entity's version" }
const TIMESTAMP: Schema = {
  type: 'string',
  format: 'date-time',
  description: 'when the entity was last saved',
}
const KEY_TEXT: Schema = { type: 'string', description: 'the primary key, as text' }

/** `{ name: schema }` for each attribute that `form` gives a schema, with its note. */
function attributeProperties(
  view: DataClassView,
  dc: DataClassDef,
  form: typeof attributeRead,
): Record<string, Schema> {
  const out: Record<string, Schema> = {}
  for (const attr of view.attributes(dc)) {
    const schema = form(view, dc, attr)
    if (schema !== undefined) out[attr.name] = { ...schema, description: noteOf(schema, attr) }
  }
  return out
}

/** The attribute's note, after the value's own (`a duration, in milliseconds`) when it has one. */
function noteOf(schema: Schema, attr: AttributeDef): string {
  const own = typeof schema.description === 'string' ? `: ${schema.description}` : ''
  return attributeNote(attr) + own
}

const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
})

/** An entity, or the `{"__STAMP": 0}` an entity set keeps for one deleted since. */
const member = (name: string): Schema => ({ anyOf: [ref(name), ref('rest.DeletedEntity')] })

/** Every schema of `dc`, by name. */
export function dataClassSchemas(view: DataClassView, dc: DataClassDef): Record<string, Schema> {
  const name = dc.name
  const read = attributeProperties(view, dc, attributeRead)
  const named = { const: name, description: 'the dataclass' }
  const page = {
    __GlobalStamp: { type: 'integer', description: "the datastore's global stamp" },
    __COUNT: { type: 'integer', minimum: 0, description: 'how many entities are selected' },
    __SENT: { type: 'integer', minimum: 0, description: 'how many are in `__ENTITIES`' },
    __FIRST: { type: 'integer', minimum: 0, description: 'the position of the first (`$skip`)' },
    __ENTITIES: { type: 'array', items: member(name) },
  }
  const plainKey = readValue(dc.key.type, dc.key)
  return {
    [name]: {
      ...object(
        {
          __entityModel: named,
          __DATACLASS: named,
          __KEY: KEY_TEXT,
          __TIMESTAMP: TIMESTAMP,
          __STAMP: STAMP,
          ...read,
        },
        ['__KEY', '__STAMP'],
      ),
      description: `A ${name} entity. \`__entityModel\` and \`__DATACLASS\` are written when it is read alone; \`$attributes\` chooses the attributes.`,
    },
    [`${name}.selection`]: {
      ...object(
        {
          __ENTITYSET: {
            type: 'string',
            description: 'the URI of the entity set `$method=entityset` made',
          },
          __queryPlan: { ...OPEN, description: '`$queryplan=true`' },
          __extendedQueryPlan: { ...OPEN, description: '`$queryplan=true`' },
          __queryPath: { ...OPEN, description: '`$querypath=true`' },
          __extendedQueryPath: { ...OPEN, description: '`$querypath=true`' },
          __DATACLASS: named,
          __entityModel: named,
          ...page,
        },
        ['__DATACLASS', '__COUNT', '__FIRST', '__ENTITIES'],
      ),
      description: `A page of ${name} entities, in the selection's envelope.`,
    },
    [`${name}.related`]: {
      ...object({ __ENTITYSET: { type: 'string', description: "the relation's URI" }, ...page }, [
        '__COUNT',
        '__ENTITIES',
      ]),
      description: `${name} entities written out in another entity: at most the first page.`,
    },
    [`${name}.plain`]: {
      ...object(
        {
          __KEY: { ...plainKey, description: 'the primary key, as its own JSON type' },
          __STAMP: STAMP,
          ...read,
        },
        ['__STAMP'],
      ),
      description: `A ${name} entity of \`$asArray=true\`: relations only when \`$attributes\` or \`$expand\` write them out.`,
    },
    [`${name}.input`]: {
      ...object({
        __KEY: {
          anyOf: [KEY_TEXT, writeValue(dc.key.type, dc.key)],
          description: 'the key of the entity to update; without it, a new entity',
        },
        __STAMP: {
          ...STAMP,
          description: 'the stamp read: the update is refused (409) if the entity changed since',
        },
        // What a read writes and a write ignores: an entity read can be posted back whole.
        __entityModel: { type: 'string' },
        __DATACLASS: { type: 'string' },
        __TIMESTAMP: { type: 'string' },
        uri: { type: 'string' },
        ...attributeProperties(view, dc, attributeWrite),
      }),
      description: `A ${name} entity to save: the attributes given are written, the others kept (or null for a new one).`,
    },
    [`${name}.written`]: {
      ...object({
        __STATUS: ref('rest.Status'),
        __KEY: KEY_TEXT,
        __STAMP: STAMP,
        uri: { type: 'string', description: "the saved entity's URI" },
        __TIMESTAMP: {
          type: 'string',
          pattern: '^!!\\d{4}-\\d{2}-\\d{2}!!$',
          description: 'the day of the save, between `!!`',
        },
        ...read,
        __ERROR: ref('rest.ErrorList'),
      }),
      description: `A ${name} entity as a write answers it: saved, or refused with its \`__STATUS\` and \`__ERROR\`.`,
    },
  }
}
