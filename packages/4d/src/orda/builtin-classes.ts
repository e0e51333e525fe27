/**
 * @module The ORDA classes 4D code extends (`Class extends Entity`, docs/ORDA/ordaClasses.md):
 * `DataStoreImplementation`, `DataClass`, `Entity`, `EntitySelection`, each a class object whose
 * functions are 4D's members, so that a project's class finds them up its chain (`This.save()`,
 * `Super.query(…)`) as it finds its own.
 */
import { ClassStore } from '../runtime/context/class-store.js'
import type { ClassObject } from '../runtime/context/class-object.js'
import type { FourDFunction } from '../runtime/context/function-object.js'
import { DATA_CLASS_MEMBERS } from './members/data-class-members.js'
import { DATASTORE_MEMBERS } from './members/datastore-members.js'
import { ENTITY_MEMBERS } from './members/entity-members.js'
import type { OrdaKind } from './orda-kind.js'
import { SELECTION_MEMBERS } from './members/selection-members.js'

const MEMBERS: Record<OrdaKind, ReadonlyMap<string, FourDFunction>> = {
  DataStoreImplementation: DATASTORE_MEMBERS,
  DataClass: DATA_CLASS_MEMBERS,
  Entity: ENTITY_MEMBERS,
  EntitySelection: SELECTION_MEMBERS,
}

/** The names a project's `Class extends` may give them. */
export const ORDA_KINDS = Object.keys(MEMBERS) as OrdaKind[]

/**
 * Their names in the class store `4D`, each with its class: the four, and `4D.DataStore`, the
 * name an earlier ordaClasses.md gives `4D.DataStoreImplementation` (`OB Instance of(ds;
 * 4D.DataStore)`), the same class.
 */
export const FOUR_D_NAMES: Readonly<Record<string, OrdaKind>> = {
  ...Object.fromEntries(ORDA_KINDS.map((k) => [k, k])),
  DataStore: 'DataStoreImplementation',
}

/** A new set of the four classes (a bridge has its own). */
export function builtinClasses(): Record<OrdaKind, ClassObject> {
  const store = new ClassStore()
  const define = (name: OrdaKind): ClassObject =>
    store.define({
      name,
      file: '',
      superclass: null,
      shared: false,
      singleton: false,
      sessionSingleton: false,
      constructorFunction: undefined,
      functions: MEMBERS[name],
      getters: new Map(),
      setters: new Map(),
      initializers: [],
      orda: [],
    })
  return {
    DataStoreImplementation: define('DataStoreImplementation'),
    DataClass: define('DataClass'),
    Entity: define('Entity'),
    EntitySelection: define('EntitySelection'),
  }
}
