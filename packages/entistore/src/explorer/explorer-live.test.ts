/**
 * The explorer following a selection live (its "Follow live" toggle on the live feed,
 * `GET /rest/{dataClass}/$changes`), in a real browser: Debian's Chromium driven by playwright-core
 * against the company demo served by a fixture, as explorer-page.test.ts does. The tests write
 * through the REST interface (fetch to the fixture's URL), as another client would, and wait for
 * the page's rows to follow; that the stream is closed is read on the server (its feed's count of
 * subscribers). Screenshots go to test-results/explorer/ (git-ignored).
 *
 * Without Chromium the browser suite is skipped, except under CI.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Browser, Page, Request } from 'playwright-core'
import { startFixture, type ServedFixture } from '../fixture.js'
import { chromiumAvailable, launchChromium, root, SHOTS } from './chromium.fixture.js'

/** The row key and attribute of the focused cell, read in the page (no DOM types here). */
const focusedCell = (): (string | null | undefined)[] => {
  type Node = { getAttribute(name: string): string | null; closest(s: string): Node | null }
  const active = (globalThis as unknown as { document: { activeElement: Node | null } }).document
    .activeElement
  return [active?.closest('tr')?.getAttribute('data-key'), active?.getAttribute('data-attribute')]
}

/** Whether a request is the live feed's. */
const isFeed = (url: URL | string): boolean => new URL(String(url)).pathname.endsWith('/$changes')

