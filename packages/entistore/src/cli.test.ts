import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { readFile } from 'node:fs/promises'
import { COMMAND_LIST, main, OVERVIEW, synopsis, version, type CliIo } from './cli.js'
import { cloneCommand } from './commands/clone.js'
import { modelCommand } from './commands/model.js'
import { checkCommand } from './commands/check.js'
import { openapiCommand } from './commands/openapi.js'
import { serveCommand } from './commands/serve.js'
import { typesCommand } from './commands/types.js'
import { renderModelTypes } from './outputs/model-types.js'
import type { RunningServer } from './serve/serve.js'
import { runCli } from './commands/cli-serve.fixture.js'

const root = new URL('../../../', import.meta.url).pathname
const MODEL = join(root, 'examples/company/model.json')
const DATA = join(root, 'examples/company/data.json')
const FUNCTIONS = join(root, 'examples/company/functions.js')
const BIN = join(root, 'packages/entistore/bin/entistore.js')
const DIST_CLI = join(root, 'packages/entistore/dist/cli.js')
const PACKAGE_VERSION = (
  JSON.parse(readFileSync(join(root, 'packages/entistore/package.json'), 'utf8')) as {
    version: string
  }
).version

let dir: string
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const small = (): string =>
  file(
    'small.json',
    JSON.stringify({
      __NAME: 'small',
      dataClasses: [
        {
          name: 'Employee',
          attributes: [
            { name: 'ID', type: 'long' },
            { name: 'salary', type: 'number' },
          ],
        },
      ],
    }),
  )

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'entistore-cli-'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

const run = runCli

