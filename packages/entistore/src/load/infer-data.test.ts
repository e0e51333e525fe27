/**
 * Data without a model (issue 52, item 3), through the command line: `serve --data db.json` alone
 * infers the model and serves the data as given, `--watch` and `--save` keep working on it, what
 * cannot be inferred is one line naming the file, the collection and the attribute, and `entistore
 * model --from` writes the model out to edit. In-process through main(), but for one run of the
 * built command.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dumpData, inferModel, ManualClock } from '@entistore/core'
import { main } from '../cli.js'
import { startServe } from '../commands/cli-serve.fixture.js'
import { codeBlocks, readPage } from '../docs-check/docs-pages.fixture.ts'
import { loadDatastoreFiles } from './load-files.js'
import { modelText } from '../outputs/model-file.js'

const root = new URL('../../../../', import.meta.url).pathname
const BIN = join(root, 'packages/entistore/bin/entistore.js')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-infer-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// json-server's README example, with numbers for keys as its older versions write them.
const DB = {
  posts: [
    { id: 1, title: 'a title', views: 100 },
    { id: 2, title: 'another title', views: 200, tags: ['json', 'rest'] },
  ],
  comments: [
    { id: 1, text: 'a comment about post 1', postId: 1 },
    { id: 2, text: 'another comment about post 1', postId: 1 },
  ],
  profile: { name: 'typicode' },
}

let files = 0
/** Writes `data` (JSON, or the text given) to a new file in a new folder; returns its path. */
function write(data: unknown, name = 'db.json'): string {
  const folder = mkdtempSync(join(dir, `${files++}-`))
  const path = join(folder, name)
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data, null, 2))
  return path
}

/** Values pushed by callbacks, taken in order. */

interface Run {
  readonly code: number
  readonly out: string[]
  readonly err: string[]
}

/** Runs a command that ends by itself (a usage error, a file error, `model`). */
async function run(argv: string[]): Promise<Run> {
  const out: string[] = []
  const err: string[] = []
  const code = await main(argv, { out: (l) => out.push(l), err: (l) => err.push(l) })
  return { code, out, err }
}

/**
 * Starts `serve` in-process on a free port (`stop()` resolves to its exit code), with two readers:
 * `rows(dc)`, the rows as `$asArray` reads them without `__KEY` and `__STAMP`, and `post`.
 */
