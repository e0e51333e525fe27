import { createDatastore, ManualClock, type DataFile, type ModelJson } from '@entistore/core'
import { describe, expect, it } from 'vitest'
import { createRestHandler } from './handler.js'

// Issue 11, "Exposure": a hidden attribute, a hidden dataclass, a relation to it and aliases through
// them must never show, wherever a client looks. Every hidden name starts with `zq` and every hidden
// value with `XXLEAK`, so that a reply can be searched for them.
//
// Two checks: a request that names nothing hidden answers no marker at all; a request that names
// something hidden answers exactly what the same request answers with a name that does not exist
// (so that the reply tells a client nothing it did not already know: at most its own words back).

const model = (): ModelJson => ({
  __NAME: 'exposure',
  dataClasses: [
    {
      name: 'Shop',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'name', type: 'string', indexed: true },
        { name: 'score', type: 'number' },
        { name: 'zqHiddenAttr', type: 'string', exposed: false },
        { name: 'zqHiddenNum', type: 'number', exposed: false },
        { name: 'vaultID', type: 'long' },
        {
          name: 'zqVaultLink',
          kind: 'relatedEntity',
          path: 'ZqVault',
          foreignKey: 'vaultID',
        },
        { name: 'items', kind: 'relatedEntities', path: 'shop' },
        // Aliases that read hidden values: hidden as well.
        { name: 'zqAliasToHidden', kind: 'alias', path: 'zqHiddenAttr' },
        { name: 'zqAliasThroughVault', kind: 'alias', path: 'zqVaultLink.zqVaultSecret' },
      ],
    },
    {
      name: 'Item',
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'label', type: 'string' },
        { name: 'shop', kind: 'relatedEntity', path: 'Shop' },
      ],
    },
    {
      name: 'ZqVault',
      exposed: false,
      attributes: [
        { name: 'ID', type: 'long' },
        { name: 'zqVaultSecret', type: 'string' },
        { name: 'zqVaultShops', kind: 'relatedEntities', path: 'zqVaultLink' },
      ],
    },
  ],
})

const data = {
  Shop: [
    { ID: 1, name: 'Alpha', score: 1, zqHiddenAttr: 'XXLEAK-attr-1', zqHiddenNum: 7, vaultID: 1 },
    { ID: 2, name: 'Beta', score: 2, zqHiddenAttr: 'XXLEAK-attr-2', zqHiddenNum: 8, vaultID: 2 },
  ],
  Item: [
    { ID: 1, label: 'one', shop: 1 },
    { ID: 2, label: 'two', shop: 2 },
  ],
  ZqVault: [
    { ID: 1, zqVaultSecret: 'XXLEAK-vault-1' },
    { ID: 2, zqVaultSecret: 'XXLEAK-vault-2' },
  ],
} as unknown as DataFile

const HIDDEN_ATTRIBUTES = [
  'zqHiddenAttr',
  'zqHiddenNum',
  'zqVaultLink',
  'zqAliasToHidden',
  'zqAliasThroughVault',
]
/** Names that exist nowhere in the model: the twin of a hidden one in a request. */
const NOWHERE = 'nowhereAttr'
const NOWHERE_CLASS = 'NowhereClass'

function fixture() {
  const ds = createDatastore(model(), { data, clock: new ManualClock() })
  const internal: unknown[] = []
  const rest = createRestHandler(ds, { onInternalError: (e) => internal.push(e) })
  // One session for every request, so that two replies can be compared byte for byte.
  const cookie = `4DSID_exposure=${'A'.repeat(32)}`
  async function send(
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string; headers: Headers }> {
    const init: RequestInit = { headers: { cookie } }
    if (body !== undefined) {
      init.method = 'POST'
      init.body = typeof body === 'string' ? body : JSON.stringify(body)
      init.headers = { cookie, 'content-type': 'application/json' }
    }
    const res = await rest.request(path, init)
    return { status: res.status, text: await res.text(), headers: res.headers }
  }
  return { ds, rest, send, internal }
}