describe('entistore serve', () => {
  it('prints the URL, serves the REST interface and the explorer until told to stop', async () => {
    const out: string[] = []
    const err: string[] = []
    let stop!: () => void
    let listening!: (s: RunningServer) => void
    const started = new Promise<RunningServer>((resolve) => (listening = resolve))
    const done = main(['serve', '--model', MODEL, '--data', DATA, '--port', '0'], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      stopSignal: new Promise<void>((resolve) => (stop = resolve)),
      onListening: (s) => listening(s),
    })
    const server = await started
    expect(out).toEqual([
      `Entistore serving company-demo (Company 24, Employee 360, Project 40) at http://127.0.0.1:${server.port}/rest/$catalog`,
      `Explorer at http://127.0.0.1:${server.port}/`,
    ])
    expect(server.port).toBeGreaterThan(0)
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(out[0]!)![0]
    const res = await fetch(`${url}/rest/$catalog`)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { __NAME: string; dataClasses: { name: string }[] }
    expect(body.__NAME).toBe('company-demo')
    expect(body.dataClasses.map((d) => d.name)).toEqual(['Company', 'Employee', 'Project'])
    const emp = await fetch(`${url}/rest/Employee?$top=1`)
    expect(((await emp.json()) as { __COUNT: number }).__COUNT).toBe(360)
    const page = await fetch(`${url}/`)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await page.text()).toContain('<title>Entistore explorer</title>')

    stop()
    expect(await done).toBe(0)
    expect(err).toEqual([])
    expect(server.server.listening).toBe(false)
    await expect(fetch(`${url}/rest/$catalog`)).rejects.toThrow()
  })

  it('builds every index before listening with --eager-indexes, in the background after the URL line without, and says when they are built', async () => {
    const data = file(
      'many-tags.json',
      JSON.stringify({
        Company: Array.from({ length: 1200 }, (_, i) => ({ ID: i + 1, name: `c${i}` })),
      }),
    )
    for (const [flags, unbuilt] of [
      [[], true],
      [['--eager-indexes'], false],
    ] as const) {
      let stop!: () => void
      let listening!: (s: RunningServer) => void
      const started = new Promise<RunningServer>((resolve) => (listening = resolve))
      const out: string[] = []
      const done = main(['serve', '-m', MODEL, '-d', data, '-p', '0', '--no-explorer', ...flags], {
        out: (l) => out.push(l),
        err: () => {},
        stopSignal: new Promise<void>((resolve) => (stop = resolve)),
        onListening: (s) => listening(s),
      })
      const server = await started
      const indexes = server.ds.dataClass('Company').table.indexes
      expect(indexes.unbuilt > 0, flags.join(' ')).toBe(unbuilt)
      // Without: built in slices once the URL line is out, with no request asking.
      // Deadlines that bound a hang only: a busy machine builds them later, never wrongly.
      await vi.waitFor(() => expect(indexes.unbuilt).toBe(0), { timeout: 60_000 })
      // Said once they are (Company's ID and name), after the URL line; nothing with the flag.
      const built = () => out.findIndex((l) => l.startsWith('Built '))
      if (unbuilt) {
        await vi.waitFor(() => expect(built()).toBeGreaterThan(0), { timeout: 60_000 })
        expect(out[built()]).toMatch(/^Built 2 indexes in the background in \d+ ms$/)
      } else expect(built()).toBe(-1)
      stop()
      expect(await done).toBe(0)
    }
  })

  it('serves the explorer at --explorer, and none with --no-explorer', async () => {
    for (const [flags, page, line] of [
      [['--explorer', '/ui'], '/ui/', 'Explorer at URL/ui'],
      [['--no-explorer'], '/', undefined],
    ] as const) {
      let stop!: () => void
      let listening!: (s: RunningServer) => void
      const started = new Promise<RunningServer>((resolve) => (listening = resolve))
      const out: string[] = []
      const done = main(['serve', '-m', MODEL, '-d', DATA, '-p', '0', ...flags], {
        out: (l) => out.push(l),
        err: () => {},
        stopSignal: new Promise<void>((resolve) => (stop = resolve)),
        onListening: (s) => listening(s),
      })
      const server = await started
      const res = await fetch(`${server.url}${page}`)
      if (line === undefined) {
        expect(res.status).toBe(404)
        expect(out.some((l) => l.startsWith('Explorer'))).toBe(false)
      } else {
        expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
        expect(out).toContain(line.replace('URL', server.url))
      }
      stop()
      expect(await done).toBe(0)
    }
  })

  it('with --users, serves data only to a logged-in user', async () => {
    const users = file(
      'users.json',
      JSON.stringify({ ada: { password: 'secret', groups: ['Sales'] }, bob: { password: 'x' } }),
    )
    let stop!: () => void
    let listening!: (s: RunningServer) => void
    const started = new Promise<RunningServer>((resolve) => (listening = resolve))
    const done = main(['serve', '-m', MODEL, '-d', DATA, '-u', users, '--port', '0'], {
      out: () => {},
      err: () => {},
      stopSignal: new Promise<void>((resolve) => (stop = resolve)),
      onListening: (s) => listening(s),
    })
    const { url } = await started
    expect((await fetch(`${url}/rest/$catalog`)).status).toBe(200)
    expect((await fetch(`${url}/rest/Employee?$top=1`)).status).toBe(401)
    const login = (password: string) =>
      fetch(`${url}/rest/$directory/login`, {
        method: 'POST',
        headers: { 'username-4D': 'ada', 'password-4D': password },
      })
    expect((await login('wrong')).status).toBe(401)
    const ok = await login('secret')
    expect(await ok.json()).toEqual({ result: true })
    const cookie = ok.headers.get('set-cookie')!.split(';')[0]!
    const emp = await fetch(`${url}/rest/Employee?$top=1`, { headers: { cookie } })
    expect(emp.status).toBe(200)
    const belongs = await fetch(`${url}/rest/$directory/currentUserBelongsTo`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: '["Sales"]',
    })
    expect(await belongs.json()).toEqual({ result: true })
    stop()
    expect(await done).toBe(0)
  })

  it('sets the session cookie with --cookie-samesite, --cookie-secure and --no-cookie-httponly, and refuses a body past --max-body', async () => {
    const served = async (flags: string[]): Promise<{ cookie: string; big: number }> => {
      let stop!: () => void
      let listening!: (s: RunningServer) => void
      const started = new Promise<RunningServer>((resolve) => (listening = resolve))
      const done = main(['serve', '-m', MODEL, '-d', DATA, '--port', '0', '--quiet', ...flags], {
        out: () => {},
        err: () => {},
        stopSignal: new Promise<void>((resolve) => (stop = resolve)),
        onListening: (s) => listening(s),
      })
      const { url } = await started
      const cookie = (await fetch(`${url}/rest/$catalog`)).headers.get('set-cookie')!
      const big = await fetch(`${url}/rest/Employee`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'x'.repeat(200) }),
      })
      stop()
      expect(await done).toBe(0)
      return { cookie, big: big.status }
    }
    const defaults = await served([])
    expect(defaults.cookie).toMatch(/; HttpOnly/)
    expect(defaults.cookie).toMatch(/; SameSite=Strict/)
    expect(defaults.cookie).not.toMatch(/Secure/)
    expect(defaults.big).not.toBe(413)
    const flagged = await served([
      '--cookie-samesite',
      'Lax',
      '--cookie-secure',
      '--no-cookie-httponly',
      '--max-body',
      '100',
    ])
    expect(flagged.cookie).toMatch(/; SameSite=Lax/)
    expect(flagged.cookie).toMatch(/; Secure/)
    expect(flagged.cookie).not.toMatch(/HttpOnly/)
    expect(flagged.big).toBe(413)
  })

  it('closes the least recent session past --max-sessions', async () => {
    let stop!: () => void
    let listening!: (s: RunningServer) => void
    const started = new Promise<RunningServer>((resolve) => (listening = resolve))
    const done = main(['serve', '-m', MODEL, '-d', DATA, '--port', '0', '--max-sessions', '2'], {
      out: () => {},
      err: () => {},
      stopSignal: new Promise<void>((resolve) => (stop = resolve)),
      onListening: (s) => listening(s),
    })
    const server = await started
    // A login establishes a session (a guest would only evict guests).
    for (let i = 0; i < 3; i++)
      await fetch(`${server.url}/rest/$directory/login`, {
        method: 'POST',
        headers: { 'username-4D': `u${i}`, 'password-4D': 'x' },
      })
    expect(server.ds.sessions.size).toBe(2)
    stop()
    expect(await done).toBe(0)
  })

  it('with --roles, serves what the roles file and the users file privileges allow', async () => {
    const users = file(
      'roles-users.json',
      JSON.stringify({ ada: { password: 'secret', privileges: ['hr'] }, bob: { password: 'x' } }),
    )
    const roles = file(
      'roles.json',
      JSON.stringify({
        privileges: [{ privilege: 'hr', includes: [] }],
        roles: [],
        permissions: {
          allowed: [{ applyTo: 'Employee', type: 'dataclass', read: ['hr'] }],
        },
        restrictedByDefault: false,
        forceLogin: false,
      }),
    )
    let stop!: () => void
    let listening!: (s: RunningServer) => void
    const started = new Promise<RunningServer>((resolve) => (listening = resolve))
    const done = main(
      ['serve', '-m', MODEL, '-d', DATA, '-u', users, '--roles', roles, '--port', '0'],
      {
        out: () => {},
        err: () => {},
        stopSignal: new Promise<void>((resolve) => (stop = resolve)),
        onListening: (s) => listening(s),
      },
    )
    const { url } = await started
    const cookieOf = async (user: string, password: string): Promise<string> => {
      const res = await fetch(`${url}/rest/$directory/login`, {
        method: 'POST',
        headers: { 'username-4D': user, 'password-4D': password },
      })
      expect(res.status).toBe(200)
      return res.headers.get('set-cookie')!.split(';')[0]!
    }
    const status = async (path: string, cookie: string) =>
      (await fetch(`${url}${path}`, { headers: { cookie } })).status
    const bob = await cookieOf('bob', 'x')
    expect(await status('/rest/Company?$top=1', bob)).toBe(200)
    expect(await status('/rest/Employee?$top=1', bob)).toBe(403)
    expect(await status('/rest/Employee?$top=1', await cookieOf('ada', 'secret'))).toBe(200)
    stop()
    expect(await done).toBe(0)
  })

  it('reports a roles file that is not valid, naming it and where', async () => {
    const roles = file('bad-roles.json', JSON.stringify({ privileges: [], permissions: [] }))
    const r = await run(['serve', '-m', MODEL, '--roles', roles, '--port', '0'])
    expect(r.code).toBe(1)
    expect(r.err).toEqual([
      `entistore: ${roles}: Invalid roles file: permissions: expected an object`,
    ])
  })

  it('reports a users file that is not valid', async () => {
    const users = file('bad-users.json', JSON.stringify({ ada: { groups: [] } }))
    const r = await run(['serve', '-m', MODEL, '-u', users, '--port', '0'])
    expect(r.code).toBe(1)
    expect(r.err).toEqual([
      `entistore: ${users}: the users file is not valid: user "ada": expected { "password": "…" }`,
    ])
  })

  it('with --functions, says which functions it serves and answers them over REST', async () => {
    const out: string[] = []
    let stop!: () => void
    let listening!: (s: RunningServer) => void
    const started = new Promise<RunningServer>((resolve) => (listening = resolve))
    const done = main(['serve', '-m', MODEL, '-d', DATA, '-f', FUNCTIONS, '--port', '0'], {
      out: (l) => out.push(l),
      err: (l) => out.push(`err: ${l}`),
      stopSignal: new Promise<void>((resolve) => (stop = resolve)),
      onListening: (s) => listening(s),
    })
    const { url } = await started
    expect(out).toEqual([
      expect.stringMatching(/^Entistore serving company-demo \(.*\) at http:/),
      `Functions from ${FUNCTIONS}: 5 exposed (appInfo, Employee.highEarners, Employee.raise, ` +
        'Employee.payroll, Stats.status), 1 private (Stats.count)',
      expect.stringMatching(/^Explorer at http:/),
    ])
    const info = await fetch(`${url}/rest/$catalog/appInfo`)
    expect(await info.json()).toEqual({
      result: { name: 'company-demo', dataClasses: { Company: 24, Employee: 360, Project: 40 } },
    })
    const high = await fetch(`${url}/rest/Employee/highEarners?$top=1&$attributes=salary`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '[149000]',
    })
    expect(await high.json()).toMatchObject({ __COUNT: 6, __ENTITIES: [{ salary: 150000 }] })
    stop()
    expect(await done).toBe(0)
  })

  it('accepts the short options and serves a model without data', async () => {
    const { code, out, err } = await run(['serve', '-m', small(), '-p', '0'])
    expect([code, err]).toEqual([0, []])
    expect(out).toHaveLength(2)
    expect(out[1]).toMatch(/^Explorer at http:\/\/127\.0\.0\.1:\d+\/$/)
    expect(out[0]).toMatch(
      /^Entistore serving small \(Employee 0\) at http:\/\/127\.0\.0\.1:\d+\/rest\/\$catalog$/,
    )
  })

  it('prints the version of the entistore package for --version and -v, with exit code 0', async () => {
    expect(PACKAGE_VERSION).toMatch(/^\d+\.\d+\.\d+/)
    expect(version()).toBe(PACKAGE_VERSION)
    for (const argv of [['--version'], ['-v'], ['serve', '--version']]) {
      expect(await run(argv)).toEqual({ code: 0, out: [PACKAGE_VERSION], err: [] })
    }
  })
})

