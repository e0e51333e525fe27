/**
 * @module Sessions for a load's connections, as real clients hold them: one per connection, each
 * opened by a GET of `$catalog` on a connection of its own, then sent back once, so that the
 * server keeps it (a guest is kept once its client comes back; with Redis at once, where any
 * worker finds it), checked by that second reply setting no new cookie. A load that sends no
 * cookie measures a server opening a guest session for every request (4D's rule, and issue 78's:
 * every session counts), not what a client of the REST API does.
 */
import { httpClient } from './replication-lag.ts'

/** A cookie a connection, for `connections` connections to `origin` (`label` names it in errors). */
export async function sessionCookies(
  label: string,
  origin: string,
  connections: number,
): Promise<{ cookie: string }[]> {
  const cookies: { cookie: string }[] = []
  for (let c = 0; c < connections; c++) {
    const client = httpClient(origin, { fresh: true })
    const opened = await client.send('GET', '/rest/$catalog')
    const cookie = client.cookie()
    const again = await client.send('GET', '/rest/$catalog')
    if (opened.status !== 200 || again.status !== 200 || cookie === undefined)
      throw new Error(`${label}: GET /rest/$catalog answered ${opened.status}, no cookie`)
    if (client.cookie() !== cookie)
      throw new Error(`${label}: the session of GET /rest/$catalog was not kept`)
    cookies.push({ cookie })
  }
  return cookies
}
