/**
 * @module For the cluster's tests of the live feed: a subscriber of `/rest/{dataClass}/$changes`
 * over one socket of its own (pinned to one process: `/health` first on that socket says which),
 * that keeps the ids of the events it got and reconnects with `Last-Event-ID`.
 */
import { Agent, request, type IncomingMessage } from 'node:http'

/** How long the events of a write may take to reach every subscriber (a busy CI machine). */
export const WITHIN_MS = 30_000

export interface Health {
  readonly pid: number
  readonly writer?: boolean
}

/** A subscriber over one socket: the events it got, by id; it reconnects when asked. */
export class Subscriber {
  readonly ids: number[] = []
  readonly types: string[] = []
  pid = 0
  #res: IncomingMessage | undefined
  #agent: Agent | undefined
  ended: Promise<void> = Promise.resolve()

  constructor(
    readonly base: string,
    readonly dataClass: string,
  ) {}

  get last(): number | undefined {
    return this.ids.at(-1)
  }

  /** Opens the stream on a new socket (after `/health` on it, which says which process it is). */
  async open(since: number): Promise<void> {
    this.#agent?.destroy()
    const agent = (this.#agent = new Agent({ keepAlive: true, maxSockets: 1 }))
    const health = await get(this.base, '/health', agent)
    this.pid = (JSON.parse(health) as Health).pid
    const headers: Record<string, string> = { accept: 'text/event-stream' }
    if (this.last !== undefined) headers['last-event-id'] = String(this.last)
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      request(
        `${this.base}/rest/${this.dataClass}/$changes?$since=${since}`,
        { agent, headers },
        resolve,
      )
        .on('error', reject)
        .end(),
    )
    if (res.statusCode !== 200) throw new Error(`$changes answered ${res.statusCode}`)
    this.#res = res
    let text = ''
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      text += chunk
      for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
        const block = text.slice(0, end)
        text = text.slice(end + 2)
        const id = /^id: (\d+)$/m.exec(block)?.[1]
        const type = /^event: (\w+)$/m.exec(block)?.[1]
        if (type === undefined) continue
        this.types.push(type)
        if (type === 'created' || type === 'updated' || type === 'deleted')
          this.ids.push(Number(id))
      }
    })
    this.ended = new Promise((resolve) => {
      res.on('close', resolve)
      res.on('error', () => resolve())
    })
  }

  close(): void {
    this.#res?.destroy()
    this.#agent?.destroy()
  }
}

export function get(base: string, path: string, agent?: Agent): Promise<string> {
  return new Promise((resolve, reject) =>
    request(`${base}${path}`, { agent: agent ?? false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (body += d))
      res.on('end', () => resolve(body))
    })
      .on('error', reject)
      .end(),
  )
}

/** Waits (polling, never a fixed sleep) until `done()`, or fails after WITHIN_MS saying `what`. */
export async function until(done: () => boolean, what: () => string): Promise<void> {
  const start = Date.now()
  while (!done()) {
    if (Date.now() - start > WITHIN_MS) throw new Error(`not within ${WITHIN_MS} ms: ${what()}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** `/health` on a fresh connection to the same process as `s`: asked through its pid's answer. */
export async function getOn(s: Subscriber): Promise<string> {
  for (let i = 0; i < 30; i++) {
    const body = await get(s.base, '/health')
    if ((JSON.parse(body) as Health).pid === s.pid) return body
  }
  throw new Error(`process ${s.pid} never answered /health`)
}