describe('help: the commands, and each command its own', () => {
  it('lists the commands for --help, -h and help, with exit code 0', async () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['help', 'nope']]) {
      const { code, out, err } = await run(argv)
      expect([code, err, out]).toEqual([0, [], [OVERVIEW]])
    }
    expect(OVERVIEW).toMatch(/^Usage: entistore <command> \[options\]\n\nCommands:\n  serve  /)
    for (const name of ['serve', 'clone', 'types', 'model', 'openapi'])
      expect(OVERVIEW).toContain(`\n  ${name}  `)
    expect(OVERVIEW).toContain("Run 'entistore <command> --help'")
    expect(OVERVIEW).toContain('--version, -v')
  })

  it.each([
    [
      'serve',
      ['--functions, -f', '--watch, -w', '--save', '--delay', '--fail-rate', '--seed', '--workers'],
    ],
    ['clone', ['--out,  -o', '--user', '--password', '--page-size']],
    ['types', ['--model, -m', '--project', '--out,  -o']],
    ['model', ['--from', '--out,  -o', '--force']],
    ['openapi', ['--model, -m', '--project', '--functions, -f', '--out,  -o']],
  ])("prints %s's own help for --help, -h and help <command>", async (name, options) => {
    const help = (await run([name, '--help'])).out
    expect(help).toHaveLength(1)
    expect(help[0]).toMatch(new RegExp(`^Usage:\n  entistore ${name} `))
    for (const option of [...options, '--help,  -h']) expect(help[0]).toContain(`\n  ${option} `)
    expect(help[0]).toContain(`\nExample`)
    for (const argv of [
      [name, '-h'],
      ['help', name],
      [name, '--nope', '--help'],
    ])
      expect(await run(argv)).toEqual({ code: 0, out: help, err: [] })
  })

  it("keeps only serve's options in serve's help, and the examples users look for", async () => {
    const help = (await run(['serve', '--help'])).out[0]!
    expect(help).not.toContain('--page-size')
    const examples = help.slice(help.indexOf('\nExamples:\n'))
    expect(examples).toContain('entistore serve --model model.json --data data.json --port 3000')
    expect(examples).toContain('--port 0')
    expect(examples).toContain('-u users.json')
    expect(examples).toContain('--delay 100-500 --fail-rate 0.1 --seed 7')
    expect(examples).toContain(
      'entistore serve -m examples/company/model.json -d examples/company/data.json',
    )
  })

  it('shows in docs/cli.md the usage lines every command prints', async () => {
    const doc = await readFile(new URL('../../../docs/cli.md', import.meta.url), 'utf8')
    const block = /```\n(entistore serve [\s\S]*?)```/.exec(doc)?.[1]
    const lines = [
      ...COMMAND_LIST.flatMap(synopsis),
      '  entistore --version',
      '  entistore --help',
    ].map((l) => l.slice(2))
    expect(block).toBe(lines.join('\n') + '\n')
  })
})