/** The reply carries no hidden name nor value (beyond `allowed`, words the request itself sent). */
function expectClean(
  reply: { status: number; text: string },
  what: string,
  allowed: readonly string[] = [],
): void {
  let text = reply.text
  for (const a of allowed) text = text.split(a).join('')
  expect(reply.status, what).toBeLessThan(500)
  expect(text, what).not.toMatch(/XXLEAK/)
  expect(text.toLowerCase(), what).not.toContain('zq')
}

// Requests that name nothing hidden: the walk over every endpoint and parameter.
const CLEAN_GETS = [
  '/rest/$catalog',
  '/rest/$catalog/$all',
  '/rest/$catalog/Shop',
  '/rest/$catalog/Item',
  '/rest/$info',
  '/rest/Shop',
  '/rest/Shop(1)',
  '/rest/Shop[1]',
  '/rest/Shop:name(Alpha)',
  '/rest/Shop:ID(1)',
  '/rest/Shop(1)/name',
  '/rest/Shop(1)/items',
  '/rest/Shop(1)/items?$expand=shop',
  '/rest/Shop?$attributes=*',
  '/rest/Shop?$expand=items',
  '/rest/Shop?$attributes=items.*',
  '/rest/Shop?$attributes=items.shop.*',
  '/rest/Shop(1)?$expand=items',
  '/rest/Shop?$asArray=true',
  '/rest/Shop?$asArray=true&$expand=items',
  '/rest/Shop?$format=looker',
  '/rest/Shop?$format=dashboard&$expand=items',
  '/rest/Shop?$filter=ID>0&$queryplan=true&$querypath=true',
  '/rest/Shop?$filter=items.label=one&$queryplan=true&$querypath=true',
  "/rest/Shop?$filter=name='A*' or score > 1&$orderby=name desc&$queryplan=true",
  '/rest/Shop?$filter=vaultID=1',
  '/rest/Shop?$compute=$all',
  '/rest/Shop?$compute=count',
  '/rest/Shop/score?$compute=$all',
  '/rest/Shop/name?$distinct=true',
  '/rest/Shop?$distinct=true&$attributes=name',
  '/rest/Shop?$orderby=score',
  '/rest/Item',
  '/rest/Item(1)',
  '/rest/Item(1)/shop',
  '/rest/Item(1)?$expand=shop',
  '/rest/Item?$expand=shop',
  '/rest/Item?$attributes=shop.*',
  '/rest/Item?$filter=shop.name=Alpha&$queryplan=true&$querypath=true',
  '/rest/Item?$orderby=shop.name',
  '/rest/Item?$format=looker&$expand=shop',
  '/rest/Item/shop?$compute=count',
  // Errors that name visible things: no hidden name in their messages.
  '/rest/Shop(99)',
  '/rest/Shop:name(nobody)',
  '/rest/Shop?$filter=nope=1',
  '/rest/Shop?$filter=items.nope=1',
  '/rest/Shop?$filter=vaultID.x=1',
  '/rest/Shop?$filter=name=',
  '/rest/Shop?$orderby=nope',
  '/rest/Shop?$orderby=items.label',
  '/rest/Shop?$attributes=nope',
  '/rest/Shop?$expand=nope',
  '/rest/Shop?$compute=nope',
  '/rest/Shop/items?$compute=sum',
  '/rest/Shop(1)/nope',
  '/rest/Nope',
  '/rest/$catalog/Nope',
  '/rest/Shop/$entityset/NOPE',
  '/rest/Shop?$format=nope',
]

