/**
 * @module Qodly's commands for pages (docs/commands/web-form.md, web-event.md): `Web Form`, the
 * page that called the running function (4D.WebForm, classes/web-form.ts), and `Web Event`, what
 * fired the call. Over REST every function call is taken to come from a page (no request says
 * whether it does: docs/compat.md), so that a page's handler runs whole; outside a call (code run
 * at start, a getter read by a query) there is no page: Null, as 4D answers for a request that
 * does not come from one.
 */
import { currentCall } from '@entistore/core'
import { FourDWebForm } from '../classes/web-form.js'
import { newObject } from '../values/kinds.js'
import type { CommandSpec } from './table.js'

export const WEB_FORM_COMMANDS: readonly CommandSpec[] = [
  {
    number: 1735,
    name: 'Web Form',
    signature: '(): Object',
    impl: () => {
      const page = currentCall()?.page
      return page === undefined ? null : new FourDWebForm(page)
    },
  },
  {
    number: 1734,
    name: 'Web Event',
    signature: '(): Object',
    // The event a page sends is not in the request as Entistore knows it: no caller, no type.
    impl: () => {
      if (currentCall()?.page === undefined) return null
      const event = newObject()
      event['caller'] = ''
      event['eventType'] = ''
      event['data'] = newObject()
      return event
    },
  },
]
