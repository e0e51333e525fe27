/**
 * The explorer page in a real browser: Debian's Chromium driven by playwright-core, against the
 * company demo served by a fixture (its data and class functions). Each main state is saved as a
 * screenshot under test-results/explorer/ (git-ignored) for a person to look at.
 *
 * Without Chromium the suite is skipped, except under CI (`.ci/install-services.sh` installs it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Browser, Page } from 'playwright-core'
import { startFixture, type ServedFixture, type StartFixtureOptions } from '../fixture.js'
import { usersAuthenticate } from '../serve/users.js'
import { chromiumAvailable, launchChromium, root, SHOTS } from './chromium.fixture.js'

/** The theme the person chose, as the page stored it (read in the page). */
const storedTheme = (): string | null =>
  (
    globalThis as unknown as { localStorage: { getItem(key: string): string | null } }
  ).localStorage.getItem('entistore-theme')

/** An attribute of the focused element, read in the page (no DOM types in the tests' Node build). */
const focusedAttribute = (name: string): string | null | undefined =>
  (
    globalThis as unknown as {
      document: { activeElement: { getAttribute(name: string): string | null } | null }
    }
  ).document.activeElement?.getAttribute(name)

const COMPANY = {
  model: `${root}examples/company/model.json`,
  data: `${root}examples/company/data.json`,
  explorer: true,
} as const

/**
 * A page in Chromium on a fixture served for the tests of one describe block: started before them,
 * closed after them.
 */
function explorerOn(options: StartFixtureOptions): {
  readonly fixture: ServedFixture
  readonly page: Page
} {
  const opened = {} as { fixture: ServedFixture; browser: Browser; page: Page }
  beforeAll(async () => {
    opened.fixture = await startFixture(options)
    opened.browser = await launchChromium()
    opened.page = await opened.browser.newPage({ viewport: { width: 1280, height: 760 } })
  })
  afterAll(async () => {
    await opened.browser?.close()
    await opened.fixture?.close()
  })
  return opened
}