describe('usage errors: one line, then where the options are (exit code 2)', () => {
  it.each([
    [['serve'], '--model is required, or --project <folder>, or --data alone'],
    [[], 'missing command'],
    [['start', '--model', 'm.json'], 'unknown command "start"'],
    [['serv', '--model', 'm.json'], 'unknown command "serv", did you mean serve?'],
    [['serve', '--prot', '8080'], 'unknown option "--prot", did you mean --port?'],
    [['serve', '--prot=8080'], 'unknown option "--prot", did you mean --port?'],
    [['serve', '--modle', 'm.json'], 'unknown option "--modle", did you mean --model?'],
    [
      ['serve', '-m', 'm.json', '--user', 'u.json'],
      'unknown option "--user", did you mean --users?',
    ],
    [['--verison'], 'unknown option "--verison", did you mean --version?'],
    [['serve', 'extra', '--model', 'm.json'], 'unexpected argument "extra"'],
    [['serve', '--model', 'm.json', '--nope'], 'unknown option "--nope"'],
    [['serve', '--model', 'm.json', '-x'], 'unknown option "-x"'],
    [['serve', '--model'], '--model needs a value'],
    [['serve', '--model', 'm.json', '--port', 'abc'], '--port must be an integer from 0 to 65535'],
    [['serve', '--model', 'm.json', '--port', '65536'], 'got "65536"'],
    [['serve', '--model', 'm.json', '--port', '1.5'], 'got "1.5"'],
    [['serve', '--model', 'm.json', '--port', ''], 'got ""'],
    [
      ['serve', '--model', 'm.json', '--port', '-1'],
      '--port needs a value (one that starts with a dash is written --port=-…)',
    ],
    [['serve', '-m', 'm.json', '--function', 'f.js'], 'did you mean --functions?'],
    [['serve', '-m', 'm.json', '--functions'], '--functions needs a value'],
    [['serve', '-m', 'm.json', '--explorer', 'ui'], '--explorer must be a path from the root'],
    [['serve', '-m', 'm.json', '--explorer', '/a/../b'], '--explorer must be a path from the root'],
    [
      ['serve', '-m', 'm.json', '--cookie-samesite', 'strict'],
      '--cookie-samesite must be Strict, Lax or None, got "strict"',
    ],
    [['serve', '-m', 'm.json', '--max-body', '0'], '--max-body must be a number of bytes'],
    [
      ['serve', '-m', 'm.json', '--max-sessions', 'many'],
      '--max-sessions must be an integer from 1',
    ],
    [
      ['serve', '-m', 'm.json', '--explorer', '/ui', '--no-explorer'],
      '--explorer and --no-explorer cannot go together',
    ],
  ])('refuses %j', async (argv, message) => {
    const { code, out, err } = await run(argv)
    expect(code).toBe(2)
    expect(out).toEqual([])
    expect(err).toHaveLength(2)
    expect(err[0]).toMatch(/^entistore: /)
    expect(err[0]).toContain(message)
    const command =
      argv[0] === 'clone' || argv[0] === 'types' || argv[0] === 'serve' ? argv[0] : undefined
    expect(err[1]).toBe(
      command === undefined
        ? "run 'entistore --help' for the commands"
        : `run 'entistore ${command} --help' for its options`,
    )
    if (!message.includes('did you mean')) expect(err[0]).not.toContain('did you mean')
  })

  // The ones a newcomer met, each of which used to scroll away under 84 lines of help.
  it.each([
    [['serve', '-m', 'm.json', '--workers', '2'], '--workers 2 needs --postgres <url>'],
    [
      ['serve', '-m', 'm.json', '--fail-rate', '2'],
      '--fail-rate must be a number from 0 to 1, got "2"',
    ],
    [['serve', '-m', 'm.json', '--persist'], '--persist needs a value'],
    [
      ['serve', '-m', 'm.json', '--watch', '--persist', 'd'],
      '--persist and --watch cannot go together',
    ],
    [['clone', '--out', 'd'], 'clone needs the URL of a server'],
    [['types'], '--model or --project <folder> is required'],
    [['types', '-m', 'm.json', '--project', 'p'], '--model and --project cannot go together'],
  ])('says %j in two lines', async (argv, message) => {
    const { code, err } = await run(argv)
    expect(code).toBe(2)
    expect(err).toEqual([
      expect.stringContaining(message),
      `run 'entistore ${argv[0]} --help' for its options`,
    ])
    expect(err[0]!.startsWith(`entistore: `)).toBe(true)
  })
})

