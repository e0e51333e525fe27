/**
 * @module The permission entries of a roles file that name nothing of the datastore: a dataclass,
 * attribute, function or singleton it does not have (`"applyTo": "TicketEntity.close"` where 4D
 * names a dataclass's functions `Ticket.close`). Such an entry protects nothing, and while the
 * file is not `restrictedByDefault` what it meant to close stays open; 4D does not say so, so the
 * loader does, one line an entry, at start-up. Names compare as the roles file's do (case aside).
 */
import type { Roles } from '../../roles/roles.js'
import type { DatastoreBase } from './datastore-base.js'

const lower = (s: string): string => s.toLowerCase()

/** One line for each of `roles`' permission entries that names nothing of `ds`. */
export function permissionsNamingNothing(ds: DatastoreBase, roles: Roles): string[] {
  const dataClasses = new Map(ds.dataClasses.map((dc) => [lower(dc.name), dc]))
  const functionsOf = (kinds: readonly string[], owner: string): Set<string> =>
    new Set(kinds.flatMap((k) => ds.functions.list(k as never, owner)).map((f) => lower(f.name)))
  const singletons = new Map(ds.functions.singletonNames().map((s) => [lower(s), s]))
  const dot = (applyTo: string): [string, string] | undefined => {
    const at = applyTo.indexOf('.')
    return at <= 0 ? undefined : [applyTo.slice(0, at), applyTo.slice(at + 1)]
  }
  const out: string[] = []
  for (const { type, applyTo, where } of roles.permissions) {
    const why = ((): string | undefined => {
      switch (type) {
        case 'datastore':
          return lower(applyTo) === 'ds' ? undefined : 'the datastore is named "ds"'
        case 'dataclass':
          return dataClasses.has(lower(applyTo)) ? undefined : 'no dataclass has that name'
        case 'attribute': {
          const [dc, attr] = dot(applyTo) ?? ['', '']
          const found = dataClasses.get(lower(dc))
          if (found === undefined) return `no dataclass is named "${dc}"`
          const names = [...found.def.attributesByName.keys()].map(lower)
          return names.includes(lower(attr))
            ? undefined
            : `${found.name} has no attribute "${attr}"`
        }
        case 'method': {
          const [owner, fn] = dot(applyTo) ?? ['', '']
          if (lower(owner) === 'ds')
            return functionsOf(['dataStore'], '').has(lower(fn))
              ? undefined
              : `the datastore has no function "${fn}"`
          const dc = dataClasses.get(lower(owner))
          if (dc === undefined) {
            const hint = /^(.*?)(Entity|Selection)$/.exec(owner)
            return hint && dataClasses.has(lower(hint[1]!))
              ? `a function of ${hint[1]}'s classes is named "${dataClasses.get(lower(hint[1]!))!.name}.${fn}"`
              : `no dataclass is named "${owner}"`
          }
          return functionsOf(['dataClass', 'entity', 'entitySelection'], dc.name).has(lower(fn))
            ? undefined
            : `${dc.name}'s classes have no function "${fn}"`
        }
        case 'singletonMethod': {
          const [owner, fn] = dot(applyTo) ?? ['', '']
          const s = singletons.get(lower(owner))
          if (s === undefined) return `no singleton is named "${owner}"`
          return functionsOf(['singleton'], s).has(lower(fn))
            ? undefined
            : `${s} has no function "${fn}"`
        }
        case 'singleton':
          return singletons.has(lower(applyTo)) ? undefined : 'no singleton has that name'
      }
    })()
    if (why !== undefined) out.push(`${where}: "${applyTo}" (${type}) protects nothing: ${why}`)
  }
  return out
}
