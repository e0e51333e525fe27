/**
 * @module An entity selection as 4D code holds it (docs/API/EntitySelectionClass.md): core's
 * EntitySelection. `$sel.attribute` projects through core (`project`: a relation as a selection,
 * other attributes as a collection of their values), `$sel[i]` and `For each ($e; $sel)` give its
 * members as entities that remember it (`$e.next()`), a dropped one as Null; `length`,
 * `queryPlan` and `queryPath` are its properties.
 */
import type { Entity, EntitySelection } from '@entistore/core'
import { FOR_EACH, type ForEachItems } from '../../runtime/context/iterate.js'
import { raise } from '../../runtime/errors/fourd-error.js'
import { GET_INDEX, READ_STEPS, TO_JSON } from '../../runtime/values/host.js'
import type { Work } from '../../runtime/values/work.js'
import { gettersOfSelection, relationAhead } from '../attribute-steps.js'
import { fromCoreError, viaCore } from '../core-errors.js'
import { EntityHandle } from './entity-handle.js'
import { classNameOf, NONE, OrdaHandle, type Found } from './handle.js'
import type { OrdaKind } from '../orda-kind.js'
import type { World } from '../world-shape.js'

/** The properties of a selection's kind (`property`), which no class function can shadow. */
const PROPERTIES = new Set(['length', 'queryPlan', 'queryPath'])

export class SelectionHandle extends OrdaHandle {
  declare readonly selection: EntitySelection

  // A declared field, assigned here (handle.ts says why).
  constructor(world: World, selection: EntitySelection) {
    super(world)
    this.selection = selection
  }

  get kind(): OrdaKind {
    return 'EntitySelection'
  }

  protected get className(): string {
    return classNameOf(this.selection.dataClass, 'Selection')
  }

  core(): EntitySelection {
    return this.selection
  }

  protected attribute(name: string): Found {
    const attr = this.selection.dataClass.def.attributesByName.get(name)
    if (attr === undefined) return NONE
    return this.world.projectionToFourD(
      attr,
      viaCore(() => this.selection.project(name)),
    )
  }

  protected get shape(): object {
    return this.selection.dataClass.def
  }

  protected ownsMember(name: string): boolean {
    return this.selection.dataClass.def.attributesByName.has(name) || PROPERTIES.has(name)
  }

  // One case a name of PROPERTIES.
  protected override property(name: string): Found {
    switch (name) {
      case 'length':
        return this.selection.length
      case 'queryPlan':
        return this.world.toFourD(this.selection.queryPlan)
      case 'queryPath':
        return this.world.toFourD(this.selection.queryPath)
      default:
        return NONE
    }
  }

  /**
   * The member at `i` (from 0) as an entity that remembers this selection: the stored version,
   * and core's copy that remembers its place (`memberAt`) only when a member that needs it runs
   * (`next()`, `getSelection()`…), so that a loop reading attributes allocates no copy.
   */
  member(i: number): unknown {
    const entity = this.#at(i)
    return entity === null ? null : new EntityHandle(this.world, entity, null, this.selection, i)
  }

  /** Core's stored version at `i`, or null (a dropped one). */
  #at(i: number): Entity | null {
    // A try here rather than viaCore's closure: this runs for every member For each reaches.
    try {
      return this.selection.at(i) ?? null
    } catch (e) {
      throw fromCoreError(e)
    }
  }

  /** `$sel[i]`: out of the selection's range is an error (EntitySelectionClass.md, "[index]"). */
  [GET_INDEX](i: number): unknown {
    const length = this.selection.length
    if (i < 0 || i >= length)
      return raise('InvalidIndex', { index: `${i} (entity selection of ${length} entities)` })
    return this.member(i)
  }

  [FOR_EACH](): ForEachItems {
    // The loop reads every member: core orders them all now, in one sort, rather than a prefix
    // twice as long each time `at(i)` passes the end of the last (14 partial sorts for 10,000).
    const length = this.selection.length
    if (length > 0) viaCore(() => this.selection.at(length - 1))
    // For a loop that keeps no member past its pass: one entity, pointed at each member in turn
    // (an allocation an entity less), unless class code has had it as `This` (it may keep it).
    let kept: EntityHandle | undefined
    const reused = (i: number): unknown => {
      const entity = this.#at(i)
      if (entity === null) return null
      if (kept === undefined || kept.shared) return (kept = this.member(i) as EntityHandle)
      kept.point(entity, this.selection, i)
      return kept
    }
    return { length, at: (i) => this.member(i), reused }
  }

  // In a call in slices (attribute-steps.ts): the restrict a projection through a relation asks
  // (when a member may lead somewhere), made ahead of it; a computed attribute's getter calls in
  // steps, then the projection, which finds their values.
  [READ_STEPS](name: string): Work<unknown> | undefined {
    const selection = this.selection
    return (
      relationAhead(selection.dataClass, name, () => selection.length > 0) ??
      gettersOfSelection(selection, name, () => this.attribute(name))
    )
  }

  [TO_JSON](): unknown {
    const dc = this.selection.dataClass
    return this.world.toFourD(
      viaCore(() => this.selection.toCollection()).map((o) => this.world.recordToFourD(dc, o)),
    )
  }
}