describe('file and runtime errors (exit code 1, naming the file)', () => {
  const fails = async (argv: string[]): Promise<string> => {
    const { code, out, err } = await run(argv)
    expect(code).toBe(1)
    expect(out).toEqual([])
    expect(err).toHaveLength(1)
    expect(err[0]).toMatch(/^entistore: /)
    expect(err[0]).not.toContain('Usage:')
    return err[0]!
  }

  it('reports a model file that does not exist', async () => {
    const missing = join(dir, 'missing-model.json')
    expect(await fails(['serve', '--model', missing, '--port', '0'])).toBe(
      `entistore: ${missing}: the model file does not exist`,
    )
  })

  it('reports a data file that does not exist', async () => {
    const missing = join(dir, 'missing-data.json')
    expect(await fails(['serve', '-m', small(), '-d', missing, '-p', '0'])).toBe(
      `entistore: ${missing}: the data file does not exist`,
    )
  })

  it('reports a directory given as the model', async () => {
    expect(await fails(['serve', '-m', dir, '-p', '0'])).toBe(
      `entistore: ${dir}: the model path is a directory, not a file`,
    )
  })

  it('reports a model that is not JSON at its line and column', async () => {
    const path = file('not-json.json', '{ "dataClasses": [ ')
    expect(await fails(['serve', '-m', path, '-p', '0'])).toBe(
      `entistore: ${path}:1:20: the model file is not valid JSON: Unexpected end of JSON input`,
    )
  })

  it('reports a data file that is not JSON at its line and column', async () => {
    // Line 3, column 15: the missing comma after "salary": 10 (CR LF line ends, a BOM first).
    const text = '\ufeff{\r\n  "Employee": [\r\n    { "ID": 1 "salary": 10 }\r\n  ]\r\n}\r\n'
    const path = file('data-not-json.json', text)
    expect(await fails(['serve', '-m', small(), '-d', path, '-p', '0'])).toBe(
      `entistore: ${path}:3:15: the data file is not valid JSON: Expected ',' or '}' after property value`,
    )
    const after = file('data-after.json', '{}\n\n  {}\n')
    expect(await fails(['serve', '-m', small(), '-d', after, '-p', '0'])).toBe(
      `entistore: ${after}:3:3: the data file is not valid JSON: Unexpected non-whitespace character after JSON`,
    )
  })

  it("reports a JSON error at its place even where the parser's message has none", async () => {
    // The data file's outer structure is read by the stream's own scanner, which knows the place.
    const path = file('data-token.json', 'Employee: []')
    expect(await fails(['serve', '-m', small(), '-d', path, '-p', '0'])).toBe(
      `entistore: ${path}:1:1: the data file is not valid JSON: Unexpected token 'E'`,
    )
    const array = file('data-array.json', '[{"ID": 1}]')
    expect(await fails(['serve', '-m', small(), '-d', array, '-p', '0'])).toBe(
      `entistore: ${array}: Invalid data: data: expected an object of the form { "<DataClass>": [ {...}, ... ] }`,
    )
  })

  it('reports an invalid model, naming the dataclass, the attribute and the problem', async () => {
    const path = file(
      'bad-model.json',
      JSON.stringify({ dataClasses: [{ name: 'E', attributes: [{ name: 'ID', type: 'bool' }] }] }),
    )
    const message = await fails(['serve', '-m', path, '-p', '0'])
    expect(message.startsWith(`entistore: ${path}: Invalid model: `)).toBe(true)
    expect(message).toContain('dataclass "E" attribute "ID"')
    expect(message).toContain('a primary key must be of type')
  })

  it('reports invalid data as dataclass[row].attribute and loads none of it', async () => {
    const path = file(
      'bad-data.json',
      JSON.stringify({
        Employee: [
          { ID: 1, salary: 10 },
          { ID: 2, salary: 'lots' },
        ],
      }),
    )
    const message = await fails(['serve', '-m', small(), '-d', path, '-p', '0'])
    expect(message.startsWith(`entistore: ${path}: `)).toBe(true)
    expect(message).toContain('Employee[1].salary')
    expect(message).toContain('"lots"')
  })

  it('reports data for a dataclass the model does not have', async () => {
    const path = file('unknown-class.json', JSON.stringify({ Nope: [] }))
    const message = await fails(['serve', '-m', small(), '-d', path, '-p', '0'])
    expect(message).toBe(
      `entistore: ${path}: Invalid data: "Nope": there is no dataclass "Nope" in the model`,
    )
  })

  it('reports a functions module that does not exist, does not import or has no default export', async () => {
    const missing = join(dir, 'missing-functions.js')
    expect(await fails(['serve', '-m', small(), '-f', missing, '-p', '0'])).toBe(
      `entistore: ${missing}: the functions module does not exist`,
    )
    const garbage = file('garbage-functions.mjs', 'this is not javascript\n')
    expect(await fails(['serve', '-m', small(), '-f', garbage, '-p', '0'])).toMatch(
      new RegExp(`^entistore: ${garbage}: .*not`),
    )
    const named = file('named-functions.mjs', 'export const functions = {}\n')
    expect(await fails(['serve', '-m', small(), '-f', named, '-p', '0'])).toBe(
      `entistore: ${named}: the functions module has no default export: ` +
        '`export default defineFunctions({ … })`, or a function ({ model }) => definitions',
    )
  })

  it('reports definitions the datastore refuses, naming the module', async () => {
    const invalid = file(
      'invalid-functions.mjs',
      'export default { dataClasses: { Employee: { entity: { salary: { call() {} } } } } }\n',
    )
    expect(await fails(['serve', '-m', small(), '-f', invalid, '-p', '0'])).toBe(
      `entistore: ${invalid}: Invalid functions: functions.dataClasses.Employee.entity.salary: ` +
        '"salary" is the name of an attribute of Employee',
    )
  })

  it('reports a port that is in use, with a hint', async () => {
    const blocker = createNetServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as AddressInfo
    try {
      expect(await fails(['serve', '-m', small(), '-p', String(port)])).toBe(
        `entistore: port ${port} is in use: pass --port 0 for a free one, or another port`,
      )
      expect(await fails(['serve', '-m', small(), '-p', String(port), '--host', '127.0.0.1'])).toBe(
        `entistore: port ${port} is in use on 127.0.0.1: pass --port 0 for a free one, or another port`,
      )
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()))
    }
  })

  it('reports a host that does not resolve', async () => {
    expect(await fails(['serve', '-m', small(), '-p', '0', '--host', 'no-such-host.invalid'])).toBe(
      'entistore: cannot listen on no-such-host.invalid:0 (ENOTFOUND)',
    )
  })
})

