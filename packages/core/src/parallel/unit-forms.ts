/**
 * @module The forms a text test holds for (`code = 'AB@'`, an IN of patterns: exact texts,
 * prefixes, suffixes, contained texts), read against a row's code units where they lie in a folded
 * column, without making the row's text: the kernel `matchUnits` (text-kernels.ts) asks each row.
 * Each form list is gone through only where a table says one of them may hold: of the units the
 * exact texts and prefixes begin with, of the units the suffixes end with; the contained texts
 * are sought by a window that jumps along the text (Wu–Manber) by what its last two units allow.
 * A row of a name is then one lookup at its start, one at its end and a few for the contained
 * texts, however many forms there are (ten patterns tried one by one were 5× one pattern; decoded
 * to a string a row first, then matched, 9×).
 */

/** The texts a test of equality with wildcards holds for, as code units (see `matchUnits`). */
export interface UnitForms {
  readonly exact: readonly Uint16Array[]
  readonly prefixes: readonly Uint16Array[]
  readonly suffixes: readonly Uint16Array[]
  readonly contains: readonly Uint16Array[]
}

/** `forms` made ready for texts of `units`' width: see `holds`. */
export interface FormTables {
  /** A form empty but for exact: every text holds (null rows aside). */
  readonly all: boolean
  /** Whether the empty text is one of the exact forms. */
  readonly empty: boolean
  /**
   * By a text's first unit, or the hash of its first two (`firstPair`, when every exact form and
   * prefix has two units or more: fewer texts pass): 1 when an exact form or a prefix begins so.
   */
  readonly first: Uint8Array
  readonly firstPair: boolean
  /** By a text's last unit, or the hash of its last two (`lastPair`): 1 when a suffix ends so. */
  readonly last: Uint8Array
  readonly lastPair: boolean
  /** By a unit: 1 when it is a contained text of one unit (it alone makes the text hold). */
  readonly single: Uint8Array
  /** Whether some contained text is one unit long. */
  readonly singles: boolean
  /**
   * The window of the search for the longer contained texts (Wu–Manber, as multi-search.ts's
   * `skipping` over strings): as long as the shortest of them, at most WINDOW_MAX units; 0 when
   * there are none.
   */
  readonly window: number
  /**
   * By the hash of the window's last two units (`pairOf`): how far the window may move on without
   * passing over the start of a contained text; 0 where some may start at the window's start.
   */
  readonly shift: Uint8Array
  /** The longer contained texts by the hash of their units at the window's last two places. */
  readonly ending: ReadonlyMap<number, readonly Uint16Array[]>
  readonly forms: UnitForms
}

/**
 * The tables of `forms` for texts of 8-bit units (a Latin-1 column: 256 entries; a form with a
 * unit past 255 holds for none of its texts) or 16-bit ones (65,536 entries).
 */
export function formTables(forms: UnitForms, wide: boolean): FormTables {
  const size = wide ? 65_536 : 256
  const fits = (t: Uint16Array): boolean => wide || t.every((u) => u < 256)
  const keep = (list: readonly Uint16Array[]): Uint16Array[] => list.filter(fits)
  const exact = keep(forms.exact)
  const prefixes = keep(forms.prefixes)
  const suffixes = keep(forms.suffixes)
  const contains = keep(forms.contains)
  const all = [...prefixes, ...suffixes, ...contains].some((t) => t.length === 0)
  const starting = [...exact, ...prefixes].filter((t) => t.length > 0)
  const firstPair = starting.length > 0 && starting.every((t) => t.length >= 2)
  const first = new Uint8Array(firstPair ? PAIRS : size)
  for (const t of starting) first[firstPair ? pairOf(t[0]!, t[1]!) : t[0]!] = 1
  const lastPair = suffixes.length > 0 && suffixes.every((t) => t.length >= 2)
  const last = new Uint8Array(lastPair ? PAIRS : size)
  for (const t of suffixes) {
    const n = t.length
    last[lastPair ? pairOf(t[n - 2]!, t[n - 1]!) : t[n - 1]!] = 1
  }
  const single = new Uint8Array(size)
  const longer = contains.filter((t) => t.length > 1)
  for (const t of contains) if (t.length === 1) single[t[0]!] = 1
  const window = longer.length === 0 ? 0 : Math.min(WINDOW_MAX, ...longer.map((t) => t.length))
  const shift = new Uint8Array(PAIRS).fill(Math.max(0, window - 1))
  const ending = new Map<number, Uint16Array[]>()
  for (const t of longer) {
    // The pair ending at place j of the window's first `window` units: the window may move on
    // by window - 1 - j when it ends with that pair.
    for (let j = 1; j < window; j++) {
      const h = pairOf(t[j - 1]!, t[j]!)
      shift[h] = Math.min(shift[h]!, window - 1 - j)
    }
    const h = pairOf(t[window - 2]!, t[window - 1]!)
    const list = ending.get(h)
    if (list === undefined) ending.set(h, [t])
    else list.push(t)
  }
  return {
    all,
    empty: exact.some((t) => t.length === 0),
    first,
    firstPair,
    last,
    lastPair,
    single,
    singles: contains.some((t) => t.length === 1),
    window,
    shift,
    ending,
    forms: { exact, prefixes, suffixes, contains },
  }
}

