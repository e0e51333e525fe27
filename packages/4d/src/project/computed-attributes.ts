/**
 * @module The computed attributes of a project's Entity classes (`Function get / set / query /
 * orderBy name` in `CarEntity.4dm`, docs/ORDA/ordaClasses.md) as core's computed attributes
 * (ComputedAttributeFunctions), so that a read, a write, a filter and a sort of the attribute run
 * the class's code as they run a functions module's `computed`. Each function is run by the
 * project's runner as the caller (its view decides every read and write the code makes), on the
 * datastore of the entity it computes, or of the call or request now running.
 *
 * 4D's `$event` is given as 4D documents it, and read back as 4D reads it: `$event.result`, when
 * the code gives it, wins over the function's result (a getter's Null, a query's or an order's
 * Null for the default scan or sort). A setter writes `This.firstName:=…` on an entity of its
 * own, a draft of the version written (a new one for a create) that is never saved: what it
 * assigns is what core writes, checked as any write of the caller.
 */
import {
  actingNow,
  writingDatastore,
  currentCall,
  datastoreError,
  DatastoreError,
  EntityDraft,
  type ComputedAttributeFunctions,
  type ComputedQueryResult,
  type DataClass,
  type Datastore,
  type EntityView,
} from '@entistore/core'
import type { FunctionNode } from '../ast/files.js'
import { getterStepsAsked } from '../orda/attribute-steps.js'
import type { ClassObject } from '../runtime/context/class-object.js'
import type { FourDFunction } from '../runtime/context/function-object.js'
import { FourDError } from '../runtime/errors/fourd-error.js'
import { running } from '../runtime/values/running.js'
import type { ProjectClass } from './compile-project.js'
import type { ProjectRunner, RunContext } from './project-runner.js'

type Member = 'get' | 'set' | 'query' | 'orderBy'
const MEMBERS: readonly string[] = ['get', 'set', 'query', 'orderBy']

/**
 * The datastore of code core runs outside any entity: the call's, else the request's actor's,
 * else the write's (a setter of a create, in a request that acts as no actor).
 */
function datastoreNow(): Datastore | undefined {
  return (currentCall()?.datastore ?? actingNow()?.scope ?? writingDatastore()) as
    Datastore | undefined
}

/** The datastore an entity (or draft) of core belongs to. */
const datastoreOf = (entity: EntityView | null): Datastore | undefined =>
  (entity as { dataClass?: DataClass } | null)?.dataClass?.datastore ?? datastoreNow()

/**
 * 4D's `$event` of a computed attribute's function (the others' properties are added to it): an
 * object literal, a plain 4D object as the host's records are (kinds.ts), of a shape V8 keeps fast
 * (a getter makes one for each entity read).
 */
const eventObject = (
  attributeName: string,
  dataClassName: string,
  kind: Member,
): Record<string, unknown> => ({ attributeName, dataClassName, kind })

/** What the function answers: `$event.result` when the code gave one, else its result. */
const answerOf = (event: Record<string, unknown>, result: unknown): unknown =>
  Object.hasOwn(event, 'result') ? event['result'] : result

/**
 * Null for an answer that asks for the default (none, Null, an empty text: a function that did
 * not handle the operator it was asked about), else the answer.
 */
const orDefault = (answer: unknown): unknown =>
  answer === undefined || answer === null || answer === '' ? null : answer

/** A query function's answer as core takes it: a text, `{ query, parameters }`, or null. */
function queryAnswer(cx: RunContext, answer: unknown): ComputedQueryResult {
  const value = cx.bridge.fromFourD(orDefault(answer))
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return value as ComputedQueryResult
  const { query } = value as { query?: unknown }
  if (query === '' || query === null || query === undefined) return null
  return value as ComputedQueryResult
}

/** The parameters a member declares, or null for the legacy form that reads `$1`, `$2`. */
const paramsOf = (node: FunctionNode): number | null => node.params?.length ?? null