// Requests that name a hidden attribute (`{A}`), with the twin request naming `nowhereAttr`.
const ATTRIBUTE_TEMPLATES = [
  '/rest/Shop?$attributes={A}',
  '/rest/Shop?$attributes=name,{A}',
  '/rest/Shop?$attributes={A}.*',
  '/rest/Shop?$attributes={A}.zqVaultSecret',
  '/rest/Shop(1)?$attributes={A}',
  '/rest/Shop(1)/{A}',
  '/rest/Shop(1)/{A}?$expand={A}',
  '/rest/Shop/{A}',
  '/rest/Shop/{A}?$compute=sum',
  '/rest/Shop/{A}?$compute=$all',
  '/rest/Shop/{A}?$distinct=true',
  '/rest/Shop?$compute=sum&$attributes={A}',
  '/rest/Shop?$distinct=true&$attributes={A}',
  '/rest/Shop?$expand={A}',
  '/rest/Shop(1)?$expand={A}',
  '/rest/Shop?$asArray=true&$attributes={A}',
  '/rest/Shop?$format=looker&$attributes={A}',
  '/rest/Shop?$format=looker&$expand={A}',
  '/rest/Shop:{A}(XXLEAK-attr-1)',
  '/rest/Shop:{A}(1)',
  "/rest/Shop?$filter={A}='XXLEAK*'",
  "/rest/Shop?$filter={A}='XXLEAK*'&$queryplan=true&$querypath=true",
  '/rest/Shop?$filter={A}>0',
  '/rest/Shop?$filter={A}=null',
  '/rest/Shop?$filter={A}.ID=1',
  "/rest/Shop?$filter={A}.zqVaultSecret='XXLEAK*'",
  "/rest/Shop?$filter=name='A*' and {A}='XXLEAK*'",
  "/rest/Shop?$filter=not({A}='XXLEAK*')",
  '/rest/Shop?$filter={A}=:1&$params=["XXLEAK-attr-1"]',
  '/rest/Shop?$filter={A}%20%3D%20%27XXLEAK*%27',
  '/rest/Shop?$orderby={A}',
  '/rest/Shop?$orderby={A} desc',
  '/rest/Shop?$orderby={A}.zqVaultSecret',
  '/rest/Shop?$orderby={A}.ID',
  '/rest/Shop?$filter=ID>0&$orderby={A}&$queryplan=true',
  '/rest/Item?$filter=shop.{A}=1',
  "/rest/Item?$filter=shop.{A}='XXLEAK*'&$querypath=true",
  '/rest/Item?$filter=shop.{A}.ID=1',
  '/rest/Item?$orderby=shop.{A}',
  '/rest/Item?$attributes=shop.{A}',
  '/rest/Item?$expand=shop&$attributes=shop.{A}',
  '/rest/Item(1)/shop?$attributes={A}',
  '/rest/Item(1)/shop?$expand={A}',
  '/rest/Item/shop?$attributes={A}',
  '/rest/Item/shop.{A}?$compute=max',
  '/rest/Item/shop.{A}?$distinct=true',
  '/rest/Item?$compute=max&$attributes=shop.{A}',
  "/rest/Shop(1)/items?$filter=shop.{A}='XXLEAK*'",
  "/rest/Shop?$filter={A}='XXLEAK*'&$method=entityset",
  "/rest/Shop/$entityset/NOPE?$savedfilter={A}='XXLEAK*'",
  '/rest/Shop/$entityset/NOPE?$savedorderby={A}',
]

// Requests that name the hidden dataclass (`{D}`), with the twin naming `NowhereClass`.
const DATACLASS_TEMPLATES = [
  '/rest/{D}',
  '/rest/{D}(1)',
  '/rest/{D}[1]',
  '/rest/{D}:ID(1)',
  '/rest/{D}(1)/zqVaultShops',
  '/rest/{D}?$filter=ID>0',
  '/rest/{D}?$filter=ID>0&$queryplan=true',
  '/rest/{D}/ID?$compute=sum',
  '/rest/{D}/zqVaultSecret?$distinct=true',
  '/rest/{D}?$method=entityset',
  '/rest/{D}/$entityset/NOPE',
  '/rest/{D}/$entityset/NOPE?$savedfilter=ID>0',
  '/rest/{D}(1)?$lock=true',
  '/rest/$catalog/{D}',
  '/rest/{D}?$format=looker',
  "/rest/Shop?$filter=zqVaultLink.{D}='1'",
  '/rest/Shop?$expand={D}',
  '/rest/Shop?$attributes={D}',
]

