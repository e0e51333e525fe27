/**
 * @module `4D.WebForm` and `4D.WebFormItem` (docs/API/WebFormClass.md, WebFormItemClass.md): the
 * Qodly page that called the running function, as `Web Form` gives it. `setMessage`,
 * `setWarning` and `setError` set the reply's notification (the last one shows: one toast a
 * call); `enableState` and `disableState` turn page states on and off; any other member is the
 * component of that server-side reference, whose `show`, `hide`, `addCSSClass` and
 * `removeCSSClass` are asked of the page. What is asked is kept in core's PageFeedback of the
 * call, which the REST interface writes with the reply (`__WEBFORM`).
 */
import type { PageFeedback, PageNotificationType } from '@entistore/core'
import { FourDFunction } from '../context/function-object.js'
import { raise } from '../errors/fourd-error.js'
import { GET_MEMBER, type MemberHost } from '../values/host.js'
import { builtinClass, OBJECT_CLASS } from './builtin-class.js'

export class FourDWebForm implements MemberHost {
  constructor(readonly page: PageFeedback) {}

  [GET_MEMBER](name: string): unknown {
    // A component named like a function of the page is reached with brackets in 4D too.
    return FORM_MEMBERS.get(name) ?? new FourDWebFormItem(this.page, name)
  }
}

export class FourDWebFormItem implements MemberHost {
  constructor(
    readonly page: PageFeedback,
    readonly name: string,
  ) {}

  [GET_MEMBER](name: string): unknown {
    return ITEM_MEMBERS.get(name)
  }
}

const text = (command: string, parameter: string, value: unknown): string =>
  typeof value === 'string'
    ? value
    : raise('WrongParameterType', {
        parameter,
        command,
        expected: 'Text',
        actual: value === null ? 'Null' : typeof value,
      })

function member<T>(
  owner: 'WebForm' | 'WebFormItem',
  name: string,
  is: (self: unknown) => self is T,
  impl: (self: T, args: unknown[]) => void,
): [string, FourDFunction] {
  return [
    name,
    new FourDFunction(`${owner}.${name}`, (_rt, self, args) =>
      is(self) ? impl(self, args) : raise('UnknownMemberMethod', { name }),
    ),
  ]
}

const isForm = (v: unknown): v is FourDWebForm => v instanceof FourDWebForm
const isItem = (v: unknown): v is FourDWebFormItem => v instanceof FourDWebFormItem

const notify = (name: string, type: PageNotificationType): [string, FourDFunction] =>
  member('WebForm', name, isForm, (self, [msg]) =>
    self.page.notify(text(`WebForm.${name}`, 'msg', msg), type),
  )

const FORM_MEMBERS: ReadonlyMap<string, FourDFunction> = new Map([
  notify('setMessage', 'message'),
  notify('setWarning', 'warning'),
  notify('setError', 'error'),
  member('WebForm', 'enableState', isForm, (self, [state]) =>
    self.page.state(text('WebForm.enableState', 'state', state), true),
  ),
  member('WebForm', 'disableState', isForm, (self, [state]) =>
    self.page.state(text('WebForm.disableState', 'state', state), false),
  ),
])

const ITEM_MEMBERS: ReadonlyMap<string, FourDFunction> = new Map([
  member('WebFormItem', 'show', isItem, (self) => {
    self.page.component(self.name).visible = true
  }),
  member('WebFormItem', 'hide', isItem, (self) => {
    self.page.component(self.name).visible = false
  }),
  member('WebFormItem', 'addCSSClass', isItem, (self, [name]) => {
    self.page
      .component(self.name)
      .addCSSClass.push(text('WebFormItem.addCSSClass', 'className', name))
  }),
  member('WebFormItem', 'removeCSSClass', isItem, (self, [name]) => {
    self.page
      .component(self.name)
      .removeCSSClass.push(text('WebFormItem.removeCSSClass', 'className', name))
  }),
])

/** `4D.WebForm`: what `Web Form` gives; it has no `new()`. */
export const WEB_FORM_CLASS = builtinClass('WebForm', OBJECT_CLASS, isForm)

/** `4D.WebFormItem`: a component of the page. */
export const WEB_FORM_ITEM_CLASS = builtinClass('WebFormItem', OBJECT_CLASS, isItem)
