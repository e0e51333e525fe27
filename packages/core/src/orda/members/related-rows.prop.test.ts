/**
 * The rows a relatedEntities attribute reads (`rowIdsReferencing`, through the foreign key's hash
 * index) are those a plain model of the writes says, in key order: through creates, moves,
 * deletes, transactions that move a row from one key to another and read before they end, member
 * keys that come in growing order (the key order is then the row ids') or not, and text keys that
 * differ only in case (which the index folds together, and the relation does not).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDatastore, type ModelJson } from '../../index.js'

const model = (keyType: 'long' | 'string'): ModelJson => ({
  dataClasses: [
    {
      name: 'Team',
      attributes: [
        { name: 'ID', type: keyType },
        { name: 'members', kind: 'relatedEntities', path: 'team' },
      ],
    },
    {
      name: 'Member',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'teamID', type: keyType },
        { name: 'team', kind: 'relatedEntity', path: 'Team', foreignKey: 'teamID' },
      ],
    },
  ],
})

type Op =
  | { readonly kind: 'team'; readonly key: number }
  | { readonly kind: 'member'; readonly id: number; readonly team: number }
  | { readonly kind: 'move'; readonly member: number; readonly team: number }
  | { readonly kind: 'delete'; readonly member: number }
  // A transaction that moves a member and reads every team's members before it ends.
  | { readonly kind: 'inside'; readonly member: number; readonly team: number }

const ops = (growing: boolean): fc.Arbitrary<Op[]> => {
  const member = fc.record({
    kind: fc.constant('member' as const),
    id: fc.integer({ min: 1, max: 500 }),
    team: fc.nat(39),
  })
  return fc
    .array(
      fc.oneof(
        fc.record({ kind: fc.constant('team' as const), key: fc.integer({ min: 1, max: 40 }) }),
        member,
        member,
        fc.record({ kind: fc.constant('move' as const), member: fc.nat(200), team: fc.nat(39) }),
        fc.record({ kind: fc.constant('delete' as const), member: fc.nat(200) }),
        fc.record({ kind: fc.constant('inside' as const), member: fc.nat(200), team: fc.nat(39) }),
      ),
      { minLength: 30, maxLength: 150 },
    )
    .map((list) => {
      if (!growing) return list
      // Member keys in growing order, in the order the members are created.
      const ids = list.flatMap((o) => (o.kind === 'member' ? [o.id] : [])).sort((a, b) => a - b)
      let next = 0
      return list.map((o) => (o.kind === 'member' ? { ...o, id: ids[next++]! } : o))
    })
}

// Text keys: a letter and its capital are two keys, which an index folding case holds together.
const textKey = (n: number): string => `${n % 2 ? 'K' : 'k'}${String.fromCharCode(97 + (n >> 1))}`

describe('rowIdsReferencing', () => {
  for (const keyType of ['long', 'string'] as const)
    for (const growing of [true, false])
      it(`reads each team's members in key order (${keyType} keys, members' keys ${growing ? 'growing' : 'in any order'})`, () => {
        const key = keyType === 'long' ? (n: number): number => n : textKey
        fc.assert(
          fc.property(ops(growing), (list) => {
            const ds = createDatastore(model(keyType))
            const Team = ds.dataClass('Team')
            const Member = ds.dataClass('Member')
            const teams: (number | string)[] = []
            // The model: each member's team.
            const members = new Map<number, number | string>()
            const check = (expected: ReadonlyMap<number, number | string>): void => {
              for (const k of teams) {
                const rows = Member.rowIdsReferencing('team', k)
                const keys = rows.map((r) => Member.entityAt(r)!.getKey())
                const want = [...expected]
                  .filter(([, t]) => t === k)
                  .map(([id]) => id)
                  .sort((a, b) => a - b)
                expect(keys, `team ${k}`).toEqual(want)
              }
            }
            for (const o of list) {
              if (o.kind === 'team') {
                const k = key(o.key)
                if (teams.includes(k)) continue
                Team.create({ ID: k })
                teams.push(k)
                continue
              }
              if (teams.length === 0) continue
              if (o.kind === 'member') {
                if (members.has(o.id)) continue
                const team = teams[o.team % teams.length]!
                Member.create({ ID: o.id, team: team as never })
                members.set(o.id, team)
                continue
              }
              const ids = [...members.keys()]
              if (ids.length === 0) continue
              const id = ids[o.member % ids.length]!
              if (o.kind === 'delete') {
                Member.get(id)!.drop()
                members.delete(id)
                continue
              }
              const team = teams[o.team % teams.length]!
              if (o.kind === 'move') Member.update(id, { team: team as never })
              else
                ds.transaction(() => {
                  Member.update(id, { team: team as never })
                  check(new Map(members).set(id, team))
                })
              members.set(id, team)
            }
            check(members)
          }),
          { numRuns: 100 },
        )
      })
})