describe('entistore types', () => {
  it('prints the types of a model, the same as the generator renders them', async () => {
    const { code, out, err } = await run(['types', '--model', MODEL])
    expect({ code, err }).toEqual({ code: 0, err: [] })
    expect(out.join('\n') + '\n').toBe(
      renderModelTypes(JSON.parse(readFileSync(MODEL, 'utf8')), { source: MODEL }),
    )
    expect(out[0]).toContain(`entistore types --model ${MODEL}`)
  })

  it('writes them to --out and says where', async () => {
    const target = join(dir, 'model-types.ts')
    const { code, out } = await run(['types', '-m', MODEL, '-o', target])
    expect(code).toBe(0)
    expect(out).toEqual([`Wrote the types of ${MODEL} to ${target}`])
    expect(readFileSync(target, 'utf8')).toContain('export interface Model {')
  })

  it('needs --model (exit 2) and names a model it cannot read (exit 1)', async () => {
    const missing = await run(['types'])
    expect(missing.code).toBe(2)
    expect(missing.err[0]).toBe('entistore: --model or --project <folder> is required')
    const bad = await run(['types', '--model', file('bad-model.json', '{"dataClasses": [')])
    expect(bad.code).toBe(1)
    expect(bad.err[0]).toMatch(/^entistore: .*bad-model\.json:1:\d+/)
  })

  it('is described in --help', async () => {
    const help = (await run(['--help'])).out[0]!
    expect(help).toContain('entistore types --model <model.json> [--out <file.ts>]')
    expect(help).toContain('entistore types -m model.json -o src/model-types.ts')
  })
})

