/**
 * @module A REST client as a 4D page or `@4d/rest` is one: JSON bodies with
 * `Content-Type: application/json`, the session cookie sent back on every call, `__ERROR` read as
 * an error whatever the status.
 */
export interface Answer {
  readonly status: number
  readonly body: any
  /** The first `__ERROR` entry's code and message, when the body holds one. */
  readonly error: { readonly errCode?: number; readonly message?: string } | undefined
}

export class Client {
  #cookies = new Map<string, string>()

  constructor(readonly origin: string) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const cookie = [...this.#cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const res = await fetch(this.origin + path, {
      method,
      headers: {
        'content-type': 'application/json',
        ...(cookie === '' ? {} : { cookie }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    for (const set of res.headers.getSetCookie()) {
      const [pair] = set.split(';')
      const eq = pair!.indexOf('=')
      this.#cookies.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim())
    }
    const text = await res.text()
    let parsed: any
    try {
      parsed = text === '' ? undefined : JSON.parse(text)
    } catch {
      parsed = text
    }
    const first = Array.isArray(parsed?.__ERROR) ? parsed.__ERROR[0] : undefined
    return { status: res.status, body: parsed, error: first }
  }

  get = (path: string): Promise<Answer> => this.request('GET', path)
  post = (path: string, body: unknown = {}): Promise<Answer> => this.request('POST', path, body)
}

/** `403 1234 message` for a refused answer, `200` for a good one. */
export const said = (a: Answer): string =>
  a.error === undefined && a.status < 400
    ? String(a.status)
    : `${a.status} ${a.error?.errCode ?? ''} ${a.error?.message ?? String(a.body).slice(0, 120)}`.trim()
