/**
 * @module Which public object a value is (an Entity, a draft, a selection), told without importing
 * their classes: the files that make or check them at run time (writes, function parameters,
 * `restrict`'s result) would otherwise import the classes, which import them back. Each class's
 * prototype says its kind under `OBJECT_KIND` (kinds/object-kind.ts, which the classes import
 * instead of this file); a value of another realm or a look-alike does not.
 */
import type { Entity } from './entity.js'
import type { EntityDraft } from './entity-draft.js'
import type { EntitySelection } from './entity-selection.js'
import { kindOf } from '../kinds/object-kind.js'

/** Whether `value` is an Entity (as `instanceof Entity`). */
export const isEntity = (value: unknown): value is Entity => kindOf(value) === 'entity'

/** Whether `value` is a draft (as `instanceof EntityDraft`). */
export const isDraft = (value: unknown): value is EntityDraft => kindOf(value) === 'draft'

/** Whether `value` is an entity selection (as `instanceof EntitySelection`). */
export const isSelection = (value: unknown): value is EntitySelection =>
  kindOf(value) === 'selection'