// Whether `units` from `at` holds `sought`.
export function holdsAt(units: Uint8Array | Uint16Array, at: number, sought: Uint16Array): boolean {
  for (let i = 0; i < sought.length; i++) if (units[at + i] !== sought[i]) return false
  return true
}

/** Whether the text of `n` units of `units` from `s` is one of the forms `f` was made of. */
export function holds(
  f: FormTables,
  units: Uint8Array | Uint16Array,
  s: number,
  n: number,
): boolean {
  if (f.all) return true
  if (n === 0) return f.empty
  const { forms } = f
  const end = s + n - 1
  const begins = f.firstPair ? (n >= 2 ? pairOf(units[s]!, units[s + 1]!) : -1) : units[s]!
  if (begins >= 0 && f.first[begins] === 1) {
    for (const t of forms.exact) if (t.length === n && holdsAt(units, s, t)) return true
    for (const t of forms.prefixes) if (t.length <= n && holdsAt(units, s, t)) return true
  }
  const ends = f.lastPair ? (n >= 2 ? pairOf(units[end - 1]!, units[end]!) : -1) : units[end]!
  if (ends >= 0 && f.last[ends] === 1)
    for (const t of forms.suffixes)
      if (t.length <= n && holdsAt(units, s + n - t.length, t)) return true
  if (f.singles) for (let i = s; i <= end; i++) if (f.single[units[i]!] === 1) return true
  // The window slides along the text, by what its last two units allow; where they may end the
  // first units of some contained texts, those are compared from the window's start.
  const m = f.window
  if (m === 0 || n < m) return false
  const { shift } = f
  for (let at = s + m - 1; at <= end;) {
    const h = pairOf(units[at - 1]!, units[at]!)
    const by = shift[h]!
    if (by > 0) {
      at += by
      continue
    }
    const start = at - m + 1
    for (const t of f.ending.get(h)!)
      if (start + t.length <= s + n && holdsAt(units, start, t)) return true
    at++
  }
  return false
}

/**
 * Whether the text of `n` units of `units` from `s` is one of `forms`, each tried in turn: for one
 * or two forms, a tighter loop than `holds`' tables (a contained text's first unit compared at
 * each place, ≈1 ns a unit).
 */
export function holdsOneByOne(
  forms: UnitForms,
  units: Uint8Array | Uint16Array,
  s: number,
  n: number,
): boolean {
  for (const t of forms.exact) if (t.length === n && holdsAt(units, s, t)) return true
  for (const t of forms.prefixes) if (t.length <= n && holdsAt(units, s, t)) return true
  for (const t of forms.suffixes)
    if (t.length <= n && holdsAt(units, s + n - t.length, t)) return true
  for (const t of forms.contains) {
    if (t.length === 0) return true
    const first = t[0]
    for (let i = s, end = s + n - t.length; i <= end; i++)
      if (units[i] === first && holdsAt(units, i, t)) return true
  }
  return false
}

/** Two units in a row, hashed into 16 bits (exact for two Latin-1 units). */
const pairOf = (a: number, b: number): number => ((a << 8) ^ b) & (PAIRS - 1)
const PAIRS = 1 << 16
/** Longer windows jump further; a shift fits a byte. */
const WINDOW_MAX = 12