async function start(argv: string[]) {
  const s = await startServe([...argv, '--no-explorer'])
  return {
    ...s,
    rows: async (dc: string): Promise<Record<string, unknown>[]> => {
      const res = await fetch(`${s.url}/rest/${dc}?$asArray=true`)
      expect(res.status).toBe(200)
      return ((await res.json()) as Record<string, unknown>[]).map(
        ({ __KEY, __STAMP, ...values }) => values,
      )
    },
    post: (path: string, body: unknown) =>
      fetch(`${s.url}/rest/${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
  }
}

/** A row as served: every attribute of the collection, null where the row has no value. */
const served = (row: Record<string, unknown>, attributes: readonly string[]) =>
  Object.fromEntries(attributes.map((a) => [a, row[a] ?? null]))

describe('serve --data without --model', () => {
  it("serves json-server's db.json as given, says what it inferred, and follows postId", async () => {
    const db = write(DB)
    const s = await start(['serve', '--data', db])
    try {
      expect(s.out).toEqual([
        expect.stringMatching(
          /^Entistore serving db \(posts 2, comments 2, profile 1\) at http:\/\/127\.0\.0\.1:\d+\/rest\/\$catalog$/,
        ),
        `Model inferred from ${db} (entistore model --from ${db} --out model.json writes it out to edit)`,
      ])
      expect(s.err).toEqual([
        `entistore: ${db}: profile: one object, not an array of rows: served as a dataclass of one entity`,
        `entistore: ${db}: profile: no key in the data (no attribute named id): a key id is added, with the value 1`,
      ])
      expect(await s.rows('posts')).toEqual(
        DB.posts.map((p) => served(p, ['id', 'title', 'views', 'tags'])),
      )
      expect(await s.rows('comments')).toEqual(DB.comments)
      expect(await s.rows('profile')).toEqual([{ id: 1, name: 'typicode' }])
      // The relation and its inverse, both ways; a new comment takes the next key.
      const post = (await (await fetch(`${s.url}/rest/comments(2)/post`)).json()) as object
      expect(post).toMatchObject({ id: 1, title: 'a title' })
      const created = await s.post('comments?$method=update', { text: 'on post 2', postId: 2 })
      expect(created.status).toBe(200)
      expect(await created.json()).toMatchObject({ __KEY: '3', id: 3, postId: 2 })
      const onPost2 = (await (await fetch(`${s.url}/rest/posts(2)/comments`)).json()) as {
        __ENTITIES: { text: string }[]
      }
      expect(onPost2.__ENTITIES.map((c) => c.text)).toEqual(['on post 2'])
    } finally {
      expect(await s.stop()).toBe(0)
    }
  })

  it('reads a JSON Lines data file too', async () => {
    const lines = [
      { __entityModel: 'Company', ID: 1, name: 'Acme' },
      { __entityModel: 'Employee', ID: 1, name: 'Ada', companyID: 1 },
    ]
    const file = write(lines.map((l) => JSON.stringify(l)).join('\n') + '\n', 'data.jsonl')
    const s = await start(['serve', '-d', file])
    try {
      expect(await s.rows('Employee')).toEqual([{ ID: 1, name: 'Ada', companyID: 1 }])
      expect(await (await fetch(`${s.url}/rest/Company(1)/Employee`)).json()).toMatchObject({
        __COUNT: 1,
      })
    } finally {
      await s.stop()
    }
  })

  it('--save writes the data back, not the model, and --watch follows the file, inferring again', async () => {
    const db = write(DB)
    const s = await start(['serve', '-d', db, '--watch', '--save', db])
    try {
      expect(s.out).toContain(`Watching ${db} for changes`)
      expect((await s.post('posts?$method=update', { title: 'third', views: 0 })).status).toBe(200)
      s.saveNow()
      expect(await s.saves.next()).not.toBeInstanceOf(Error)
      // Its own save is not a change to reload.
      expect(await s.reloads.next()).toEqual({ kind: 'unchanged' })
      const saved = JSON.parse(readFileSync(db, 'utf8')) as Record<string, { title?: string }[]>
      expect(Object.keys(saved)).toEqual(['posts', 'comments', 'profile'])
      expect(saved.posts!.map((p) => p.title)).toEqual(['a title', 'another title', 'third'])

      // A collection added by hand: inferred on reload, served on the same port.
      writeFileSync(db, JSON.stringify({ ...saved, tags: [{ id: 'json' }] }))
      const reloaded = await s.reloads.next()
      expect(reloaded.kind).toBe('reloaded')
      expect(await s.rows('tags')).toEqual([{ id: 'json' }])
      expect(await s.rows('posts')).toHaveLength(3)

      // Data whose model cannot be inferred: said, and the data of before still served.
      writeFileSync(
        db,
        JSON.stringify({
          posts: [
            { id: 1, views: 1 },
            { id: 2, views: 'two' },
          ],
        }),
      )
      let failed = await s.reloads.next()
      while (failed.kind !== 'failed') failed = await s.reloads.next()
      expect(s.err.at(-1)).toBe(
        `entistore: reload failed, still serving the previous data: ${db}: Cannot infer a model from the data: ` +
          'posts.views: a string in posts[1] where posts[0] holds an integer: an attribute holds values of one ' +
          `type (make them one type, or give a model that says which); entistore model --from ${db} --out model.json writes a model to edit`,
      )
      expect(await s.rows('tags')).toEqual([{ id: 'json' }])
      writeFileSync(db, JSON.stringify({ ...saved, tags: [{ id: 'json' }] }))
      while ((await s.reloads.next()).kind === 'failed');
    } finally {
      expect(await s.stop()).toBe(0)
    }
    // Saved on exit, and served again from the saved file: the same data, stamps and all.
    const before = dumpData(s.server.ds)
    const again = await loadDatastoreFiles({ data: db })
    expect(dumpData(again)).toEqual(before)
  })
})

describe('what cannot be inferred: one line naming the file, the collection and the attribute', () => {
  it.each<[string, unknown, string, boolean]>([
    [
      'two types in one attribute',
      {
        posts: [
          { id: 1, views: 1 },
          { id: 2, views: '2' },
        ],
      },
      'posts.views: a string in posts[1] where posts[0] holds an integer: an attribute holds values of one type (make them one type, or give a model that says which)',
      true,
    ],
    [
      'a collection without rows',
      { posts: [{ id: 1 }], comments: [] },
      'comments: no rows, so its attributes cannot be inferred: add one, or give a model',
      true,
    ],
    [
      'a name no dataclass may have',
      { 'blog-posts': [{ id: 1 }] },
      '"blog-posts": cannot name a dataclass (letters, digits and _, not starting with a digit or __)',
      false,
    ],
    [
      'not an object of collections',
      [{ id: 1 }],
      'data: expected an object of collections, { "posts": [ {...}, ... ], ... }, not an array',
      false,
    ],
  ])('%s', async (_, data, why, draftDoes) => {
    const file = write(data)
    const { code, out, err } = await run(['serve', '--data', file, '--port', '0'])
    const hint = draftDoes
      ? `; entistore model --from ${file} --out model.json writes a model to edit`
      : ''
    expect({ code, out, err }).toEqual({
      code: 1,
      out: [],
      err: [`entistore: ${file}: Cannot infer a model from the data: ${why}${hint}`],
    })
  })

  it('names a data file that is missing or not JSON, as with a model', async () => {
    const missing = join(dir, 'nope.json')
    expect((await run(['serve', '-d', missing])).err).toEqual([
      `entistore: ${missing}: the data file does not exist`,
    ])
    const bad = write('{ "posts": [ { "id": 1, } ] }')
    expect((await run(['serve', '-d', bad])).err).toEqual([
      `entistore: ${bad}:1:25: the data file is not valid JSON: Expected double-quoted property name`,
    ])
  })

  it.each([
    [
      ['serve'],
      '--model is required, or --project <folder>, or --data alone to infer the model from the data',
    ],
    [
      ['serve', '-d', 'db.json', '--persist', 'store'],
      '--persist needs --model: the data it keeps outlives db.json, whose model is inferred anew at each start (entistore model --from db.json --out model.json writes one)',
    ],
    [
      ['serve', '-d', 'db.json', '--postgres', 'postgres://db/app'],
      '--postgres needs --model: the data it keeps outlives db.json',
    ],
    [['model'], '--from <data.json> or --from-project <folder> is required'],
    [['model', '--from', 'db.json', '--force'], '--force goes with --out'],
    [['model', '--from', 'db.json', 'extra'], 'unexpected argument "extra"'],
  ])('refuses %j as usage', async (argv, message) => {
    const { code, err } = await run(argv)
    expect(code).toBe(2)
    expect(err).toEqual([
      expect.stringContaining(`entistore: ${message}`),
      `run 'entistore ${argv[0]} --help' for its options`,
    ])
  })
})

describe('entistore model --from', () => {
  it('prints the model, each attribute on a line, and writes the same to --out, never over a file unless --force', async () => {
    const db = write(DB)
    const printed = await run(['model', '--from', db])
    expect(printed.code).toBe(0)
    const text = printed.out.join('\n')
    expect(text).toContain(
      '        { "name": "postId", "kind": "storage", "type": "long" },\n' +
        '        { "name": "post", "kind": "relatedEntity", "type": "posts", "path": "posts", "foreignKey": "postId" }\n',
    )
    const model = join(db, '..', 'model.json')
    const written = await run(['model', '--from', db, '--out', model])
    expect(written).toEqual({
      code: 0,
      out: [
        `Wrote the model of ${db} to ${model} (posts, comments, profile): entistore serve --model ${model} --data ${db} serves it`,
      ],
      err: printed.err,
    })
    expect(readFileSync(model, 'utf8')).toBe(`${text}\n`)

    // Edited by hand, it is kept: --force replaces it.
    writeFileSync(model, '{ "edited": true }')
    expect(await run(['model', '--from', db, '-o', model])).toEqual({
      code: 1,
      out: [],
      err: [
        `entistore: ${model}: the file exists (it may hold a model edited by hand): pass --force to replace it`,
      ],
    })
    expect(readFileSync(model, 'utf8')).toBe('{ "edited": true }')
    expect((await run(['model', '--from', db, '-o', model, '--force'])).code).toBe(0)

    // Served with --model, it serves what --data alone serves.
    const withModel = await loadDatastoreFiles({ model, data: db, clock: new ManualClock() })
    const inferred = await loadDatastoreFiles({ data: db, clock: new ManualClock() })
    expect(dumpData(withModel)).toEqual(dumpData(inferred))
    expect(withModel.schema.dataClasses.map((dc) => dc.name)).toEqual([
      'posts',
      'comments',
      'profile',
    ])
  })

  it('guesses what serve refuses, and says each guess on stderr', async () => {
    const db = write({
      posts: [
        { id: 1, views: 1 },
        { id: 2, views: '2' },
      ],
      comments: [],
    })
    const { code, out, err } = await run(['model', '--from', db])
    expect(code).toBe(0)
    expect(err).toEqual([
      `entistore: ${db}: posts.views: a string in posts[1] where posts[0] holds an integer: typed string (the other values load as text)`,
      `entistore: ${db}: comments: no rows, so its attributes cannot be inferred: only its key is written; add its attributes`,
      `entistore: ${db}: comments: no key in the data (no attribute named id): a key id is added, numbered 1, 2, … in the order of the rows`,
    ])
    const model = JSON.parse(out.join('\n')) as { dataClasses: { attributes: unknown[] }[] }
    expect(model.dataClasses[0]!.attributes[1]).toEqual({
      name: 'views',
      kind: 'storage',
      type: 'string',
    })
  })
})

describe('docs/infer-model.md', () => {
  it('shows the model entistore model --from writes for the db.json it shows, and the notes serve prints', () => {
    const page = readPage('docs/infer-model.md')
    const [db, model] = codeBlocks(page).filter((b) => b.lang === 'json')
    const inferred = inferModel(JSON.parse(db!.text), { name: 'db', draft: true })
    expect(modelText(inferred.model).trimEnd()).toBe(model!.text.trimEnd())
    for (const note of inferred.notes) expect(page).toContain(`entistore: db.json: ${note}\n`)
  })
})

describe('the built entistore command', () => {
  it('writes the model of a db.json, and serves the db.json alone', async () => {
    const db = write(DB)
    const model = join(db, '..', 'model.json')
    const node = (argv: string[], until?: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] })
        let stdout = ''
        let stderr = ''
        let asked = false
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d
          // Once: the request's own log line comes as more output (a second fetch raced the stop).
          if (until !== undefined && !asked && stdout.includes(until)) {
            asked = true
            const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)![0]
            void fetch(`${url}/rest/posts(2)`)
              .then((r) => r.json())
              .then((post) => {
                stdout += `\n${JSON.stringify(post)}\n`
                child.kill('SIGTERM')
              })
          }
        })
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
        child.on('exit', (code) => resolve({ code, stdout, stderr }))
      })
    const [written, serving] = await Promise.all([
      node(['model', '--from', db, '--out', model]),
      node(['serve', '--data', db, '--port', '0', '--no-explorer'], 'Model inferred'),
    ])
    expect(written).toMatchObject({ code: 0, stdout: expect.stringContaining(`to ${model}`) })
    expect(existsSync(model)).toBe(true)
    expect(serving.code).toBe(0)
    expect(serving.stderr).toContain(`entistore: ${db}: profile: one object`)
    expect(serving.stdout).toContain('"title":"another title","views":200,"tags":["json","rest"]')
  })
})
