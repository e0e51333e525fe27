/**
 * @module `4D.Signal` (docs/API/SignalClass.md), as `New signal` makes one: a shared object that a
 * worker triggers and the code that called it waits for. Here workers run in the server's own
 * thread, one job after another (project/workers.ts): `wait()` runs the jobs queued so far, in
 * their order, until the signal is triggered or none is left, then answers `signaled`. Its own
 * properties (set within `Use…End use`) carry the worker's results back, as in 4D.
 */
import type { CommandContext } from '../context/command-context.js'
import { FourDFunction } from '../context/function-object.js'
import { raise } from '../errors/fourd-error.js'
import { GET_MEMBER, SET_MEMBER, type MemberHost } from '../values/host.js'
import { markShared } from '../values/shared.js'
import { builtinClass, OBJECT_CLASS } from './builtin-class.js'

export class FourDSignal implements MemberHost {
  #signaled = false
  readonly #properties = new Map<string, unknown>()

  constructor(readonly description: string) {
    markShared(this)
  }

  get signaled(): boolean {
    return this.#signaled
  }

  trigger(): void {
    this.#signaled = true
  }

  /** Waits for `trigger()`: runs the queued worker jobs until it comes, or there are none left. */
  wait(rt: CommandContext): boolean {
    if (!this.#signaled) rt.workers?.runUntil(() => this.#signaled)
    return this.#signaled
  }

  [GET_MEMBER](name: string): unknown {
    if (name === 'signaled') return this.#signaled
    if (name === 'description') return this.description
    return MEMBERS.get(name) ?? this.#properties.get(name)
  }

  [SET_MEMBER](name: string, value: unknown): void {
    if (name === 'signaled' || name === 'description' || MEMBERS.has(name))
      raise('ReadOnlyMember', { property: name })
    this.#properties.set(name, value)
  }
}

const signalOf = (self: unknown, name: string): FourDSignal =>
  self instanceof FourDSignal ? self : raise('UnknownMemberMethod', { name })

const MEMBERS: ReadonlyMap<string, FourDFunction> = new Map([
  [
    'wait',
    // The timeout is not waited here: the jobs that could trigger it run now, or never.
    new FourDFunction('Signal.wait', (rt, self) => signalOf(self, 'wait').wait(rt)),
  ],
  [
    'trigger',
    new FourDFunction('Signal.trigger', (_rt, self) => signalOf(self, 'trigger').trigger()),
  ],
])

/** `4D.Signal`: made by `New signal` (its `new()` is not public), tested by `OB Instance of`. */
export const SIGNAL_CLASS = builtinClass('Signal', OBJECT_CLASS, (v) => v instanceof FourDSignal)