describe('the built entistore command', () => {
  it('prints the version from the package.json beside dist/', async () => {
    const child = spawn(process.execPath, [BIN, '--version'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    expect([code, stdout, stderr]).toEqual([0, `${PACKAGE_VERSION}\n`, ''])
  })

  it('imports a TypeScript functions module only on a Node that strips types, and says so plainly', async () => {
    expect(existsSync(DIST_CLI), `${DIST_CLI} is missing: run npm run build`).toBe(true)
    const ts = file(
      'functions.ts',
      'const answer: number = 42\nexport default { dataStore: { answer: { call: () => answer } } }\n',
    )
    const syntax = file('syntax-functions.cjs', 'module.exports = {\n  a: 1\n  b\n}\n')
    const serve = (functions: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [BIN, 'serve', '-m', small(), '-f', functions, '--port', '0'],
          { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
        )
        let stdout = ''
        let stderr = ''
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d
          // Listening: the functions line is printed, stop it.
          if (stdout.includes('Functions from')) child.kill('SIGTERM')
        })
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
        child.on('exit', (code) => resolve({ code, stdout, stderr }))
      })
    const stripsTypes = Boolean((process.features as { typescript?: unknown }).typescript)
    const fromTs = await serve(ts)
    if (stripsTypes) {
      expect(fromTs.code).toBe(0)
      expect(fromTs.stdout).toContain(`Functions from ${ts}: 1 private (answer)`)
    } else {
      expect([fromTs.code, fromTs.stderr]).toEqual([
        1,
        `entistore: ${ts}: cannot import a TypeScript functions module: this Node ` +
          `(${process.version}) does not run TypeScript; compile it to JavaScript (npx tsc, ` +
          `docs/functions.md: TypeScript on Node 20) and pass the .js, or use a Node that strips ` +
          `types (22.18 or later)\n`,
      ])
    }
    // Node's own import, outside vitest: a syntax error at its line and column.
    const bad = await serve(syntax)
    expect([bad.code, bad.stderr]).toEqual([
      1,
      `entistore: ${syntax}:3:3: the functions module is not valid JavaScript: Unexpected identifier 'b'\n`,
    ])
  })

  // `npm test` builds first (pretest), so dist/ must be there: a missing build is a failure, not a skip.
  it('serves the demo, then exits with code 0 on SIGTERM', async () => {
    expect(existsSync(DIST_CLI), `${DIST_CLI} is missing: run npm run build (npm test does)`).toBe(
      true,
    )
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--model', MODEL, '--data', DATA, '--port', '0'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    )
    const exited = new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)))
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let stdout = ''
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          stdout += d
          // The explorer's line may come in the same chunk: only the first line is ours to check.
          const end = stdout.indexOf('\n')
          if (end >= 0) resolve(stdout.slice(0, end + 1))
        })
        void exited.then((c) => reject(new Error(`exited with ${c} before listening: ${stderr}`)))
      })
      expect(line).toMatch(
        /^Entistore serving company-demo \(Company 24, Employee 360, Project 40\) at http:\/\/127\.0\.0\.1:\d+\/rest\/\$catalog\n$/,
      )
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)![0]
      const res = await fetch(`${url}/rest/$catalog`)
      expect(res.status).toBe(200)
      expect(((await res.json()) as { __NAME: string }).__NAME).toBe('company-demo')
    } finally {
      child.kill('SIGTERM')
    }
    expect(await exited).toBe(0)
    expect(stderr).toBe('')
  })
})
