/**
 * @module 4D's Time (docs/Concepts/dt_time.md): a count of seconds since midnight, up to
 * 596,000:00:00 (which still fits a 32-bit long), that "can be treated as a number" yet stays its
 * own type: `Time + Time` is a Time, `Time + Number` a Number. An immutable value.
 */
import { toInteger } from './numbers.js'

const pad2 = (n: number): string => String(n).padStart(2, '0')

export class TimeValue {
  /** `?00:00:00?`. */
  static readonly ZERO: TimeValue = new TimeValue(0)

  private constructor(readonly seconds: number) {
    Object.freeze(this)
  }

  /** The time of `seconds`, made a whole number of seconds as a long is (numbers.ts). */
  static of(seconds: number): TimeValue {
    const s = toInteger(seconds)
    return s === 0 ? TimeValue.ZERO : new TimeValue(s)
  }

  /** `?h:m:s?`. */
  static hms(hours: number, minutes: number, seconds: number): TimeValue {
    return TimeValue.of(hours * 3600 + minutes * 60 + seconds)
  }

  compare(other: TimeValue): number {
    return this.seconds < other.seconds ? -1 : this.seconds > other.seconds ? 1 : 0
  }

  /** `HH:MM:SS`, hours past 24 kept (`25:30:00`), a negative time signed (`-01:00:00`). */
  toString(): string {
    const abs = Math.abs(this.seconds)
    const text = `${pad2(Math.floor(abs / 3600))}:${pad2(Math.floor(abs / 60) % 60)}:${pad2(abs % 60)}`
    return this.seconds < 0 ? `-${text}` : text
  }
}
