/**
 * @module The names inference reads meaning into (infer-model.ts): which attribute names a key
 * (`id`, `ID`, `Id`), which one holds another collection's key (`employerID`, `postId`,
 * `author_id`), and which collection a prefix names (`post` → `posts`, `category` → `categories`,
 * `Employee` → `Employee`), as json-server's `postId` → `posts` does.
 */

/** `postId` → `post`, `employerID` → `employer`, `author_id` → `author`; undefined for other names. */
export function referencePrefix(name: string): string | undefined {
  const m = /^(.*[^_])(?:ID|Id|_id|_ID|_Id)$/.exec(name)
  return m?.[1]
}

/** Whether `name` is a key by its name alone: `id` in any case. */
export const isIdName = (name: string): boolean => name.toLowerCase() === 'id'

// The English plurals a collection is usually named with, beyond -s and -es.
const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people',
  child: 'children',
  man: 'men',
  woman: 'women',
  mouse: 'mice',
  goose: 'geese',
  foot: 'feet',
  tooth: 'teeth',
}

/** The plurals `word` (lower case) may be written as: posts, boxes, categories, people. */
function plurals(word: string): string[] {
  const out = [`${word}s`, `${word}es`]
  if (/[^aeiou]y$/.test(word)) out.push(`${word.slice(0, -1)}ies`)
  const irregular = IRREGULAR[word]
  if (irregular !== undefined) out.push(irregular)
  return out
}

/**
 * How closely `collection` is named by `prefix`: 0 the same name, 1 the same but for case, 2 its
 * plural (`post` → `posts`, `Category` → `categories`); undefined when it is not named by it.
 */
export function nameMatch(prefix: string, collection: string): number | undefined {
  if (prefix === collection) return 0
  const p = prefix.toLowerCase()
  const c = collection.toLowerCase()
  if (p === c) return 1
  return plurals(p).includes(c) ? 2 : undefined
}

/**
 * The one collection of `collections` that `prefix` names most closely; undefined when none does,
 * or when two do equally (`post` beside both `Posts` and `posts`: no guess).
 */
export function collectionNamed(prefix: string, collections: Iterable<string>): string | undefined {
  let best: string | undefined
  let rank = Infinity
  let tie = false
  for (const c of collections) {
    const r = nameMatch(prefix, c)
    if (r === undefined || r > rank) continue
    tie = r === rank
    if (r < rank) {
      best = c
      rank = r
    }
  }
  return tie ? undefined : best
}
