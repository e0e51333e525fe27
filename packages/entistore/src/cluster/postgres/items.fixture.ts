/**
 * @module For the tests of this folder that run without PostgreSQL: a model of one data class and
 * the log record of an insert into it, as a process appends it.
 */
import type { LogRecord } from '@entistore/core'

export const ITEM_MODEL = {
  dataClasses: [
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long', autosequence: true },
        { name: 'name', type: 'string' },
      ],
    },
  ],
}

/** The record of one insert into Item, key `key`. */
export const itemInsert = (key: number, name = `n${key}`): LogRecord => ({
  format: 1,
  kind: 'write',
  changes: [
    {
      op: 'insert',
      dataClass: 'Item',
      key,
      stamp: 1,
      timestamp: 0,
      values: { ID: key, name },
    },
  ],
  globalStamp: key,
  sequences: { Item: { ID: key } },
})