describe.skipIf(!chromiumAvailable)('the explorer page in Chromium', () => {
  const on = explorerOn({ ...COMPANY, functions: `${root}examples/company/functions.js` })

  const shot = (name: string) => on.page.screenshot({ path: `${SHOTS}${name}.png` })
  const status = () => on.page.locator('#status').textContent()
  const firstCell = (attribute: string) =>
    on.page.locator(`#rows tbody tr:first-child td[data-attribute="${attribute}"]`).textContent()
  const runFilter = async (filter: string, params = '') => {
    await on.page.fill('#filter', filter)
    await on.page.fill('#params', params)
    await on.page.click('#query button[type=submit]')
  }

  it('loads with no failed request and no console error (its icon is inline)', async () => {
    const failed: string[] = []
    const record = (what: string) => failed.push(what)
    on.page.on('console', (m) => m.type() === 'error' && record(`console: ${m.text()}`))
    on.page.on('requestfailed', (r) => record(`failed: ${r.url()}`))
    on.page.on('response', (r) => r.status() >= 400 && record(`${r.status()}: ${r.url()}`))
    try {
      // The browser asks for an icon after the load: the network has to fall quiet first.
      await on.page.goto(`${on.fixture.url}/`, { waitUntil: 'networkidle' })
      await expect.poll(status).toBe('24 entities')
      expect(failed).toEqual([])
    } finally {
      on.page.removeAllListeners('console')
      on.page.removeAllListeners('requestfailed')
      on.page.removeAllListeners('response')
    }
  })

  it('lists the dataclasses from $catalog and shows the first one, pictures included', async () => {
    const errors: string[] = []
    on.page.on('pageerror', (e) => errors.push(e.message))
    await on.page.goto(`${on.fixture.url}/`)
    await expect
      .poll(() => on.page.locator('#classes button').allTextContents())
      .toEqual(['Company', 'Employee', 'Project'])
    await expect.poll(status).toBe('24 entities')
    expect(await on.page.locator('#title').textContent()).toBe('Company')
    // Each company but Wonka has a 64×64 logo: the pictures load from the REST interface.
    await expect
      .poll(() =>
        on.page.$$eval(
          '#rows img',
          (imgs) =>
            imgs.filter((i) => (i as unknown as { naturalWidth: number }).naturalWidth === 64)
              .length,
        ),
      )
      .toBeGreaterThan(10)
    await shot('1-dataclass')
    expect(errors).toEqual([])
  })

  it("gives the filter an example and the figures an attribute of the dataclass's own", async () => {
    // Company: the first numeric attribute that is neither the key nor a foreign key, its value in
    // the first row as the parameters' example; the first text attribute, its first row's initial.
    const acme = on.fixture.ds.dataClass('Company').get(1)!
    expect(await on.page.locator('#filter-hint').textContent()).toBe(
      "revenues > :1 and name = 'A@'",
    )
    expect(await on.page.getAttribute('#params', 'placeholder')).toBe(`[${acme.get('revenues')}]`)
    expect(await on.page.inputValue('#compute-attr')).toBe('revenues')
    await expect
      .poll(() => on.page.locator('#compute dd[data-figure=count]').textContent())
      .toBe('24')
    // The example runs as it is.
    await runFilter("revenues > :1 and name = 'A@'", `[${acme.get('revenues')}]`)
    const expected = on.fixture.ds
      .dataClass('Company')
      .query("revenues > :1 and name = 'A@'", acme.get('revenues')).length
    await expect.poll(status).toBe(`${expected} ${expected === 1 ? 'entity' : 'entities'}`)
    // Project: its key is a uuid, its numbers a budget; Employee's salary comes before the key
    // and the employerID foreign key.
    await on.page.click('#classes button[data-dataclass=Project]')
    await expect.poll(() => on.page.inputValue('#compute-attr')).toBe('budget')
    await expect
      .poll(() => on.page.locator('#filter-hint').textContent())
      .toMatch(/^budget > :1 and title = '.@'$/)
  })

  it('pages through a dataclass with $top and $skip', async () => {
    await on.page.click('#classes button[data-dataclass=Employee]')
    await expect.poll(status).toBe('360 entities')
    expect(await on.page.locator('#page').textContent()).toBe('Page 1 of 15')
    expect(await firstCell('ID')).toBe('1')
    await on.page.click('#next')
    await expect.poll(() => on.page.locator('#page').textContent()).toBe('Page 2 of 15')
    expect(await firstCell('ID')).toBe('26')
    // Rows a page reads at once, no Run needed, on the page that holds the first row shown (26).
    await on.page.selectOption('#page-size', '10')
    await expect.poll(() => on.page.locator('#page').textContent()).toBe('Page 3 of 36')
    expect(await firstCell('ID')).toBe('21')
    expect(await on.page.locator('#rows tbody tr').count()).toBe(10)
    await on.page.click('#prev')
    await expect.poll(() => firstCell('ID')).toBe('11')
    await on.page.selectOption('#page-size', '25')
    await expect.poll(() => on.page.locator('#page').textContent()).toBe('Page 1 of 15')
    expect(await firstCell('ID')).toBe('1')
    const ada = on.fixture.ds.dataClass('Employee').get(1)!
    expect(await on.page.locator('#filter-hint').textContent()).toBe(
      `salary > :1 and firstName = '${String(ada.get('firstName'))[0]}@'`,
    )
    expect(await on.page.locator('#compute-attr option').allTextContents()).toEqual([
      'salary',
      'ID',
      'employerID',
    ])
  })

  it('scrolls a wide dataclass in its own box, the row actions in view (1280 px)', async () => {
    expect(on.page.viewportSize()?.width).toBe(1280)
    // Employee's 13 columns are wider than the room the table has: the box scrolls, the page not.
    const wrap = on.page.locator('.table-wrap')
    const box = await wrap.evaluate((w) => ({ scroll: w.scrollWidth, client: w.clientWidth }))
    expect(box.scroll).toBeGreaterThan(box.client)
    const pageWidth = await on.page
      .locator('html')
      .evaluate((html) => ({ scroll: html.scrollWidth, client: html.clientWidth }))
    expect(pageWidth.scroll).toBe(pageWidth.client)
    // Every row's Delete button is on screen, on top, wherever the table is scrolled to. (The page
    // is scrolled to its top for the header and the first row to be in the viewport.)
    await on.page.mouse.wheel(0, -10_000)
    await expect.poll(() => on.page.locator('html').evaluate((html) => html.scrollTop)).toBe(0)
    for (const scrollLeft of [0, box.scroll]) {
      await wrap.evaluate((w, left) => (w.scrollLeft = left), scrollLeft)
      const buttons = await on.page.locator('#rows td.row-actions button').evaluateAll((all) =>
        all.map((b) => {
          const r = b.getBoundingClientRect()
          return { left: r.left, right: r.right }
        }),
      )
      expect(buttons).toHaveLength(25)
      for (const b of buttons) expect([b.left >= 0, b.right <= 1280]).toEqual([true, true])
      const first = on.page.locator('#rows tbody tr:first-child td.row-actions button')
      const hit = await first.evaluate((b) => {
        const r = b.getBoundingClientRect()
        return b.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === b
      })
      expect(hit, `the first Delete button is on top at scrollLeft ${scrollLeft}`).toBe(true)
    }
    // Every column can be scrolled into the box, uncovered by the row actions.
    const hidden = await wrap.evaluate((w) => {
      const out: string[] = []
      for (const th of w.querySelectorAll('#rows th:not(.row-actions)')) {
        const left = th.getBoundingClientRect().left - w.getBoundingClientRect().left
        w.scrollLeft += left
        const r = th.getBoundingClientRect()
        const at = w.ownerDocument.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2)
        if (!th.contains(at)) out.push(th.textContent)
      }
      w.scrollLeft = 0
      return out
    })
    expect(hidden).toEqual([])
    await shot('1b-wide-table')
  })

  it('filters with the real grammar and $params, and draws the query plan', async () => {
    await runFilter('salary > :1', '[140000]')
    const expected = on.fixture.ds.dataClass('Employee').query('salary > :1', 140000).length
    await expect.poll(status).toBe(`${expected} entities`)
    const step = on.page.locator('#plan .plan-step', { hasText: 'Employee.salary' })
    expect(await step.textContent()).toBe('[index : Employee.salary ] > 140000')
    expect(await step.getAttribute('class')).toContain('indexed')
    await runFilter("salary > 50000 and (lastName = 'S@' or employer.name = 'A@')")
    await expect
      .poll(() => on.page.locator('#plan .operator').allTextContents())
      .toEqual(['And', 'Or'])
    await shot('2-filter-and-plan')
  })

  it('finds the rows of a value typed in double quotes (sent as \\u0022)', async () => {
    await runFilter('lastName = "S@"')
    const expected = on.fixture.ds.dataClass('Employee').query("lastName = 'S@'").length
    expect(expected).toBeGreaterThan(0)
    await expect.poll(status).toBe(`${expected} entities`)
    expect(await firstCell('lastName')).toMatch(/^S/)
  })

  it('says in the subtitle what a filter shows, whatever the count, 0 included', async () => {
    const source = () => on.page.locator('#source').textContent()
    await runFilter('salary > :1', '[1000000]')
    await expect.poll(status).toBe('0 entities')
    expect(await source()).toBe('Employee: 0 entities where salary > :1 (parameters [1000000])')
    await runFilter('salary > 149000')
    const expected = on.fixture.ds.dataClass('Employee').query('salary > 149000').length
    await expect
      .poll(source)
      .toBe(`Employee: ${expected} ${expected === 1 ? 'entity' : 'entities'} where salary > 149000`)
    await on.page.click('#clear')
    await expect.poll(source).toBe('Employee: all entities')
  })

  it('shows a syntax error at its position', async () => {
    await runFilter('salary > > 3')
    const error = on.page.locator('#filter-error')
    await expect.poll(() => error.isVisible()).toBe(true)
    expect(await error.textContent()).toContain('column 10')
    expect(await on.page.locator('#filter-error .caret').textContent()).toBe(
      'salary > > 3\n         ^',
    )
    expect(await on.page.getAttribute('#filter', 'aria-invalid')).toBe('true')
    await shot('3-syntax-error')
    await on.page.click('#clear')
    await expect.poll(status).toBe('360 entities')
  })

  it('shows no plan or figures of the previous query once a filter fails', async () => {
    const plan = on.page.locator('#plan-panel')
    const figures = on.page.locator('#compute')
    await on.page.selectOption('#compute-attr', 'salary')
    await runFilter('salary > :1', '[140000]')
    const selection = on.fixture.ds.dataClass('Employee').query('salary > :1', 140000)
    await expect
      .poll(() => on.page.locator('#compute dd[data-figure=count]').textContent())
      .toBe(String(selection.length))
    expect(await plan.locator('.plan-step').count()).toBeGreaterThan(0)
    await runFilter('salary > > 3')
    await expect.poll(() => on.page.locator('#filter-error').isVisible()).toBe(true)
    await expect.poll(() => figures.textContent()).toBe('None: the query failed.')
    expect(await plan.locator('.plan-step').count()).toBe(0)
    expect(await plan.locator('#plan').textContent()).toBe('None: the query failed.')
    expect(await on.page.locator('#source').textContent()).toBe(
      'Employee: the filter salary > > 3 failed',
    )
    expect(await on.page.locator('#rows').isVisible()).toBe(false)
    expect(await on.page.locator('#pager').isVisible()).toBe(false)
    await shot('3b-failed-query')
    await on.page.click('#clear')
    await expect
      .poll(() => on.page.locator('#compute dd[data-figure=count]').textContent())
      .toBe('360')
    expect(await plan.isVisible()).toBe(false)
  })

  it('sorts by a column, ascending then descending ($orderby)', async () => {
    const salaries = on.fixture.ds
      .dataClass('Employee')
      .all()
      .toArray()
      .map((e) => e.get('salary') as number)
    await on.page.click('#rows th button[title="Sort by salary"]')
    await expect
      .poll(() => on.page.getAttribute('#rows th:has(button[title="Sort by salary"])', 'aria-sort'))
      .toBe('ascending')
    await expect.poll(() => firstCell('salary')).toBe(String(Math.min(...salaries)))
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const isCompute = (url: URL) => url.searchParams.has('$compute')
    // Each held request is let go before the route is removed: removing it first would answer
    // them meanwhile, and their `continue` would then reject.
    const handled: Promise<void>[] = []
    await on.page.route(isCompute, (route) => {
      const done = held.then(() => route.continue())
      handled.push(done)
      return done
    })
    try {
      await on.page.click('#rows th button[title="Sort by salary"]')
      await expect.poll(() => firstCell('salary')).toBe(String(Math.max(...salaries)))
      // The sort button keeps the keyboard focus across the reload, from the turn the new rows are
      // drawn in: the page's $compute request, sent after them, is held until the focus is read.
      expect(await on.page.evaluate(focusedAttribute, 'title')).toBe('Sort by salary')
    } finally {
      release()
      await Promise.all(handled)
      await on.page.unroute(isCompute)
    }
  })

  it('computes figures of a numeric column on the current filter ($compute)', async () => {
    await runFilter('salary > :1', '[100000]')
    await on.page.selectOption('#compute-attr', 'salary')
    const selection = on.fixture.ds.dataClass('Employee').query('salary > :1', 100000)
    await expect
      .poll(() => on.page.locator('#compute dd[data-figure=count]').textContent())
      .toBe(String(selection.length))
    expect(await on.page.locator('#compute dd[data-figure=max]').textContent()).toBe('150,000')
    await on.page.click('#clear')
  })

  it('follows a relation to one entity, then to many', async () => {
    await on.page.click('#classes button[data-dataclass=Employee]')
    await expect.poll(status).toBe('360 entities')
    await on.page.locator('#rows tbody tr:first-child td[data-attribute=employer] button').click()
    await expect.poll(() => on.page.locator('#source').textContent()).toBe('Followed: Company(1)')
    await expect.poll(status).toBe('1 entity')
    expect(await firstCell('name')).toBe('Acme Industries')
    await on.page.locator('#rows tbody tr:first-child td[data-attribute=staff] button').click()
    const staff = on.fixture.ds.dataClass('Employee').query('employerID = 1').length
    await expect.poll(status).toBe(`${staff} entities`)
    expect(await on.page.locator('#title').textContent()).toBe('Employee')
    await shot('4-relation')
    await runFilter('salary > 100000')
    const found = on.fixture.ds.dataClass('Employee').query('employerID = 1 and salary > 100000')
    await expect
      .poll(() => on.page.locator('#source').textContent())
      .toBe(`Followed: staff of Company(1), ${found.length} entities where salary > 100000`)
  })

  it('edits a value with its stamp, and shows a stale stamp as a conflict', async () => {
    await on.page.click('#classes button[data-dataclass=Employee]')
    await expect.poll(status).toBe('360 entities')
    const cell = on.page.locator('#rows tbody tr:first-child td[data-attribute=lastName]')
    // From the keyboard: focus the cell, Enter opens the editor.
    await cell.focus()
    await on.page.keyboard.press('Enter')
    await on.page.fill('#edit-value', 'Explorer')
    await on.page.click('#edit-save')
    await expect.poll(() => cell.textContent()).toBe('Explorer')
    expect(on.fixture.ds.dataClass('Employee').get(1)!.get('lastName')).toBe('Explorer')

    // Someone else writes the entity after the page read it: the page's stamp is stale.
    await cell.dblclick()
    on.fixture.ds.dataClass('Employee').update(1, { lastName: 'Elsewhere' })
    await on.page.fill('#edit-value', 'Mine')
    await on.page.click('#edit-save')
    const error = on.page.locator('#edit-error')
    await expect.poll(() => error.getAttribute('data-conflict')).toBe('true')
    expect(await error.textContent()).toContain('changed by someone else')
    expect(await error.textContent()).toContain('"Elsewhere"')
    expect(on.fixture.ds.dataClass('Employee').get(1)!.get('lastName')).toBe('Elsewhere')
    await shot('5-conflict')
    await on.page.click('#edit-cancel')
    await expect.poll(() => cell.textContent()).toBe('Elsewhere')
  })

  it("lists the dataclass's functions and calls them", async () => {
    expect(await on.page.locator('#functions code').allTextContents()).toEqual([
      'highEarners',
      'raise',
      'payroll',
    ])
    await on.page.fill('#fn-highEarners', '[140000]')
    await on.page.click('#functions li:has(#fn-highEarners) button')
    await expect
      .poll(() => on.page.locator('#function-result').textContent())
      .toContain('"__ENTITIES"')
    await on.page.fill('#fn-raise', '2 [10]')
    const before = on.fixture.ds.dataClass('Employee').get(2)!.get('salary') as number
    await on.page.click('#functions li:has(#fn-raise) button')
    await expect
      .poll(() => on.fixture.ds.dataClass('Employee').get(2)!.get('salary'))
      .toBe(Math.round(before * 1.1))
  })

  it('creates an entity from a form, and deletes one after asking', async () => {
    const Employee = on.fixture.ds.dataClass('Employee')
    await on.page.click('#classes button[data-dataclass=Employee]')
    await expect.poll(status).toBe('360 entities')
    await on.page.click('#new-entity')
    expect(await on.page.locator('#creator-title').textContent()).toBe('New Employee')
    // The generated key is not asked for.
    expect(await on.page.locator('#new-ID').count()).toBe(0)
    await on.page.fill('#new-lastName', 'Newcomer')
    await on.page.fill('#new-salary', 'lots')
    await on.page.click('#create-save')
    const error = on.page.locator('#create-error')
    await expect.poll(() => error.textContent()).toBe('salary takes a number')
    // A value the server refuses: its message, and nothing created.
    await on.page.fill('#new-salary', '42000')
    await on.page.fill('#new-birthDate', '2024-02-30')
    await on.page.click('#create-save')
    await expect.poll(() => error.textContent()).toContain('birthDate')
    expect(Employee.query("lastName = 'Newcomer'").length).toBe(0)
    await shot('7-create')
    await on.page.fill('#new-birthDate', '1990-07-04')
    await on.page.click('#create-save')
    await expect.poll(status).toMatch(/^361 entities · created Employee\(\d+\)$/)
    const created = Employee.query("lastName = 'Newcomer'").at(0)!
    expect([created.get('salary'), created.get('birthDate')]).toEqual([42000, '1990-07-04'])

    await runFilter("lastName = 'Newcomer'")
    await expect.poll(status).toBe('1 entity')
    const remove = on.page.locator(`button[aria-label="Delete Employee(${created.getKey()})"]`)
    on.page.once('dialog', (d) => void d.dismiss())
    await remove.click()
    expect(Employee.get(created.getKey())).not.toBeNull()
    on.page.once('dialog', (d) => void d.accept())
    await remove.click()
    await expect.poll(status).toBe(`0 entities · deleted Employee(${created.getKey()})`)
    expect(Employee.get(created.getKey())).toBeNull()
    await on.page.click('#clear')
    await expect.poll(status).toBe('360 entities')
  })

  it('labels every control, follows the system theme, and the theme button says what it does', async () => {
    const unlabelled = await on.page.$$eval('input, select', (controls) =>
      controls
        .filter(
          (c) =>
            !(c as unknown as { labels: { length: number } | null }).labels?.length &&
            !c.getAttribute('aria-label'),
        )
        .map((c) => c.id),
    )
    expect(unlabelled).toEqual([])
    const theme = () =>
      Promise.all([on.page.getAttribute('html', 'data-theme'), on.page.textContent('#theme')])
    const stored = () => on.page.evaluate(storedTheme)
    // The system's theme (light here), and no choice stored by merely loading the page.
    expect(await theme()).toEqual(['light', 'Switch to dark theme'])
    expect(await stored()).toBeNull()
    // Until the button is used the page follows the system, as it changes.
    await on.page.emulateMedia({ colorScheme: 'dark' })
    await expect.poll(theme).toEqual(['dark', 'Switch to light theme'])
    // The person's choice is stored and wins over the system's.
    await on.page.click('#theme')
    expect(await theme()).toEqual(['light', 'Switch to dark theme'])
    expect(await stored()).toBe('light')
    await on.page.click('#theme')
    expect(await theme()).toEqual(['dark', 'Switch to light theme'])
    await on.page.emulateMedia({ colorScheme: 'light' })
    expect(await theme()).toEqual(['dark', 'Switch to light theme'])
    await shot('8-dark')
  })
})

