/**
 * `serve --cors [origins]`, `--log` and `--quiet` as the command line reads them: the origins
 * written as a browser sends them, `--cors` alone for the pages on this machine (parseArgs has no
 * optional value: withBareValues), `'*'` only when written, and every mistake one usage line; then
 * what the server answers a page for each form.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../cli.js'
import { startServe, type Started } from './cli-serve.fixture.js'
import { UsageError, withBareValues } from './command.js'
import { parseCorsOrigins } from './cors-option.js'
import { serveCommand } from './serve.js'

describe('parseCorsOrigins', () => {
  it('reads origins as a browser writes them in Origin', () => {
    expect(parseCorsOrigins('*')).toBe('*')
    expect(parseCorsOrigins('loopback')).toBe('loopback')
    expect(parseCorsOrigins('http://localhost:5173')).toEqual(['http://localhost:5173'])
    expect(
      parseCorsOrigins(' http://LOCALHOST:5173/ , https://App.Example.com:443,http://a.test:80'),
    ).toEqual(['http://localhost:5173', 'https://app.example.com', 'http://a.test'])
    expect(parseCorsOrigins('capacitor://localhost,http://[::1]:3000')).toEqual([
      'capacitor://localhost',
      'http://[::1]:3000',
    ])
    // The same origin twice is one.
    expect(parseCorsOrigins('http://a.test,http://a.test/')).toEqual(['http://a.test'])
  })

  it.each([
    ['', '--cors needs origins'],
    [' , ', '--cors needs origins'],
    ['localhost:5173', 'got "localhost:5173"'],
    ['http://localhost:5173/app', 'with no path'],
    ['http://localhost:5173?x=1', 'with no path'],
    ['http://user@localhost', 'scheme://host[:port]'],
    ['http://localhost:99999', 'is not an origin'],
    ['*,http://a.test', 'got "*"'],
    ['loopback,http://a.test', 'got "loopback"'],
  ])('refuses %j in one line', (text, message) => {
    const e = (() => {
      try {
        parseCorsOrigins(text)
      } catch (error) {
        return error
      }
      return undefined
    })()
    expect(e).toBeInstanceOf(UsageError)
    expect((e as Error).message).toContain(message)
    expect((e as Error).message).not.toContain('\n')
  })
})

describe('withBareValues', () => {
  const bare = serveCommand.bareValues!
  it('gives --cors its value when alone, the pages on this machine: last, or before another option', () => {
    expect(withBareValues(['serve', '-m', 'm.json', '--cors'], bare)).toEqual([
      'serve',
      '-m',
      'm.json',
      '--cors=loopback',
    ])
    expect(withBareValues(['serve', '--cors', '-m', 'm.json'], bare)).toEqual([
      'serve',
      '--cors=loopback',
      '-m',
      'm.json',
    ])
    expect(withBareValues(['serve', '--cors', '--port', '0'], bare)[1]).toBe('--cors=loopback')
    // '*' is a value given, never the one taken alone.
    expect(withBareValues(['serve', '--cors', '*'], bare)).toEqual(['serve', '--cors', '*'])
  })

  it('leaves a value given, an inline one, other options and what follows --', () => {
    const argv = ['serve', '--cors', 'http://a.test', '--cors=http://b.test', '--port', '0']
    expect(withBareValues(argv, bare)).toEqual(argv)
    expect(withBareValues(['serve', '--', '--cors'], bare)).toEqual(['serve', '--', '--cors'])
    expect(withBareValues(['serve', '--quiet'], bare)).toEqual(['serve', '--quiet'])
  })
})

describe('serve --cors, --log and --quiet on the command line', () => {
  /** Runs `entistore serve` with `argv` until it would load anything: its usage error, if any. */
  async function usage(argv: string[]): Promise<{ code: number; err: string[] }> {
    const err: string[] = []
    // A model that does not exist: a line that passes its reading fails at the load (code 1).
    const code = await main(['serve', '-m', '/nonexistent/model.json', ...argv], {
      out: () => {},
      err: (l) => err.push(l),
    })
    return { code, err }
  }

  it.each([
    [['--cors', 'localhost:5173'], 'entistore: --cors takes origins as a browser sends them'],
    [['--cors='], 'entistore: --cors needs origins'],
    [['--log', 'xml'], 'entistore: --log must be text or json, got "xml"'],
    [['--log', 'json', '--quiet'], 'entistore: --log and --quiet cannot go together'],
    [['--quite'], 'entistore: unknown option "--quite", did you mean --quiet?'],
    [
      ['--allow-http', 'http://api.example.com'],
      'entistore: --allow-http takes hosts: host, host:port or *.domain',
    ],
    [['--allow-http', ','], 'entistore: --allow-http takes hosts'],
    [['--allow-smtp', 'smtp://mail.example.com'], 'entistore: --allow-smtp takes hosts'],
  ])('refuses %j in one line and the pointer to the help', async (argv, message) => {
    const { code, err } = await usage(argv)
    expect(code).toBe(2)
    expect(err).toEqual([
      expect.stringContaining(message),
      "run 'entistore serve --help' for its options",
    ])
  })

  it.each([
    [['--cors']],
    [['--cors', '*']],
    [['--cors', '--quiet']],
    [['--cors', 'http://localhost:5173,https://app.example.com', '--log', 'json']],
    [['--quiet', '--cors']],
  ])('takes %j (then fails on the missing model, not on the line)', async (argv) => {
    const { code, err } = await usage(argv)
    expect(code).toBe(1)
    expect(err.join('\n')).toContain('/nonexistent/model.json')
  })
})

