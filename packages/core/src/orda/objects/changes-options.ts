/**
 * @module What `ds.changes(options)` takes (the live feed, feed/change-feed.ts): with the Datastore,
 * since its `render` takes the Entity; the feed below reads it as FeedOptions
 * (feed/feed-objects.ts), which names none of the public classes.
 */
import type { ChangedEntity } from '../feed/change-feed.js'
import type { ChangesSettings } from '../feed/feed-objects.js'
import type { Entity } from './entity.js'

/**
 * What `ds.changes(options)` takes (its settings: ChangesSettings). `T`: what an event's `entity`
 * is (see `render`).
 */
export interface ChangesOptions<T = ChangedEntity> extends ChangesSettings {
  /**
   * How an event's entity is written, instead of the default plain object (the REST interface
   * writes it as its replies do). Runs as the session, when the event is sent.
   */
  readonly render?: (entity: Entity) => T
}