describe.skipIf(!chromiumAvailable)('the explorer page of a server with users', () => {
  // As `entistore serve --users`: only a logged-in user reads data; the catalog stays open.
  const on = explorerOn({
    ...COMPANY,
    authenticate: usersAuthenticate({ ada: { password: 'lovelace', groups: ['admin'] } }),
    forceLogin: true,
  })

  const dialogOpen = () => on.page.locator('#login').evaluate((d) => d.hasAttribute('open'))
  const status = () => on.page.locator('#status').textContent()

  it('asks for a login when a read is refused, refuses a wrong password, then reads', async () => {
    await on.page.goto(`${on.fixture.url}/`)
    await expect.poll(dialogOpen).toBe(true)
    // The catalog was read without a login; the rows were not.
    expect(await on.page.locator('#classes button').allTextContents()).toEqual([
      'Company',
      'Employee',
      'Project',
    ])
    expect(await on.page.evaluate(focusedAttribute, 'id')).toBe('login-user')
    await on.page.fill('#login-user', 'ada')
    await on.page.fill('#login-password', 'wrong')
    await on.page.click('#login-submit')
    await expect
      .poll(() => on.page.locator('#login-error').textContent())
      .toBe('Wrong user name or password.')
    expect(await dialogOpen()).toBe(true)
    await on.page.screenshot({ path: `${SHOTS}9-login.png` })
    await on.page.fill('#login-password', 'lovelace')
    await on.page.keyboard.press('Enter')
    await expect.poll(status).toBe('24 entities')
    expect(await dialogOpen()).toBe(false)
    expect(await on.page.locator('#user').textContent()).toBe('Logged in as ada')
    // The session cookie carries the login: another dataclass reads without asking again.
    await on.page.click('#classes button[data-dataclass=Employee]')
    await expect.poll(status).toBe('360 entities')
  })

  it('logs out, and a login cancelled leaves the refusal shown', async () => {
    await on.page.click('#logout')
    await expect.poll(dialogOpen).toBe(true)
    expect(await on.page.locator('#user').isVisible()).toBe(false)
    await on.page.click('#login-cancel')
    await expect
      .poll(() => on.page.locator('#filter-error').textContent())
      .toContain('No permission to read')
    expect(await dialogOpen()).toBe(false)
  })
})