describe('what serve --cors answers a page', () => {
  const DEMO = new URL('../../../../examples/company/', import.meta.url).pathname
  let served: Started | undefined
  afterEach(async () => {
    await served?.stop()
    served = undefined
  })

  /** Serves the demo with `cors` (the option's words), quiet. */
  async function serveWith(cors: string[]) {
    served = await startServe([
      'serve',
      '-m',
      `${DEMO}model.json`,
      '-d',
      `${DEMO}data.json`,
      '--no-explorer',
      '--quiet',
      ...cors,
    ])
    return served.url
  }

  /** The CORS headers of a GET from `origin`, and of a preflight from it asking private network access. */
  async function corsOf(url: string, origin: string) {
    const read = await fetch(`${url}/rest/Employee(1)`, { headers: { origin } })
    await read.arrayBuffer()
    const pre = await fetch(`${url}/rest/Employee(1)`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-private-network': 'true',
      },
    })
    await pre.arrayBuffer()
    return {
      origin: read.headers.get('access-control-allow-origin'),
      credentials: read.headers.get('access-control-allow-credentials'),
      preflight: pre.headers.get('access-control-allow-origin'),
      privateNetwork: pre.headers.get('access-control-allow-private-network'),
    }
  }

  it('alone: the pages on this machine, with their cookie, on any port; no other page', async () => {
    const url = await serveWith(['--cors'])
    for (const origin of [
      'http://localhost:5173',
      'http://127.0.0.1:5173',
      'http://[::1]:3000',
      'https://localhost',
    ])
      expect(await corsOf(url, origin)).toMatchObject({ origin, credentials: 'true' })
    for (const origin of ['https://evil.example', 'http://192.168.1.20:5173', 'null'])
      expect(await corsOf(url, origin)).toEqual({
        origin: null,
        credentials: null,
        preflight: null,
        privateNetwork: null,
      })
  })

  it("'*' written: any page reads, without cookies, and no public page reaches this machine", async () => {
    const url = await serveWith(['--cors', '*'])
    expect(await corsOf(url, 'https://preview.example.com')).toEqual({
      origin: '*',
      credentials: null,
      preflight: '*',
      privateNetwork: null,
    })
  })

  it('a list: those origins, with their cookie and private network access, as before', async () => {
    const url = await serveWith(['--cors', 'http://localhost:5173,https://preview.example.com'])
    expect(await corsOf(url, 'https://preview.example.com')).toEqual({
      origin: 'https://preview.example.com',
      credentials: 'true',
      preflight: 'https://preview.example.com',
      privateNetwork: 'true',
    })
    // Another host name is another origin: not in the list.
    expect((await corsOf(url, 'http://127.0.0.1:5173')).origin).toBeNull()
  })

  it('says on stderr, once, the origin it refuses and the --cors that would allow it', async () => {
    const url = await serveWith(['--cors', 'http://localhost:5173'])
    for (let i = 0; i < 3; i++) await corsOf(url, 'http://127.0.0.1:5173')
    // The server's own page (the explorer) sends Origin with its writes: not refused.
    await corsOf(url, url)
    expect(served!.err).toEqual([
      'entistore: CORS: refused the origin http://127.0.0.1:5173 (not allowed by --cors): its ' +
        'pages read no reply (Failed to fetch), whatever the status logged; http://localhost:5173 ' +
        'is allowed, and http://127.0.0.1:5173 is another origin of the same machine: open the ' +
        'page at http://localhost:5173, or allow both: --cors ' +
        'http://localhost:5173,http://127.0.0.1:5173',
    ])
  })

  it('says on stderr, once, that a page on another site cannot send its session cookie back', async () => {
    const url = await serveWith(['--cors', 'http://localhost:5173'])
    const port = new URL(url).port
    // Every reply to a new client carries its (guest) session cookie.
    for (let i = 0; i < 2; i++) await corsOf(url, 'http://localhost:5173')
    expect(served!.err).toEqual([
      `entistore: CORS: a page on http://localhost:5173 was sent its session cookie by ` +
        `127.0.0.1:${port}, another site: the browser does not send it back from that page, so a ` +
        `login lasts no longer than its reply (the requests after it answer 401); call the ` +
        `server at localhost:${port} from the page, or open the page on the server's host`,
    ])
  })
})