// Writes naming hidden things: [path, body] with `{A}` / `{D}`.
const WRITE_TEMPLATES: [string, unknown][] = [
  ['/rest/Shop?$method=update', { __KEY: '1', __STAMP: 1, '{A}': 'XXLEAK-written' }],
  ['/rest/Shop?$method=update', { __KEY: '1', '{A}': 'XXLEAK-written' }],
  ['/rest/Shop?$method=update', [{ __KEY: '1', '{A}': 'XXLEAK-written' }]],
  ['/rest/Shop?$method=insert', { ID: 50, name: 'x', '{A}': 'XXLEAK-written' }],
  ['/rest/Shop?$method=update&$atomic=true', [{ ID: 51, '{A}': 'XXLEAK-written' }]],
  ['/rest/Shop?$method=update', { __KEY: '1', '{A}': { __KEY: '1' } }],
  ['/rest/Shop?$method=delete', [{ __KEY: '99', '{A}': 'x' }]],
  ["/rest/Shop?$method=delete&$filter={A}='XXLEAK*'", ''],
  ['/rest/{D}?$method=update', { __KEY: '1', zqVaultSecret: 'XXLEAK-written' }],
  ['/rest/{D}?$method=insert', { ID: 9, zqVaultSecret: 'XXLEAK-written' }],
  ['/rest/{D}?$method=delete', [{ __KEY: '1' }]],
  ['/rest/{D}(1)?$method=delete', ''],
  ['/rest/{D}/$entityset/NOPE?$method=delete', ''],
]

/** An entity set's id, and other ids a reply makes anew, as a placeholder. */
const normalize = (text: string): string => text.replace(/[0-9A-F]{32}/g, 'ID')