describe.skipIf(!chromiumAvailable)('the explorer following a selection live, in Chromium', () => {
  const on = {} as { fixture: ServedFixture; browser: Browser; page: Page }
  // What went wrong in the page, said when a test fails.
  const problems: string[] = []
  beforeAll(async () => {
    on.fixture = await startFixture({
      model: `${root}examples/company/model.json`,
      data: `${root}examples/company/data.json`,
      explorer: true,
    })
    on.browser = await launchChromium()
    on.page = await on.browser.newPage({ viewport: { width: 1280, height: 760 } })
    on.page.on('pageerror', (e) => problems.push(`page error: ${e.message}`))
    on.page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`))
  })
  // Each test from the demo's data, the page of the one before gone (its stream closed first, so
  // that the restore is not a reset it follows).
  beforeEach(async () => {
    await on.page.goto('about:blank')
    await expect.poll(streams).toBe(0)
    on.fixture.reset()
    problems.length = 0
  })
  afterAll(async () => {
    await on.browser?.close()
    await on.fixture?.close()
  })

  const shot = (name: string) => on.page.screenshot({ path: `${SHOTS}${name}.png` })
  const status = () => on.page.locator('#status').textContent()
  const liveState = () => on.page.getAttribute('#live-state', 'data-state')
  const pressed = () => on.page.getAttribute('#live', 'aria-pressed')
  const news = () => on.page.locator('#live-news').textContent()
  /** The streams the server is sending: the live feed's subscribers. */
  const streams = () => on.fixture.ds.changeFeed.size
  const row = (key: unknown) => on.page.locator(`#rows tbody tr[data-key="${String(key)}"]`)
  const rowKeys = () =>
    on.page.locator('#rows tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.key))

  /** A write through the REST interface, as another client would send it. */
  async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
    const res = await fetch(`${on.fixture.url}/rest/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    const reply = (await res.json()) as Record<string, unknown>
    expect(res.status, JSON.stringify(reply)).toBe(200)
    return reply
  }
  const create = (values: Record<string, unknown>) => post('Employee?$method=update', values)
  const update = (key: unknown, values: Record<string, unknown>) =>
    post('Employee?$method=update', { __KEY: key, ...values })
  const remove = (key: unknown) => post(`Employee(${String(key)})?$method=delete`, {})

  async function openEmployees(filter?: string): Promise<void> {
    // From another document: a URL that differs from the page's only by its hash would not load it.
    await on.page.goto('about:blank')
    await on.page.goto(`${on.fixture.url}/#dataclass=Employee`)
    await expect
      .poll(status)
      .toBe('360 entities')
      .catch((e: Error) => {
        throw new Error([e.message, ...problems].join('\n'))
      })
    if (filter === undefined) return
    await on.page.fill('#filter', filter)
    await on.page.click('#query button[type=submit]')
    await expect.poll(() => on.page.locator('#source').textContent()).toContain(filter)
  }

  async function followLive(): Promise<void> {
    await on.page.click('#live')
    await expect.poll(liveState).toBe('on')
    expect(await pressed()).toBe('true')
    await expect.poll(streams).toBe(1)
  }

  it('follows a filtered selection: new rows appear, changed ones are marked, gone ones go', async () => {
    await openEmployees("lastName = 'Live@'")
    await expect.poll(status).toBe('0 entities')
    expect([await liveState(), await pressed(), streams()]).toEqual(['off', 'false', 0])
    // The toggle works from the keyboard.
    await on.page.focus('#live')
    await on.page.keyboard.press('Space')
    await expect.poll(liveState).toBe('on')
    expect(await pressed()).toBe('true')
    await expect.poll(streams).toBe(1)

    const one = (await create({ lastName: 'Live one', salary: 1000 })).__KEY
    await expect.poll(() => row(one).getAttribute('data-live')).toBe('created')
    await expect.poll(status).toBe('1 entity')
    expect(await news()).toBe(`Employee(${String(one)}) created`)
    const two = (await create({ lastName: 'Live two', salary: 2000 })).__KEY
    await expect.poll(rowKeys).toEqual([one, two])
    await expect.poll(status).toBe('2 entities')

    // Changed in place, and marked: the row's cells are on the highlight colour for a moment.
    await update(one, { salary: 1500 })
    const salary = row(one).locator('td[data-attribute=salary]')
    await expect.poll(() => salary.textContent()).toBe('1500')
    await expect.poll(() => row(one).getAttribute('data-live')).toBe('updated')
    expect(await rowKeys()).toEqual([one, two])
    const cellColour = await salary.evaluate(
      (td) =>
        (
          globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }
        ).getComputedStyle(td).backgroundColor,
    )
    expect(cellColour).toBe('rgb(227, 236, 253)') // --live, light theme
    await shot('live-1-following')

    // Out of the filter: the entity still exists, its row goes.
    await update(one, { lastName: 'Dead one' })
    await expect.poll(rowKeys).toEqual([two])
    expect(await news()).toBe(`Employee(${String(one)}) left the selection`)
    // Deleted.
    await remove(two)
    await expect.poll(rowKeys).toEqual([])
    await expect.poll(status).toBe('0 entities')
    expect(await news()).toBe(`Employee(${String(two)}) deleted`)
    // Into the filter by an update: it comes in.
    await update(one, { lastName: 'Live again' })
    await expect.poll(rowKeys).toEqual([one])
    expect(await row(one).locator('td[data-attribute=lastName]').textContent()).toBe('Live again')
    await remove(one)
    await expect.poll(rowKeys).toEqual([])
  })

  it('reads the page again in its sort order, and names a change on another page', async () => {
    await openEmployees()
    await on.page.click('#rows th button[title="Sort by salary"]')
    await expect
      .poll(() => on.page.getAttribute('#rows th:has(button[title="Sort by salary"])', 'aria-sort'))
      .toBe('ascending')
    await on.page.click('#rows th button[title="Sort by salary"]')
    await expect
      .poll(() => on.page.getAttribute('#rows th:has(button[title="Sort by salary"])', 'aria-sort'))
      .toBe('descending')
    await followLive()

    // The highest salary: first on the first page, marked as new.
    const top = (await create({ lastName: 'Topmost', salary: 999_999 })).__KEY
    await expect.poll(async () => (await rowKeys())[0]).toBe(top)
    expect(await row(top).getAttribute('data-live')).toBe('created')
    await expect.poll(status).toBe('361 entities')
    expect(await rowKeys()).toHaveLength(25)
    // The lowest: on the last page, not this one; counted and named.
    const low = (await create({ lastName: 'Lowest', salary: 1 })).__KEY
    await expect.poll(status).toBe('362 entities')
    expect(await news()).toBe(`Employee(${String(low)}) created (not on this page)`)
    expect(await rowKeys()).not.toContain(low)
    await expect.poll(() => on.page.locator('#page').textContent()).toBe('Page 1 of 15')

    // The keyboard focus stays on its cell while the rows are drawn again.
    const cell = row(top).locator('td[data-attribute=lastName]')
    await cell.focus()
    await update(top, { salary: 999_998 })
    await expect
      .poll(() => row(top).locator('td[data-attribute=salary]').textContent())
      .toBe('999998')
    expect(await on.page.evaluate(focusedCell)).toEqual([top, 'lastName'])

    // Paging shows another window of the same selection: the same stream goes on.
    await on.page.click('#next')
    await expect.poll(() => on.page.locator('#page').textContent()).toBe('Page 2 of 15')
    expect([await liveState(), streams()]).toEqual(['on', 1])
    // The first page loses a row: the second page's first row moves up, as the server says.
    await remove(top)
    await expect.poll(status).toBe('361 entities')
    const res = await fetch(
      `${on.fixture.url}/rest/Employee?$orderby=salary%20desc&$skip=25&$top=1`,
    )
    const page2 = (await res.json()) as { __ENTITIES?: { __KEY: string }[] }
    const expected = page2.__ENTITIES?.[0]
    expect(expected, JSON.stringify(page2).slice(0, 300)).toBeDefined()
    await expect.poll(async () => (await rowKeys())[0]).toBe(expected!.__KEY)
    expect(await news()).toBe(`Employee(${String(top)}) deleted`)
    await on.page.mouse.wheel(0, -10_000)
    await shot('live-2-sorted-page-2')
    await remove(low)
    await expect.poll(status).toBe('360 entities')
  })

  it('reads the page a few times for a burst of changes, not once for each', async () => {
    await openEmployees("lastName = 'Burst@'")
    const reads: string[] = []
    const seen = (r: Request) => {
      const url = new URL(r.url())
      if (url.pathname.endsWith('/rest/Employee') && url.searchParams.has('$top'))
        reads.push(r.url())
    }
    await followLive()
    on.page.on('request', seen)
    try {
      // 60 writes in one turn of the server's event loop: their events reach the page together.
      const Employee = on.fixture.ds.dataClass('Employee')
      let last: unknown
      for (let i = 0; i < 60; i++) last = Employee.create({ lastName: `Burst ${i}`, salary: i }).key
      await expect.poll(status).toBe('60 entities')
      // The changes told since the last drawing: how many, and the last ones.
      await expect
        .poll(news)
        .toMatch(
          new RegExp(
            `changes, the last: .*Employee\\(${String(last)}\\) created \\(not on this page\\)$`,
          ),
        )
      expect(await rowKeys()).toHaveLength(25)
      expect(reads.length).toBeLessThanOrEqual(5)
    } finally {
      on.page.off('request', seen)
    }
  })

  it('closes the stream when turned off, on a new filter or dataclass, and on leaving', async () => {
    await openEmployees("lastName = 'S@'")
    await followLive()
    await on.page.click('#live')
    await expect.poll(streams).toBe(0)
    expect([await liveState(), await pressed()]).toEqual(['off', 'false'])

    await followLive()
    await on.page.fill('#filter', "lastName = 'T@'")
    await on.page.click('#query button[type=submit]')
    await expect.poll(streams).toBe(0)
    expect([await liveState(), await pressed()]).toEqual(['off', 'false'])

    await followLive()
    await on.page.click('#clear')
    await expect.poll(streams).toBe(0)

    await followLive()
    await on.page.click('#classes button[data-dataclass=Company]')
    await expect.poll(status).toBe('24 entities')
    await expect.poll(streams).toBe(0)
    expect(await pressed()).toBe('false')

    await followLive()
    await on.page.goto('about:blank')
    await expect.poll(streams).toBe(0)
  })

  it('reads the rows again after a reset (the data restored) and follows from there', async () => {
    const feeds: string[] = []
    const seen = (r: Request) => void (isFeed(r.url()) && feeds.push(r.url()))
    on.page.on('request', seen)
    try {
      await openEmployees("lastName = 'Reset@'")
      await followLive()
      const one = (await create({ lastName: 'Reset one' })).__KEY
      await expect.poll(rowKeys).toEqual([one])
      // Restoring the data starts the feed's history over: the page is told to read again. (The
      // session is kept: closing it would end the stream, which the browser would resume after
      // its `retry:` delay, to be told the same.)
      on.fixture.reset({ keepSessions: true })
      await expect.poll(rowKeys).toEqual([])
      await expect.poll(() => news()).toBe('(reset: the rows were read again)')
      await expect.poll(liveState).toBe('on')
      await expect.poll(streams).toBe(1)
      // The new stream starts at the stamp of the read it follows, the restored one.
      expect(feeds, feeds.join('\n')).toHaveLength(2)
      const since = new URL(feeds[1]!).searchParams.get('$since')
      expect(since).toBe(String(on.fixture.ds.globalStamp))
      const two = (await create({ lastName: 'Reset two' })).__KEY
      await expect.poll(rowKeys).toEqual([two])
    } finally {
      on.page.off('request', seen)
    }
  })

  it('reads the rows again when dropped, and subscribes from the new envelope stamp', async () => {
    await openEmployees("lastName = 'Drop@'")
    // The first stream is dropped at once (a subscriber fallen too far behind, as the server says
    // it); the next ones reach the server.
    await on.page.route(
      isFeed,
      (route) =>
        route.fulfill({
          status: 200,
          contentType: 'text/event-stream',
          body: 'retry: 60000\n\nid: 1\nevent: dropped\ndata: {"__GlobalStamp":1}\n\n',
        }),
      { times: 1 },
    )
    const feeds: string[] = []
    const seen = (r: Request) => void (isFeed(r.url()) && feeds.push(r.url()))
    on.page.on('request', seen)
    const stamps: number[] = []
    const envelope = async (r: import('playwright-core').Response) => {
      const url = new URL(r.url())
      if (url.pathname.endsWith('/rest/Employee') && url.searchParams.has('$top'))
        stamps.push(((await r.json()) as { __GlobalStamp: number }).__GlobalStamp)
    }
    on.page.on('response', envelope)
    try {
      // Written after the page's read: the read after the drop shows it.
      const before = (await create({ lastName: 'Drop before' })).__KEY
      await on.page.click('#live')
      await expect.poll(() => news()).toBe('(dropped: the rows were read again)')
      await expect.poll(liveState).toBe('on')
      // Two streams asked for: the dropped one, then one from the stamp of the read after it.
      expect(feeds).toHaveLength(2)
      const since = new URL(feeds[1]!).searchParams.get('$since')
      await expect.poll(() => stamps.at(-1)).toBe(Number(since))
      expect(await rowKeys()).toEqual([before])
      await expect.poll(streams).toBe(1)
      const two = (await create({ lastName: 'Drop after' })).__KEY
      await expect.poll(rowKeys).toEqual([before, two])
    } finally {
      on.page.off('response', envelope)
      on.page.off('request', seen)
      await on.page.unroute(isFeed)
    }
  })

  it('says why a refused feed stops, and offers no following of a relation', async () => {
    await openEmployees("lastName = 'S@'")
    const refusal = {
      __ERROR: [
        { message: 'No permission to follow Employee', componentSignature: 'dbmg', errCode: 1557 },
      ],
    }
    await on.page.route(isFeed, (route) =>
      route.fulfill({
        status: 403,
        contentType: 'application/json',
        body: JSON.stringify(refusal),
      }),
    )
    try {
      await on.page.click('#live')
      await expect.poll(pressed).toBe('false')
      expect(await liveState()).toBe('off')
      expect(await news()).toBe('(the live feed was refused: No permission to follow Employee)')
      await shot('live-3-refused')
    } finally {
      await on.page.unroute(isFeed)
    }
    expect(streams()).toBe(0)

    await on.page.click('#clear')
    await expect.poll(status).toBe('360 entities')
    await on.page.locator('#rows tbody tr:first-child td[data-attribute=employer] button').click()
    await expect.poll(() => on.page.locator('#source').textContent()).toBe('Followed: Company(1)')
    expect(await on.page.locator('#live').isDisabled()).toBe(true)
    expect(await on.page.getAttribute('#live', 'title')).toBe(
      'Not available: a followed relation is not followed live',
    )
  })
})
