/**
 * @module How an object of the host (an entity, an entity selection, a class instance with
 * computed properties) shows its members to 4D code, and how it is written in JSON. The runtime
 * reads a plain object's own properties only; any other object answers through these symbols,
 * or shows only its own enumerable properties.
 */

/** `obj[GET_MEMBER](name)`: the value of 4D's `obj.name` (undefined when there is none). */
export const GET_MEMBER: unique symbol = Symbol.for('@entistore/4d:getMember') as never
/** `obj[SET_MEMBER](name, value)`: 4D's `obj.name:=value`. */
export const SET_MEMBER: unique symbol = Symbol.for('@entistore/4d:setMember') as never
/** `obj[GET_INDEX](i)`: the value of 4D's `obj[i]` for a number `i` (an entity selection's member). */
export const GET_INDEX: unique symbol = Symbol.for('@entistore/4d:getIndex') as never
/**
 * `obj[MEMBER_READER](name)`: a reader of 4D's `obj.name` for every object like `obj` (an entity
 * of the same dataclass), which answers MISS for any other; undefined when `obj.name` is not one
 * to remember (a member found by more than the model's definition). A site of the generated code
 * keeps the last one (member-sites.ts).
 */
export const MEMBER_READER: unique symbol = Symbol.for('@entistore/4d:memberReader') as never
/**
 * `obj[READ_STEPS](name)`: in a call in slices, 4D's `obj.name` as work in steps, or undefined when
 * the read needs none (it then runs at once). The work's value is the member's (an entity's
 * computed attribute whose getter has steps: the getter's call), or MISS when the read is still
 * to make after it, as anywhere else (an entity's relation to a dataclass whose restrict runs in
 * steps: its answer made ahead).
 */
export const READ_STEPS: unique symbol = Symbol.for('@entistore/4d:readSteps') as never
/**
 * `obj[SET_STEPS](name, value)`: in a call in slices, 4D's `obj.name:=value` as work in steps (an
 * entity's `touched` events), or undefined when it has none: the assignment then runs at once.
 */
export const SET_STEPS: unique symbol = Symbol.for('@entistore/4d:setSteps') as never
/**
 * `obj[MEMBER_FUNCTION](name, classes)`: a finder of the function 4D's `obj.name(…)` calls, for
 * every object like `obj` seen by the class store `classes`, which answers MISS for any other;
 * undefined when the call is not one to remember (a member found by more than the kind and the
 * classes: an attribute, a computed property). A call site keeps the last one (call-sites.ts).
 */
export const MEMBER_FUNCTION: unique symbol = Symbol.for('@entistore/4d:memberFunction') as never
/** What a member reader answers for an object it does not read (and READ_STEPS' work for a read to make). */
export const MISS: unique symbol = Symbol.for('@entistore/4d:miss') as never
/** `obj[TO_JSON]()`: what `JSON Stringify` writes for it (plain values, Dates, Collections…). */
export const TO_JSON: unique symbol = Symbol.for('@entistore/4d:toJSON') as never
/**
 * `obj[CLASS_OF]()`: the class of a host object that is not an instance made by `new()` (an
 * entity's `cs.CarEntity` or `4D.Entity`), what `OB Class` and `OB Instance of` answer for it.
 */
export const CLASS_OF: unique symbol = Symbol.for('@entistore/4d:classOf') as never

export interface MemberHost {
  [GET_MEMBER](name: string): unknown
  [SET_MEMBER]?(name: string, value: unknown): void
}

/**
 * A reader of one member for the objects of one kind (the value, or MISS for another object);
 * `ahead` when its reads may have work to run first in a call in slices (READ_STEPS: an entity's
 * relation), which a generator then asks the object for; `into` when it can give an object again.
 */
export type MemberReader = ((target: unknown) => unknown) & {
  readonly ahead?: true
  /**
   * The read, giving `reuse` again pointed at the value when `reuse` is an object this `into` made
   * that nothing else may hold (member-sites.ts `getInto`), or a new one it may give again.
   */
  readonly into?: (target: unknown, reuse: unknown) => unknown
}

export interface ReaderHost {
  [MEMBER_READER](name: string): MemberReader | undefined
}

/** A finder of one member function for the objects of one kind (the function, or MISS). */
export type FunctionFinder = (target: unknown, classes: object) => unknown

export interface FunctionHost {
  [MEMBER_FUNCTION](name: string, classes: object): FunctionFinder | undefined
}

/** An object whose reads or assignments of members run in steps in a call in slices. */
export interface StepsHost {
  [READ_STEPS]?(name: string): Generator<void, unknown, void> | undefined
  [SET_STEPS]?(name: string, value: unknown): Generator<void, void, void> | undefined
}

export interface IndexHost {
  [GET_INDEX](index: number): unknown
}

export interface ClassHost {
  [CLASS_OF](): unknown
}

export interface JsonHost {
  [TO_JSON](): unknown
}

export const isMemberHost = (v: object): v is MemberHost => GET_MEMBER in v
export const isJsonHost = (v: object): v is JsonHost => TO_JSON in v
export const isClassHost = (v: object): v is ClassHost => CLASS_OF in v
export const isIndexHost = (v: object): v is IndexHost => GET_INDEX in v