describe('exposure: what is hidden never shows', () => {
  it('walks every endpoint and parameter with no hidden name or value in any reply', async () => {
    const { send, internal } = fixture()
    for (const path of CLEAN_GETS) expectClean(await send(path), path)
    expect(internal).toEqual([])
  })

  it('keeps entity sets clean: made, read, narrowed, combined, described in $info', async () => {
    const { send, internal } = fixture()
    const made = await send('/rest/Shop?$method=entityset&$filter=ID>0&$expand=items')
    expectClean(made, 'entityset')
    const set = (JSON.parse(made.text) as { __ENTITYSET: string }).__ENTITYSET
    const id = set.slice(set.lastIndexOf('/') + 1)
    const other = JSON.parse((await send('/rest/Shop?$method=entityset&$filter=ID=1')).text) as {
      __ENTITYSET: string
    }
    const otherId = other.__ENTITYSET.slice(other.__ENTITYSET.lastIndexOf('/') + 1)
    for (const path of [
      `/rest/Shop/$entityset/${id}`,
      `/rest/Shop/$entityset/${id}?$filter=score>1&$orderby=name`,
      `/rest/Shop/$entityset/${id}?$asArray=true`,
      `/rest/Shop/$entityset/${id}?$format=looker`,
      `/rest/Shop/$entityset/${id}?$compute=$all&$attributes=score`,
      `/rest/Shop/$entityset/${id}?$logicOperator=AND&$otherCollection=${otherId}`,
      `/rest/Shop/$entityset/${id}?$logicOperator=INTERSECT&$otherCollection=${otherId}`,
      `/rest/Item/$entityset/${id}`,
      '/rest/$info',
    ])
      expectClean(await send(path), path)
    for (const name of HIDDEN_ATTRIBUTES) {
      const hidden = await send(`/rest/Shop/$entityset/${id}?$filter=${name}>0`)
      const twin = await send(`/rest/Shop/$entityset/${id}?$filter=${NOWHERE}>0`)
      expect(hidden.status).toBe(twin.status)
      expect(hidden.text.split(name).join(NOWHERE)).toBe(twin.text)
    }
    expect(internal).toEqual([])
  })

  it('answers a request naming a hidden attribute as one naming an attribute that does not exist', async () => {
    const { send, internal } = fixture()
    for (const template of ATTRIBUTE_TEMPLATES) {
      for (const name of HIDDEN_ATTRIBUTES) {
        const path = template.split('{A}').join(name)
        const hidden = await send(path)
        const twin = await send(template.split('{A}').join(NOWHERE))
        expect(hidden.status, path).toBe(twin.status)
        expect(normalize(hidden.text.split(name).join(NOWHERE)), path).toBe(normalize(twin.text))
        // Beyond the name the request sent (and `zqVaultSecret` in some paths), nothing.
        expectClean(hidden, path, [name, 'zqVaultSecret', 'XXLEAK*', 'XXLEAK-attr-1'])
      }
    }
    expect(internal).toEqual([])
  })

  it('answers a request naming the hidden dataclass as one naming a dataclass that does not exist', async () => {
    const { send, internal } = fixture()
    for (const template of DATACLASS_TEMPLATES) {
      const path = template.split('{D}').join('ZqVault')
      const hidden = await send(path)
      const twin = await send(template.split('{D}').join(NOWHERE_CLASS))
      expect(hidden.status, path).toBe(twin.status)
      expect(normalize(hidden.text.split('ZqVault').join(NOWHERE_CLASS)), path).toBe(
        normalize(twin.text),
      )
      expectClean(hidden, path, ['ZqVault', 'zqVaultShops', 'zqVaultSecret', 'zqVaultLink'])
    }
    expect(internal).toEqual([])
  })

  it('suggests no hidden name for a near miss of one ("did you mean"), as it does a shown one', async () => {
    const { send, internal } = fixture()
    // The twin: a near miss of a shown name is answered with it.
    const shown = await send('/rest/Shop?$filter=scor=1')
    expect(shown.text).toContain('(did you mean \\"score\\"?)')
    const templates = [
      '/rest/Shop?$filter={A}=1',
      '/rest/Shop?$orderby={A}',
      '/rest/Shop?$attributes={A}',
      '/rest/Shop?$expand={A}',
      '/rest/Shop/{A}?$compute=sum',
      '/rest/Shop/{A}?$distinct=true',
      '/rest/Shop(1)/{A}',
      '/rest/Item?$filter=shop.{A}=1',
    ]
    const misses = ['zqHiddenAtr', 'zqHiddenNun', 'zqVaultLnk', 'zqAliasToHiden', 'zqVault']
    for (const name of misses) {
      const replies = await Promise.all([
        ...templates.map((t) => send(t.split('{A}').join(name))),
        send('/rest/Shop?$method=update', { __KEY: '1', [name]: 'x' }),
      ])
      for (const reply of replies) {
        expect(reply.status, name).toBeGreaterThanOrEqual(400)
        expect(reply.text, name).not.toContain('did you mean')
        expectClean(reply, name, [name])
      }
    }
    for (const path of ['/rest/ZqVaul', '/rest/zqvault', '/rest/$catalog/ZqVaul']) {
      const reply = await send(path)
      expect(reply.status, path).toBe(404)
      expect(reply.text, path).not.toContain('did you mean')
    }
    expect(internal).toEqual([])
  })

  it('refuses writes naming hidden things as it refuses unknown names, and changes nothing hidden', async () => {
    const { ds, send, internal } = fixture()
    const hiddenState = (): unknown[] => [
      ds
        .dataClass('Shop')
        .all()
        .toArray()
        .map((e) => [e.key, e.values.zqHiddenAttr]),
      ds
        .dataClass('ZqVault')
        .all()
        .toArray()
        .map((e) => [e.key, e.values.zqVaultSecret]),
    ]
    const before = JSON.stringify(hiddenState())
    for (const [template, body] of WRITE_TEMPLATES) {
      const names = template.includes('{D}') ? ['ZqVault'] : HIDDEN_ATTRIBUTES
      const twinName = template.includes('{D}') ? NOWHERE_CLASS : NOWHERE
      for (const name of names) {
        const fill = (text: string, by: string): string =>
          text.split('{A}').join(by).split('{D}').join(by)
        const write = (by: string) =>
          send(fill(template, by), typeof body === 'string' ? body : fill(JSON.stringify(body), by))
        const hidden = await write(name)
        const twin = await write(twinName)
        const path = fill(template, name)
        expect(hidden.status, path).toBe(twin.status)
        expect(normalize(hidden.text.split(name).join(twinName)), path).toBe(normalize(twin.text))
        expectClean(hidden, path, [name, 'zqVaultSecret', 'XXLEAK-written', 'XXLEAK*'])
      }
    }
    expect(JSON.stringify(hiddenState())).toBe(before)
    expect(internal).toEqual([])
  })
})