/**
 * The computed attributes of an Entity class `c` of `dataClass`, for the names `served` keeps
 * (the model's calculated attributes): each attribute with a `Function get`.
 */
export function computedAttributes(
  runner: ProjectRunner,
  c: ProjectClass,
  dataClass: string,
  served: (attribute: string) => boolean,
): Record<string, ComputedAttributeFunctions> {
  const members = new Map<string, Map<Member, FunctionNode>>()
  for (const m of c.ast.members) {
    if (m.kind !== 'Function' || !MEMBERS.includes(m.functionKind)) continue
    const byKind = members.get(m.name) ?? new Map<Member, FunctionNode>()
    byKind.set(m.functionKind as Member, m)
    members.set(m.name, byKind)
  }
  const out: Record<string, ComputedAttributeFunctions> = {}
  for (const [name, byKind] of members) {
    if (!byKind.has('get') || !served(name)) continue
    out[name] = attributeFunctions(runner, c, dataClass, name, byKind)
  }
  return out
}

function attributeFunctions(
  runner: ProjectRunner,
  c: ProjectClass,
  dataClassName: string,
  attributeName: string,
  byKind: ReadonlyMap<Member, FunctionNode>,
): ComputedAttributeFunctions {
  const event = (kind: Member) => eventObject(attributeName, dataClassName, kind)
  // 4D names a computed attribute's functions `Class.name` in its error stack, as class functions.
  const where = `${c.name}.${attributeName}`
  const run = <T>(ds: Datastore | undefined, body: (cx: RunContext) => T): T =>
    runner.run(c, where, (cx) => refusing(body, cx), ds)
  const getParams = paramsOf(byKind.get('get')!)
  // The getter of each datastore's class (the class chain is walked once, not at every read).
  const getters = new WeakMap<ClassObject, FourDFunction>()
  const getterOf = (cx: RunContext): FourDFunction => {
    let fn = getters.get(cx.cls)
    if (fn === undefined) getters.set(cx.cls, (fn = cx.cls.findGetter(attributeName)!))
    return fn
  }
  const paramsFor = (e: Record<string, unknown>): unknown[] => (getParams === 0 ? [] : [e])
  const valueOf = (cx: RunContext, e: Record<string, unknown>, result: unknown): unknown =>
    cx.bridge.resultOf(answerOf(e, result))
  const fns: ComputedAttributeFunctions = {
    // The hot path (every read, scan and sort of the attribute): one closure a read.
    get(entity) {
      return runner.run(
        c,
        where,
        (cx) => {
          try {
            const e = event('get')
            return valueOf(
              cx,
              e,
              cx.rt.invoke(getterOf(cx), cx.bridge.toFourD(entity), paramsFor(e)),
            )
          } catch (error) {
            throw refusalOf(error)
          }
        },
        datastoreOf(entity),
      )
    },
    // The same in steps, which core goes into for a row of a read in slices: one call that loops
    // holds no other client. None while 4D code runs (a read its code makes is called inside it,
    // where nothing stops, and core's row may not be run again through that code), but for a read
    // of that code in steps, which goes into them (orda/attribute-steps.ts `getterAhead`).
    getSteps(entity) {
      if (running() !== undefined && !getterStepsAsked()) return undefined
      const e = event('get')
      return runner.stepsOf(
        c,
        where,
        (cx) => ({ code: getterOf(cx), self: cx.bridge.toFourD(entity), params: paramsFor(e) }),
        (cx, value) => valueOf(cx, e, value),
        refusalOf,
        datastoreOf(entity),
      )
    },
  }
  const set = byKind.get('set')
  if (set !== undefined) {
    const valueType = set.params?.[0]?.type?.path.join('.')
    const noDatastore = () =>
      datastoreError('Internal', [
        `the set function of ${dataClassName}.${attributeName} is 4D code: it runs for a write of a request or a call`,
      ])
    // One call of the setter, made in `cx`: an entity of its own, a draft of the version written
    // (a new one for a create) that is never saved, whose changes are what it assigns.
    const callOf = (cx: RunContext, ds: Datastore, base: EntityView | null, value: unknown) => {
      const draft =
        base === null
          ? new EntityDraft(ds.dataClass(dataClassName), null)
          : (base as unknown as { edit(): EntityDraft }).edit()
      // A new one's constructor event has run: what it set is the create's own to set.
      const constructed: Readonly<Record<string, unknown>> = draft.changes
      const v = cx.bridge.toFourD(value, valueType)
      const e = event('set')
      e['value'] = v
      return { draft, constructed, self: cx.bridge.toFourD(draft), params: [v, e] }
    }
    // What the call assigned, once it has run.
    const assignedOf = ({ draft, constructed }: ReturnType<typeof callOf>) => {
      const assigned: Record<string, unknown> = {}
      for (const [name, written] of Object.entries(draft.changes))
        if (!Object.is(constructed[name], written) || !Object.hasOwn(constructed, name))
          assigned[name] = written
      return assigned
    }
    fns.set = function (this: EntityView | null, value) {
      const base = this
      const ds = datastoreOf(base)
      return run(ds, (cx) => {
        if (ds === undefined) throw noDatastore()
        const call = callOf(cx, ds, base, value)
        cx.rt.invoke(cx.cls.findSetter(attributeName)!, call.self, call.params)
        return assignedOf(call)
      })
    }
    // The same in steps, which core goes into before a write in slices (the REST interface's
    // `$method=update`): one call that loops holds no other client.
    fns.setSteps = function (this: EntityView | null, value) {
      const base = this
      const ds = datastoreOf(base)
      // The write calls `set`, which answers it.
      if (ds === undefined) return undefined
      let call: ReturnType<typeof callOf> | undefined
      return runner.stepsOf(
        c,
        where,
        (cx) => {
          call = callOf(cx, ds, base, value)
          return { code: cx.cls.findSetter(attributeName), self: call.self, params: call.params }
        },
        () => assignedOf(call!),
        refusalOf,
        ds,
      )
    }
  }
  if (byKind.has('query'))
    fns.query = (e) =>
      run(datastoreNow(), (cx) => {
        const asked = event('query')
        asked['value'] = cx.bridge.toFourD(e.value)
        asked['operator'] = e.operator
        const answer = cx.rt.invoke(ordaMember(cx, 'query', attributeName), null, [asked])
        return queryAnswer(cx, answerOf(asked, answer))
      })
  if (byKind.has('orderBy'))
    fns.orderBy = (e) =>
      run(datastoreNow(), (cx) => {
        const asked = event('orderBy')
        asked['operator'] = e.operator
        asked['descending'] = e.descending
        const result = cx.rt.invoke(ordaMember(cx, 'orderBy', attributeName), null, [asked])
        const answer = orDefault(answerOf(asked, result))
        return answer === null ? null : (cx.bridge.fromFourD(answer) as string)
      })
  return fns
}

/** `body(cx)`, a refusal of core it meets thrown as core's (refusalOf). */
function refusing<T>(body: (cx: RunContext) => T, cx: RunContext): T {
  try {
    return body(cx)
  } catch (e) {
    throw refusalOf(e)
  }
}

/**
 * A refusal of core met by the code and not caught (`This.employer.revenues` for who may not read
 * it) leaves as core's own error, as a functions module's code throws it: the REST interface
 * leaves out the attribute of a getter refused so (rest's computed-value.ts), as it does for a
 * module's getter. Any other error is the 4D error stack.
 */
function refusalOf(e: unknown): unknown {
  const cause = FourDError.is(e) ? (e as Error).cause : undefined
  return DatastoreError.is(cause) && cause.category === 'forbidden' ? cause : e
}

/** The class's `Function query name` or `Function orderBy name`, compiled. */
function ordaMember(cx: RunContext, kind: 'query' | 'orderBy', name: string) {
  const member = cx.cls.definition.orda.find((m) => m.kind === kind && m.name === name)
  return member!.fn!
}
