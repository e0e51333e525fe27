/**
 * @module The paths of the exposed class functions (resources/functions.ts calls them), each with
 * its parameters as the function declares them (`params`, functions/define.ts): a POST whose body
 * is the JSON array of the arguments, and a GET with `$params` for a function declared `onHTTPGet`.
 *
 * | function of | path |
 * |---|---|
 * | the datastore | `/rest/$catalog/{fn}` |
 * | a dataclass, its entity selections | `/rest/{dataClass}/{fn}` (a selection's with `$filter`, `$orderby`; also after `/$entityset/{id}`) |
 * | its entities | `/rest/{dataClass}({key})/{fn}` |
 * | a singleton | `/rest/$singleton/{singleton}/{fn}` |
 *
 * What a function returns is not declared: the reply is described as any of its forms.
 */
import type { DataClassDef, FunctionInfo, FunctionKind, ParamSpec } from '@entistore/core'
import { keyParameter, type PathContext, type Paths } from './dataclass-paths.js'
import { errorReplies, json, param } from './shared-schemas.js'
import { nullable, ref, type Schema } from './value-schemas.js'

/** What the function paths need: the exposed functions the description shows. */
export interface FunctionContext extends PathContext {
  readonly functions: (kind: FunctionKind, owner?: string) => readonly FunctionInfo[]
  /** The dataclasses the description shows, by name. */
  readonly dataClasses: readonly DataClassDef[]
  readonly singletons: readonly string[]
}

const CALLS = [400, 401, 403, 404, 405, 413, 415, 422, 504]

/** What shapes a result that is an entity or an entity selection, as a read's reply. */
const SHAPING = ['attributes', 'expand', 'top', 'limit', 'skip', 'entityset'].map(param)

/** `$params` as the values of `$filter`'s placeholders. */
const FILTER_VALUES = param('params')

/** A parameter's schema: its declared type, or null (a function decides what a missing value means). */
function parameterSchema(ctx: FunctionContext, spec: ParamSpec): Schema {
  if (typeof spec === 'object') {
    if ('selection' in spec) return nullable(ref('rest.SelectionParameter'))
    const dc = ctx.shown(spec.entity)
    return nullable({
      type: 'object',
      properties: {
        __DATACLASS: { const: spec.entity },
        __ENTITY: { const: true },
        __KEY: { type: ['string', 'number'], description: 'without it, a new entity' },
      },
      required: ['__DATACLASS', '__ENTITY'],
      description: `a ${spec.entity} entity${dc ? '; attribute values given are set on it, unsaved' : ''}`,
    })
  }
  switch (spec) {
    case 'any':
      return {}
    case 'date':
      return nullable({ type: 'string', description: 'a date or date-time, as a write takes it' })
    default:
      return nullable({ type: spec })
  }
}

/** The JSON array of the arguments. */
function argumentsSchema(ctx: FunctionContext, fn: FunctionInfo): Schema {
  if (fn.params === undefined) return { type: 'array', description: 'the arguments' }
  return {
    type: 'array',
    prefixItems: fn.params.map((spec) => parameterSchema(ctx, spec)),
    items: false,
    description: `the arguments: ${fn.params.map(specText).join(', ') || 'none'}`,
  }
}

const specText = (spec: ParamSpec): string =>
  typeof spec === 'string' ? spec : 'entity' in spec ? spec.entity : `${spec.selection} selection`

/** The operations of one function at its path: POST, and GET when it is declared `onHTTPGet`. */
function operations(
  ctx: FunctionContext,
  fn: FunctionInfo,
  id: string,
  tag: string,
  before: readonly Schema[],
): Record<string, Schema> {
  const args = argumentsSchema(ctx, fn)
  const summary = `Calls ${fn.owner === '' ? '' : `${fn.owner}.`}${fn.name} (a ${KIND_TEXT[fn.kind]} function)`
  const description = fn.impl
    ? undefined
    : 'Declared by the model without code: answers 501 until code is given for it.'
  const responses = {
    200: json("The function's result.", ref('rest.FunctionResult')),
    ...errorReplies(fn.impl ? CALLS : [...CALLS, 501]),
  }
  const common = { tags: [tag], summary, ...(description ? { description } : {}) }
  const out: Record<string, Schema> = {
    post: {
      operationId: id,
      ...common,
      parameters: [...before, ...SHAPING],
      requestBody: { required: false, content: { 'application/json': { schema: args } } },
      responses,
    },
  }
  if (fn.onHTTPGet) {
    // A GET has one `$params` (url/params.ts): the arguments, and also the values of the
    // `$filter` that narrows a selection function's selection. Declared once, as the arguments.
    const narrowing = before.some((p) => p.$ref === FILTER_VALUES.$ref)
    out.get = {
      operationId: `${id}_get`,
      ...common,
      parameters: [
        ...before.filter((p) => p.$ref !== FILTER_VALUES.$ref),
        ...SHAPING,
        {
          name: '$params',
          in: 'query',
          content: { 'application/json': { schema: args } },
          description: narrowing
            ? "the arguments, a JSON array; the same array gives `$filter`'s `:1`, `:2`…"
            : 'the arguments, a JSON array',
        },
      ],
      responses,
    }
  }
  return out
}

const KIND_TEXT: Readonly<Record<FunctionKind, string>> = {
  dataStore: 'datastore',
  dataClass: 'dataclass',
  entity: 'entity',
  entitySelection: 'entity selection',
  singleton: 'singleton',
}

/** The paths of every exposed function the description shows. */
export function functionPaths(ctx: FunctionContext): Paths {
  const base = ctx.base
  const paths: Paths = {}
  for (const fn of ctx.functions('dataStore'))
    paths[`${base}/$catalog/${fn.name}`] = operations(
      ctx,
      fn,
      `dataStore_${fn.name}`,
      'datastore',
      [],
    )
  for (const dc of ctx.dataClasses) {
    const name = dc.name
    const selection = ctx.functions('entitySelection', name)
    const narrowing = [param('filter'), FILTER_VALUES, param('orderby')]
    for (const fn of selection) {
      const id = `${name}_${fn.name}`
      paths[`${base}/${name}/${fn.name}`] = operations(ctx, fn, id, name, narrowing)
      paths[`${base}/${name}/$entityset/{entitySetId}/${fn.name}`] = operations(
        ctx,
        fn,
        `${id}_onEntitySet`,
        name,
        [
          { name: 'entitySetId', in: 'path', required: true, schema: { type: 'string' } },
          ...narrowing,
        ],
      )
    }
    // `/rest/Employee/{fn}` calls the selection's function first, as 4D does: a dataclass
    // function of the same name is not reachable there.
    for (const fn of ctx.functions('dataClass', name))
      if (!selection.some((s) => s.name === fn.name))
        paths[`${base}/${name}/${fn.name}`] = operations(ctx, fn, `${name}_${fn.name}`, name, [])
    for (const fn of ctx.functions('entity', name))
      paths[`${base}/${name}({key})/${fn.name}`] = operations(
        ctx,
        fn,
        `${name}_entity_${fn.name}`,
        name,
        [keyParameter(dc)],
      )
  }
  for (const singleton of ctx.singletons)
    for (const fn of ctx.functions('singleton', singleton))
      paths[`${base}/$singleton/${singleton}/${fn.name}`] = operations(
        ctx,
        fn,
        `${singleton}_${fn.name}`,
        `singleton ${singleton}`,
        [],
      )
  return paths
}
