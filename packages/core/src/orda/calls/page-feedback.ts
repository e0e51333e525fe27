/**
 * @module What a call tells the page that called it, beside its result: Qodly's server API for
 * pages (4D's `Web Form`, 4D.WebForm and 4D.WebFormItem). A notification (the last one set: one
 * toast a call), the components shown, hidden and given or taken CSS classes, and the page states
 * enabled and disabled, in the order the code asked. The REST interface writes it with the reply
 * (`__WEBFORM`); the engine only keeps it, per request, for the call and the calls it makes.
 */

/** The kinds of notification a page shows: 4D's setMessage, setWarning and setError. */
export type PageNotificationType = 'message' | 'warning' | 'error'

/** What the code asked of one component (by its server-side reference). */
export interface ComponentChanges {
  /** Shown (true) or hidden (false) last; undefined: not asked. */
  visible?: boolean
  readonly addCSSClass: string[]
  readonly removeCSSClass: string[]
}

export class PageFeedback {
  #notification: { readonly message: string; readonly type: PageNotificationType } | undefined
  readonly #components = new Map<string, ComponentChanges>()
  readonly #enabled: string[] = []
  readonly #disabled: string[] = []

  /** Sets the call's notification (the last one wins, as a page shows one toast a call). */
  notify(message: string, type: PageNotificationType): void {
    this.#notification = { message, type }
  }

  /** The changes asked of the component `name` (made on first use). */
  component(name: string): ComponentChanges {
    let c = this.#components.get(name)
    if (c === undefined) this.#components.set(name, (c = { addCSSClass: [], removeCSSClass: [] }))
    return c
  }

  /** A page state turned on (true) or off (false): 4D's enableState and disableState. */
  state(name: string, on: boolean): void {
    const [add, remove] = on ? [this.#enabled, this.#disabled] : [this.#disabled, this.#enabled]
    const at = remove.indexOf(name)
    if (at >= 0) remove.splice(at, 1)
    if (!add.includes(name)) add.push(name)
  }

  get notification():
    { readonly message: string; readonly type: PageNotificationType } | undefined {
    return this.#notification
  }

  get components(): ReadonlyMap<string, Readonly<ComponentChanges>> {
    return this.#components
  }

  get states(): { readonly enabled: readonly string[]; readonly disabled: readonly string[] } {
    return { enabled: this.#enabled, disabled: this.#disabled }
  }

  /** Whether the code asked nothing of the page. */
  get empty(): boolean {
    return (
      this.#notification === undefined &&
      this.#components.size === 0 &&
      this.#enabled.length === 0 &&
      this.#disabled.length === 0
    )
  }
}
