/**
 * @module ORDA's property access (`entity.lastName`, `draft.salary = 5200`, `selection.lastName`,
 * `ds.Employee.lastName`): each dataclass gets its own subclasses of Entity, EntityDraft,
 * EntitySelection and DataClass whose prototypes carry an accessor for each of its attributes. The accessors are
 * on the prototype, one set a dataclass, so a stored entity costs no byte more than before, and
 * code that reads with `get(name)` runs as it did: nothing here is on its path.
 *
 * A name an object already has (a member such as `key`, `get`, `length`, `name`, or one of
 * Object's own such as `toString`) is not given an accessor: the member wins, and the attribute is
 * read with `get(name)`. `propertyNames` says which names a dataclass gets.
 *
 * The base classes are given by the caller (data-class.ts), so that this file imports none of them
 * at run time and stays out of orda/'s import circle.
 */
import { fail } from '../../errors/datastore-error.js'
import type { AttributeDef, DataClassDef } from '../../schema/definitions.js'

/** The members an accessor must not hide: on the object itself, or anywhere on its prototypes. */
function takenNames(prototype: object, ownFields: readonly string[]): Set<string> {
  const taken = new Set(ownFields)
  for (let p: object | null = prototype; p !== null; p = Object.getPrototypeOf(p) as object | null)
    for (const name of Object.getOwnPropertyNames(p)) taken.add(name)
  return taken
}

/** The attributes of `def` that get a property on objects made from `prototype`. */
export function propertyNames(
  def: DataClassDef,
  prototype: object,
  ownFields: readonly string[],
): AttributeDef[] {
  const taken = takenNames(prototype, ownFields)
  return def.attributes.filter((a) => !taken.has(a.name))
}

// Any constructor: the classes given take arguments of their own.
type Ctor = abstract new (...args: any[]) => object

/** The accessors of one attribute, made from its definition. */
type Accessors<T> = (attr: AttributeDef) => {
  get(this: T): unknown
  set?(this: T, value: unknown): void
}

/**
 * A subclass of `Base` for dataclass `def`, its prototype holding `accessors(attr)` for each of
 * its attributes whose name `Base`'s objects do not already have (see the module's comment).
 * Its name is the dataclass's (`EmployeeEntity`), as a debugger or a stack shows it.
 */
export function withAttributeProperties<C extends Ctor>(
  Base: C,
  def: DataClassDef,
  suffix: string,
  ownFields: readonly string[],
  accessors: Accessors<InstanceType<C>>,
): C {
  // A class expression keeps `super` and `new.target` right; the name is set after.
  const Sub = class extends (Base as unknown as new (...args: unknown[]) => object) {}
  Object.defineProperty(Sub, 'name', { value: `${def.name}${suffix}` })
  for (const attr of propertyNames(def, Base.prototype as object, ownFields)) {
    const { get, set } = accessors(attr)
    Object.defineProperty(Sub.prototype, attr.name, {
      get,
      set: set ?? readOnly(def.name, attr.name, suffix),
      enumerable: false,
      configurable: false,
    })
  }
  return Sub as unknown as C
}

/**
 * The setter of an object that is not written through its properties: an entity is a saved
 * version shared by every reader, and `entity.price = 10` (which JavaScript would refuse with
 * "Cannot add property price, object is not extensible") says what to write through instead.
 */
function readOnly(dataClass: string, name: string, suffix: string) {
  return function (this: unknown): void {
    fail('PropertyReadOnly', [dataClass, name, suffix])
  }
}
