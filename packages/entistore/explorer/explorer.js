// @ts-check
/**
 * The data explorer: what a datastore holds and what its queries do, through nothing but the REST
 * interface the page is served beside (its base path is in the page's `entistore-rest` meta tag).
 * Plain DOM code, no framework and no build step, so the package ships this file as it is and the
 * page works offline. Every request is one a 4D REST client could send, in the form they send it
 * (`$filter` in double quotes, `Content-Type: application/json`), so the page also shows how.
 */

const REST = /** @type {HTMLMetaElement} */ (document.querySelector('meta[name="entistore-rest"]'))
  .content

/** @param {string} id */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id))
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement} */ ($(id))
/** @param {string} id */
const buttonEl = (id) => /** @type {HTMLButtonElement} */ ($(id))
/** @param {string} id */
const selectEl = (id) => /** @type {HTMLSelectElement} */ ($(id))
/** @param {string} id */
const dialogEl = (id) => /** @type {HTMLDialogElement} */ ($(id))
/** @param {string} id */
const tableEl = (id) => /** @type {HTMLTableElement} */ ($(id))

/**
 * @typedef {{ name: string, kind: string, type: string, readOnly?: boolean, identifying?: boolean, autosequence?: boolean, foreignKey?: string }} Attribute
 * @typedef {{ name: string, applyTo: string, allowedOnHTTPGET?: boolean }} Method
 * @typedef {{ name: string, attributes: Attribute[], methods?: Method[], key?: { name: string }[] }} DataClassInfo
 * @typedef {{ message: string, errCode?: number }} RestErrorItem
 * @typedef {{ kind: 'dataClass' } | { kind: 'uri', uri: string, label: string }} Source
 */

/** An `__ERROR` reply, whatever its status (as 4D clients read them). */
class RestError extends Error {
  /**
   * @param {number} status
   * @param {RestErrorItem[]} errors
   * @param {any} body
   */
  constructor(status, errors, body) {
    super(errors.map((e) => e.message).join(' — ') || `HTTP ${status}`)
    this.status = status
    this.errors = errors
    this.body = body
  }
}

/**
 * One request to the REST interface; `path` is absolute (`/rest/…`, as deferred URIs are). A 401
 * (a server started with users, and no one logged in) asks for a login, then sends it again.
 * @param {string} path
 * @param {{ method?: string, body?: unknown }} [init]
 */
async function rest(path, init = {}) {
  const send = () =>
    fetch(path, {
      method: init.method ?? 'GET',
      headers: { 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
    })
  let res = await send()
  if (res.status === 401 && (await askLogin())) res = await send()
  const text = await res.text()
  let body = null
  try {
    body = text ? JSON.parse(text) : null
  } catch {
    body = null
  }
  if (body && Array.isArray(body.__ERROR)) throw new RestError(res.status, body.__ERROR, body)
  if (!res.ok) throw new RestError(res.status, [{ message: `HTTP ${res.status}` }], body)
  return body
}

/** `$filter` as 4D clients send it: in double quotes, a quote inside written `\u0022`. */
const quoted = (/** @type {string} */ text) => `"${text.replace(/"/g, '\\u0022')}"`

/**
 * A query string from parameters; undefined and empty values are left out.
 * @param {Record<string, string | number | undefined>} params
 */
function query(params) {
  const parts = []
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== '') parts.push(`${name}=${encodeURIComponent(value)}`)
  return parts.join('&')
}

/** `uri` with more parameters after its own. */
const withQuery = (/** @type {string} */ uri, /** @type {string} */ more) =>
  more ? `${uri}${uri.includes('?') ? '&' : '?'}${more}` : uri

const NUMERIC = new Set(['number', 'long', 'long64', 'word', 'integer', 'duration'])
const SCALAR_KINDS = new Set(['storage', 'calculated', 'alias'])

const state = {
  /** @type {DataClassInfo | undefined} */
  dc: undefined,
  /** @type {Source} */
  source: { kind: 'dataClass' },
  filter: '',
  params: '',
  /** @type {{ attribute: string, descending: boolean } | undefined} */
  order: undefined,
  skip: 0,
  top: 25,
  count: 0,
  /** @type {any[]} */
  entities: [],
  /**
   * The datastore's global stamp when the last read of a selection was answered (its envelope's
   * `__GlobalStamp`): the live feed starts after it, so nothing between the read and the
   * subscription is missed. Undefined when the last read failed or answered a single entity.
   * @type {number | undefined}
   */
  stamp: undefined,
  // Replies that come back after a newer request was sent are dropped.
  generation: 0,
  /**
   * The column whose sort button was pressed: the table puts the keyboard focus back on it when it
   * redraws its head, in the same turn, so no later await can leave the focus on a removed button.
   * @type {string | undefined}
   */
  focusSort: undefined,
}

/** @type {Map<string, DataClassInfo>} */
const infos = new Map()

/** @param {string} name */
async function dataClassInfo(name) {
  let info = infos.get(name)
  if (!info) {
    info = /** @type {DataClassInfo} */ (await rest(`${REST}/$catalog/${encodeURIComponent(name)}`))
    infos.set(name, info)
  }
  return info
}

// ---------------------------------------------------------------------------------------------
// Logging in: 4D's `$directory/login`, the user and password in its headers; the session cookie
// the server sets is the browser's to send back.

/** @type {Promise<boolean> | undefined} */
let pendingLogin
/** @type {((loggedIn: boolean) => void) | undefined} */
let settleLogin

/**
 * Opens the login dialog (once, whatever the number of requests refused meanwhile); resolves true
 * once logged in, false if the person cancels.
 * @returns {Promise<boolean>}
 */
function askLogin() {
  if (pendingLogin) return pendingLogin
  pendingLogin = new Promise((resolve) => {
    settleLogin = (loggedIn) => {
      pendingLogin = undefined
      settleLogin = undefined
      resolve(loggedIn)
    }
  })
  $('login-error').hidden = true
  field('login-password').value = ''
  dialogEl('login').showModal()
  field('login-user').focus()
  return pendingLogin
}

async function submitLogin() {
  const error = $('login-error')
  const button = buttonEl('login-submit')
  button.disabled = true
  try {
    const res = await fetch(`${REST}/$directory/login`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'username-4D': field('login-user').value,
        'password-4D': field('login-password').value,
      },
      body: '{}',
      credentials: 'same-origin',
    })
    const body = await res.json().catch(() => null)
    if (!res.ok || body?.result !== true) {
      error.textContent =
        res.status === 401
          ? 'Wrong user name or password.'
          : `The login failed (HTTP ${res.status}).`
      error.hidden = false
      field('login-password').select()
      return
    }
  } catch (e) {
    error.textContent = e instanceof Error ? e.message : String(e)
    error.hidden = false
    return
  } finally {
    button.disabled = false
  }
  // Settled before the dialog closes: its close event would otherwise tell the waiting requests
  // to give up.
  settleLogin?.(true)
  dialogEl('login').close()
  await showUser()
}

/** Shows who is logged in (`$directory/currentUser`), with the log-out button; nothing if no one. */
async function showUser() {
  const res = await fetch(`${REST}/$directory/currentUser`, {
    headers: { 'Content-Type': 'application/json' },
    credentials: 'same-origin',
  })
  const body = res.ok ? await res.json().catch(() => null) : null
  const name = body?.result?.userName
  $('user').textContent = name ? `Logged in as ${name}` : ''
  $('user').hidden = !name
  $('logout').hidden = !name
}

async function logout() {
  await fetch(`${REST}/$directory/logout`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
    credentials: 'same-origin',
  })
  stopLive()
  infos.clear()
  $('user').hidden = true
  $('logout').hidden = true
  // What the page shows was read as that user: read again, as no one (a login is asked for).
  await loadCatalog().catch(showStatusError)
}

// ---------------------------------------------------------------------------------------------
// The catalog

async function loadCatalog() {
  const catalog = await rest(`${REST}/$catalog`)
  $('store-name').textContent = catalog.__NAME ? `Datastore ${catalog.__NAME}` : ''
  const list = $('classes')
  list.replaceChildren()
  for (const dc of catalog.dataClasses ?? []) {
    const item = document.createElement('li')
    const button = document.createElement('button')
    button.type = 'button'
    button.textContent = dc.name
    button.dataset.dataclass = dc.name
    button.addEventListener('click', () => openDataClass(dc.name))
    item.append(button)
    list.append(item)
  }
  const first = catalog.dataClasses?.[0]?.name
  const wanted = new URLSearchParams(location.hash.slice(1)).get('dataclass')
  if (wanted || first) await openDataClass(wanted ?? first)
}

/**
 * Shows a dataclass from its first page, with no filter, order or relation followed.
 * @param {string} name
 */
async function openDataClass(name) {
  stopLive()
  state.dc = await dataClassInfo(name)
  state.source = { kind: 'dataClass' }
  state.filter = ''
  state.params = ''
  state.order = undefined
  state.skip = 0
  field('filter').value = ''
  field('params').value = ''
  for (const b of document.querySelectorAll('#classes button'))
    b.setAttribute(
      'aria-current',
      String(/** @type {HTMLElement} */ (b).dataset.dataclass === name),
    )
  history.replaceState(null, '', `#dataclass=${encodeURIComponent(name)}`)
  $('query').hidden = false
  $('new-entity').hidden = false
  $('live-bar').hidden = false
  renderFunctions()
  renderComputeChoices()
  renderFilterHint(undefined)
  await refresh()
}

// ---------------------------------------------------------------------------------------------
// Reading a page

/** The path of the current page: the dataclass or a followed relation, with every parameter. */
function pagePath() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const order = state.order && `${state.order.attribute} ${state.order.descending ? 'desc' : 'asc'}`
  const params = query({
    $filter: state.filter ? quoted(state.filter) : undefined,
    $params: state.filter && state.params ? state.params : undefined,
    $orderby: order,
    $skip: state.skip,
    $top: state.top,
    $queryplan: state.filter ? 'true' : undefined,
  })
  const base =
    state.source.kind === 'uri' ? state.source.uri : `${REST}/${encodeURIComponent(dc.name)}`
  return withQuery(base, params)
}

/**
 * Reads the current page and draws it. `quiet` is a re-read the live feed asked for: no
 * "Loading…" in the status (announced to screen readers at each change otherwise), and the
 * messages shown are left as they are. Answers whether the page was drawn.
 * @param {{ quiet?: boolean }} [options]
 */
async function refresh(options = {}) {
  const generation = ++state.generation
  const dc = /** @type {DataClassInfo} */ (state.dc)
  if (!options.quiet) {
    showFilterError(undefined)
    $('status').textContent = 'Loading…'
  }
  let body
  try {
    body = await rest(pagePath())
  } catch (e) {
    if (generation !== state.generation) return false
    // No table is drawn: a later one, drawn for another reason, must not take the focus.
    state.focusSort = undefined
    state.stamp = undefined
    $('status').textContent = ''
    if (e instanceof RestError && state.filter && !options.quiet) showFilterError(e)
    else showStatusError(e)
    showFailedRead()
    if (live.on) stopLive('the selection could not be read')
    else renderLiveControl()
    return false
  }
  if (generation !== state.generation) return false
  // A relation to one entity answers that entity; any other read, a selection.
  const single = body && !Array.isArray(body.__ENTITIES)
  state.entities = single ? [body] : body.__ENTITIES
  state.count = single ? 1 : body.__COUNT
  state.stamp = !single && typeof body.__GlobalStamp === 'number' ? body.__GlobalStamp : undefined
  $('title').textContent = dc.name
  $('source').textContent = subtitle(state.count)
  $('status').textContent = entityCount(state.count)
  renderTable()
  renderFilterHint(state.entities[0])
  markLiveRows()
  renderPager()
  renderPlan(body?.__queryPlan)
  renderLiveControl()
  await renderCompute()
  return true
}

const entityCount = (/** @type {number} */ count) =>
  `${count} ${count === 1 ? 'entity' : 'entities'}`

/**
 * What the rows are: the dataclass or the relation followed and, with a filter, the filter and
 * how many it found, so that a filter that finds nothing does not read as "all entities".
 * `count` is undefined when the read failed.
 * @param {number | undefined} count
 */
function subtitle(count) {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const source = state.source
  const followed = source.kind === 'uri'
  const from = source.kind === 'uri' ? `Followed: ${source.label}` : dc.name
  // "Followed: Company(1), 3 entities where …" rather than a second colon.
  const then = followed ? ', ' : ': '
  const params = state.params ? ` (parameters ${state.params})` : ''
  if (count === undefined)
    return `${from}${then}${state.filter ? `the filter ${state.filter}${params}` : 'the read'} failed`
  if (!state.filter) return followed ? from : `${from}: all entities`
  return `${from}${then}${entityCount(count)} where ${state.filter}${params}`
}

/**
 * A read that failed leaves nothing of the previous one: its rows, plan and figures described a
 * query that is no longer the one asked, so they are cleared and the panels say why.
 */
function showFailedRead() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  $('title').textContent = dc.name
  $('source').textContent = subtitle(undefined)
  $('rows').hidden = true
  $('pager').hidden = true
  const note = 'None: the query failed.'
  if (state.filter) showPlanNote(note)
  else renderPlan(undefined)
  showComputeNote(note)
}

/** A syntax error is shown under the filter, with a caret at the column the server names. */
function showFilterError(/** @type {RestError | undefined} */ error) {
  const box = $('filter-error')
  const input = field('filter')
  if (!error) {
    box.hidden = true
    box.replaceChildren()
    input.removeAttribute('aria-invalid')
    return
  }
  input.setAttribute('aria-invalid', 'true')
  const message = document.createElement('p')
  message.textContent = error.message
  box.replaceChildren(message)
  const column = /column (\d+)/.exec(error.message)
  if (column) {
    const at = Number(column[1]) - 1
    const pre = document.createElement('pre')
    pre.className = 'caret'
    pre.textContent = `${state.filter}\n${' '.repeat(Math.max(0, at))}^`
    box.append(pre)
    input.focus()
    input.setSelectionRange(at, Math.min(at + 1, input.value.length))
  }
  box.hidden = false
}

function showStatusError(/** @type {unknown} */ error) {
  const box = $('filter-error')
  const p = document.createElement('p')
  p.textContent = error instanceof Error ? error.message : String(error)
  box.replaceChildren(p)
  box.hidden = false
}

/** The attributes shown as columns: values, relations; not the key's duplicates. */
function columns() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  return dc.attributes.filter(
    (a) => SCALAR_KINDS.has(a.kind) || a.kind === 'relatedEntity' || a.kind === 'relatedEntities',
  )
}

function renderTable() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const table = tableEl('rows')
  const head = document.createElement('tr')
  for (const attr of columns()) {
    const th = document.createElement('th')
    th.scope = 'col'
    const sortable = SCALAR_KINDS.has(attr.kind) && !['image', 'blob', 'object'].includes(attr.type)
    if (sortable) {
      const sorted = state.order?.attribute === attr.name
      th.setAttribute(
        'aria-sort',
        sorted ? (state.order?.descending ? 'descending' : 'ascending') : 'none',
      )
      const button = document.createElement('button')
      button.type = 'button'
      button.className = 'sort'
      button.textContent = attr.name
      button.title = `Sort by ${attr.name}`
      button.addEventListener('click', () => sortBy(attr.name))
      th.append(button)
    } else th.textContent = attr.name
    head.append(th)
  }
  const actions = document.createElement('th')
  actions.scope = 'col'
  actions.className = 'row-actions'
  actions.innerHTML = '<span class="visually-hidden">Actions</span>'
  head.append(actions)
  table.tHead?.replaceChildren(head)
  if (state.focusSort !== undefined) {
    const button = head.querySelector(`button[title="Sort by ${state.focusSort}"]`)
    if (button instanceof HTMLElement) button.focus()
    state.focusSort = undefined
  }
  const body = /** @type {HTMLTableSectionElement} */ (table.tBodies[0])
  const focused = focusedCell(body)
  body.replaceChildren(
    ...state.entities.map((entity) => {
      const tr = document.createElement('tr')
      tr.dataset.key = entity.__KEY
      for (const attr of columns()) tr.append(cell(dc, entity, attr))
      tr.append(deleteCell(dc, entity))
      return tr
    }),
  )
  $('caption').textContent = `${dc.name}, ${state.count} entities`
  table.hidden = false
  focused?.()
}

/**
 * Where the keyboard focus is in the rows (a cell, or a row's Delete button), as a function that
 * puts it back on the same entity's cell once the rows are drawn again: a live feed redraws them
 * while someone may be moving through them with the keyboard.
 * @param {HTMLTableSectionElement} body
 * @returns {(() => void) | undefined}
 */
function focusedCell(body) {
  const active = document.activeElement
  if (!(active instanceof HTMLElement) || !body.contains(active)) return undefined
  const key = active.closest('tr')?.dataset.key
  const td = active.closest('td')
  if (key === undefined || !td) return undefined
  const where = td.classList.contains('row-actions')
    ? 'td.row-actions button'
    : `td[data-attribute="${CSS.escape(td.dataset.attribute ?? '')}"]`
  return () => {
    const row = [...body.rows].find((r) => r.dataset.key === key)
    const target = row?.querySelector(where)
    if (target instanceof HTMLElement) target.focus()
  }
}

/**
 * One cell: a value, a picture, a link that follows a relation, or an editable value.
 * @param {DataClassInfo} dc
 * @param {any} entity
 * @param {Attribute} attr
 */
function cell(dc, entity, attr) {
  const td = document.createElement('td')
  const value = entity[attr.name]
  td.dataset.attribute = attr.name
  if (value === null || value === undefined) {
    td.innerHTML = '<span class="null">null</span>'
  } else if (attr.type === 'image' && value.__deferred) {
    const img = document.createElement('img')
    img.src = value.__deferred.uri
    img.alt = `${attr.name} of ${dc.name} ${entity.__KEY}`
    img.width = 32
    img.height = 32
    img.loading = 'lazy'
    td.append(img)
  } else if (attr.type === 'blob' && value.__deferred) {
    const a = document.createElement('a')
    a.href = value.__deferred.uri
    a.textContent = 'download'
    td.append(a)
  } else if (attr.kind === 'relatedEntity' || attr.kind === 'relatedEntities') {
    const button = document.createElement('button')
    button.type = 'button'
    button.className = 'link'
    const target = attr.kind === 'relatedEntity' ? attr.type : attr.type.replace(/Selection$/, '')
    const label =
      attr.kind === 'relatedEntity'
        ? `${target}(${value.__deferred?.__KEY ?? value.__KEY})`
        : `${attr.name} of ${dc.name}(${entity.__KEY})`
    button.textContent = attr.kind === 'relatedEntity' ? label : attr.name
    button.title = `Follow ${label}`
    button.addEventListener('click', () => follow(value.__deferred.uri, target, label))
    td.append(button)
  } else {
    td.textContent = shown(value, attr)
    if (editable(attr)) {
      td.tabIndex = 0
      td.className = 'editable'
      td.title = 'Double-click or press Enter to edit'
      const edit = () => openEditor(entity, attr)
      td.addEventListener('dblclick', edit)
      td.addEventListener('keydown', (e) => {
        if (e.key !== 'Enter') return
        // The Enter would otherwise reach the editor's field, just focused, and submit it.
        e.preventDefault()
        edit()
      })
    }
  }
  return td
}

/** A value as text: dates without their `!!` marks, objects as JSON. */
function shown(/** @type {unknown} */ value, /** @type {Attribute} */ attr) {
  if (typeof value === 'string' && attr.type === 'date') return value.replace(/^!!|!!$/g, '')
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

const editable = (/** @type {Attribute} */ attr) =>
  attr.kind === 'storage' &&
  !attr.readOnly &&
  !attr.identifying &&
  !['image', 'blob', 'object'].includes(attr.type)

/**
 * Follows a relation: the related entity, or the related selection, as the page's rows.
 * @param {string} uri
 * @param {string} target
 * @param {string} label
 */
async function follow(uri, target, label) {
  stopLive()
  state.dc = await dataClassInfo(target)
  // The deferred URI carries `$expand`; paging, filter and order are added to it.
  state.source = { kind: 'uri', uri: uri.replace(/[?&]\$expand=[^&]*/, ''), label }
  state.filter = ''
  state.params = ''
  state.order = undefined
  state.skip = 0
  field('filter').value = ''
  field('params').value = ''
  renderFunctions()
  renderComputeChoices()
  renderFilterHint(undefined)
  await refresh()
}

function sortBy(/** @type {string} */ attribute) {
  const descending = state.order?.attribute === attribute && !state.order.descending
  state.order = { attribute, descending }
  state.skip = 0
  state.focusSort = attribute
  void refresh()
}

function renderPager() {
  const pages = Math.max(1, Math.ceil(state.count / state.top))
  const page = Math.floor(state.skip / state.top) + 1
  $('page').textContent = `Page ${page} of ${pages}`
  buttonEl('prev').disabled = page <= 1
  buttonEl('next').disabled = page >= pages
  $('pager').hidden = state.count <= state.entities.length && state.skip === 0
}

/**
 * The filter box's example, made from the dataclass shown so that it runs as it is: its first
 * numeric attribute that tells about the data compared with `:1` (the parameters box's example is
 * that attribute's value in the first row), and its first text attribute other than the key
 * compared with the initial of the first row's value and `@` (4D's wildcard); the key when it has
 * neither. `first` is the first row read, undefined before the rows are.
 * @param {any} first
 */
function renderFilterHint(first) {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const tells = telling(dc)
  const number = numericAttributes(dc).find(tells)
  const text = dc.attributes.find((a) => a.kind === 'storage' && a.type === 'string' && tells(a))
  const parts = []
  let params = '[]'
  if (number) {
    const sample = first?.[number.name]
    parts.push(`${number.name} > :1`)
    params = `[${typeof sample === 'number' ? sample : 0}]`
  }
  if (text) {
    const initial = [...String(first?.[text.name] ?? '')][0] ?? ''
    parts.push(`${text.name} = '${/[\p{L}\p{N}]/u.test(initial) ? initial : 'A'}@'`)
  }
  const key = keyName(dc)
  if (parts.length === 0 && key) {
    parts.push(`${key} = :1`)
    const sample = first?.[key] ?? first?.__KEY
    params = `[${sample === undefined ? 1 : JSON.stringify(sample)}]`
  }
  $('filter-hint').textContent = parts.join(' and ')
  field('params').placeholder = params
}

// ---------------------------------------------------------------------------------------------
// The query plan: `__queryPlan` as a tree of nested lists

/** The plan panel with a sentence instead of a plan. @param {string} text */
function showPlanNote(text) {
  const p = document.createElement('p')
  p.className = 'muted'
  p.textContent = text
  $('plan').replaceChildren(p)
  $('plan-panel').hidden = false
}

/** @param {any} plan */
function renderPlan(plan) {
  const panel = $('plan-panel')
  if (!plan) {
    panel.hidden = true
    return
  }
  const root = document.createElement('ul')
  root.setAttribute('role', 'tree')
  root.setAttribute('aria-label', 'Query plan')
  root.append(planNode(plan))
  $('plan').replaceChildren(root)
  panel.hidden = false
}

/**
 * One node: `{ item, subquery? }` for a step, `{ And: [...] }`/`{ Or: [...] }`/… for an operator.
 * @param {any} node
 * @returns {HTMLLIElement}
 */
function planNode(node) {
  const li = document.createElement('li')
  li.setAttribute('role', 'treeitem')
  const label = document.createElement('span')
  label.className = 'plan-step'
  let children = []
  if (typeof node?.item === 'string') {
    label.textContent = node.item
    if (/\[index : /.test(node.item)) label.classList.add('indexed')
    else if (/scan/i.test(node.item)) label.classList.add('scan')
    children = node.subquery ?? []
  } else if (node && typeof node === 'object') {
    const [operator] = Object.keys(node)
    label.textContent = operator ?? '?'
    label.classList.add('operator')
    children = operator ? node[operator] : []
  } else label.textContent = String(node)
  li.append(label)
  if (Array.isArray(children) && children.length > 0) {
    const group = document.createElement('ul')
    group.setAttribute('role', 'group')
    for (const child of children) group.append(planNode(child))
    li.append(group)
  }
  return li
}

// ---------------------------------------------------------------------------------------------
// `$compute` for a numeric attribute, on the current filter

/** The name of the dataclass's key (the catalog's `key`). @param {DataClassInfo} dc */
const keyName = (dc) => dc.key?.[0]?.name ?? dc.attributes.find((a) => a.identifying)?.name

/**
 * Whether an attribute tells about the data rather than identifies an entity: neither the key
 * nor the foreign key of a relation (a relatedEntity's `foreignKey`).
 * @param {DataClassInfo} dc
 * @returns {(a: Attribute) => boolean}
 */
function telling(dc) {
  const key = keyName(dc)
  const foreign = new Set(dc.attributes.map((a) => a.foreignKey))
  return (a) => a.name !== key && !foreign.has(a.name)
}

/**
 * The numeric attributes, the one shown first being the figures' default: those that tell about
 * the data (a salary, a budget), then the key and the foreign keys, whose figures say only how
 * many entities there are and how they are numbered; model order within each.
 * @param {DataClassInfo} dc
 */
function numericAttributes(dc) {
  const tells = telling(dc)
  const numeric = dc.attributes.filter((a) => SCALAR_KINDS.has(a.kind) && NUMERIC.has(a.type))
  // A stable sort: model order within each group.
  return numeric.sort((a, b) => Number(!tells(a)) - Number(!tells(b)))
}

function renderComputeChoices() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const numeric = numericAttributes(dc)
  const select = selectEl('compute-attr')
  select.replaceChildren(
    ...numeric.map((a) => {
      const o = document.createElement('option')
      o.value = a.name
      o.textContent = a.name
      return o
    }),
  )
  $('compute-panel').hidden = numeric.length === 0
}

// Like pages, figures asked later win: a reply for another attribute or filter is dropped.
let computeGeneration = 0

async function renderCompute() {
  const generation = ++computeGeneration
  const attribute = selectEl('compute-attr').value
  const list = $('compute')
  if (!attribute || state.source.kind !== 'dataClass') {
    list.replaceChildren()
    $('compute-panel').hidden = !attribute || state.source.kind !== 'dataClass'
    return
  }
  $('compute-panel').hidden = false
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const params = query({
    $compute: '$all',
    $filter: state.filter ? quoted(state.filter) : undefined,
    $params: state.filter && state.params ? state.params : undefined,
  })
  try {
    const body = await rest(`${REST}/${encodeURIComponent(dc.name)}/${attribute}?${params}`)
    if (generation !== computeGeneration) return
    const figures = body?.[attribute] ?? {}
    list.replaceChildren(
      ...['count', 'sum', 'average', 'min', 'max'].flatMap((name) => {
        const dt = document.createElement('dt')
        dt.textContent = name
        const dd = document.createElement('dd')
        const v = figures[name]
        dd.textContent =
          typeof v === 'number' ? v.toLocaleString('en', { maximumFractionDigits: 2 }) : '—'
        dd.dataset.figure = name
        return [dt, dd]
      }),
    )
  } catch (e) {
    if (generation !== computeGeneration) return
    showComputeNote(e instanceof Error ? e.message : String(e))
  }
}

/**
 * The figures replaced by a sentence; a reply still on its way for the figures shown before is
 * dropped.
 * @param {string} text
 */
function showComputeNote(text) {
  ++computeGeneration
  const dd = document.createElement('dd')
  dd.className = 'note'
  dd.textContent = text
  $('compute').replaceChildren(dd)
}

// ---------------------------------------------------------------------------------------------
// Editing one value, with the entity's stamp: a stale stamp is a conflict, not an overwrite

/** @type {{ entity: any, attr: Attribute } | undefined} */
let editing

/** @param {any} entity @param {Attribute} attr */
function openEditor(entity, attr) {
  editing = { entity, attr }
  const dc = /** @type {DataClassInfo} */ (state.dc)
  $('editor-title').textContent = `${dc.name}(${entity.__KEY}).${attr.name}`
  $('edit-label').textContent = `${attr.name} (${attr.type})`
  const input = field('edit-value')
  input.value = entity[attr.name] === null ? '' : shown(entity[attr.name], attr)
  $('edit-error').hidden = true
  dialogEl('editor').showModal()
  input.select()
}

/** The text of the editor as the attribute's JSON value. */
function typed(/** @type {string} */ text, /** @type {Attribute} */ attr) {
  if (text === '') return null
  if (NUMERIC.has(attr.type)) {
    const n = Number(text)
    if (!Number.isFinite(n)) throw new Error(`${attr.name} takes a number`)
    return n
  }
  if (attr.type === 'bool') {
    if (text !== 'true' && text !== 'false') throw new Error(`${attr.name} takes true or false`)
    return text === 'true'
  }
  return text
}

async function saveEdit() {
  if (!editing) return
  const { entity, attr } = editing
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const error = $('edit-error')
  let value
  try {
    value = typed(field('edit-value').value, attr)
  } catch (e) {
    error.textContent = e instanceof Error ? e.message : String(e)
    error.hidden = false
    return
  }
  try {
    await rest(`${REST}/${encodeURIComponent(dc.name)}?$method=update`, {
      method: 'POST',
      body: { __KEY: entity.__KEY, __STAMP: entity.__STAMP, [attr.name]: value },
    })
    dialogEl('editor').close()
    editing = undefined
    await refresh()
  } catch (e) {
    // A stale stamp answers the entity as stored, with `__STATUS.status` 2 (4D's "stamp has changed").
    const stored = e instanceof RestError ? e.body : undefined
    if (stored?.__STATUS?.status === 2) {
      error.textContent =
        `Conflict: ${dc.name}(${entity.__KEY}) was changed by someone else (stamp ` +
        `${entity.__STAMP}, now ${stored.__STAMP}). Its ${attr.name} is now ` +
        `${JSON.stringify(stored[attr.name])}. Cancel to see it, or save again to overwrite.`
      error.dataset.conflict = 'true'
      editing = { entity: { ...entity, __STAMP: stored.__STAMP }, attr }
    } else {
      error.textContent = e instanceof Error ? e.message : String(e)
      delete error.dataset.conflict
    }
    error.hidden = false
  }
}

// ---------------------------------------------------------------------------------------------
// Creating and deleting entities

/** The attributes a new entity can be given: the editable ones, and a key that is not generated. */
const creatable = (/** @type {Attribute} */ attr) =>
  editable(attr) || (attr.kind === 'storage' && attr.identifying === true && !attr.autosequence)

function openCreator() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  $('creator-title').textContent = `New ${dc.name}`
  const fields = $('create-fields')
  fields.replaceChildren()
  for (const attr of dc.attributes.filter(creatable)) {
    const label = document.createElement('label')
    label.htmlFor = `new-${attr.name}`
    label.textContent = `${attr.name} (${attr.type})`
    const input = document.createElement('input')
    input.id = `new-${attr.name}`
    input.name = attr.name
    input.autocomplete = 'off'
    if (attr.type === 'date') input.placeholder = 'YYYY-MM-DD'
    if (attr.type === 'bool') input.placeholder = 'true or false'
    fields.append(label, input)
  }
  $('create-error').hidden = true
  dialogEl('creator').showModal()
  const first = /** @type {HTMLInputElement | null} */ (fields.querySelector('input'))
  first?.focus()
}

async function saveNew() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const error = $('create-error')
  /** @type {Record<string, unknown>} */
  const values = {}
  try {
    for (const attr of dc.attributes.filter(creatable)) {
      const text = field(`new-${attr.name}`).value
      if (text !== '') values[attr.name] = typed(text, attr)
    }
    const created = await rest(`${REST}/${encodeURIComponent(dc.name)}?$method=update`, {
      method: 'POST',
      body: values,
    })
    dialogEl('creator').close()
    await refresh()
    $('status').textContent += ` · created ${dc.name}(${created.__KEY})`
  } catch (e) {
    error.textContent = e instanceof Error ? e.message : String(e)
    error.hidden = false
  }
}

/**
 * The last cell of a row: its delete button, asking first.
 * @param {DataClassInfo} dc
 * @param {any} entity
 */
function deleteCell(dc, entity) {
  const td = document.createElement('td')
  td.className = 'row-actions'
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'link'
  button.textContent = 'Delete'
  const name = `${dc.name}(${entity.__KEY})`
  button.setAttribute('aria-label', `Delete ${name}`)
  button.addEventListener('click', async () => {
    if (!confirm(`Delete ${name}? This cannot be undone.`)) return
    try {
      await rest(`${REST}/${encodeURIComponent(dc.name)}(${entity.__KEY})?$method=delete`, {
        method: 'POST',
        body: {},
      })
      await refresh()
      $('status').textContent += ` · deleted ${name}`
    } catch (e) {
      showStatusError(e)
    }
  })
  td.append(button)
  return td
}

// ---------------------------------------------------------------------------------------------
// The dataclass's functions (4D class functions), callable with a JSON array of parameters

function renderFunctions() {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const methods = dc.methods ?? []
  const list = $('functions')
  list.replaceChildren(
    ...methods.map((m) => {
      const li = document.createElement('li')
      const id = `fn-${m.name}`
      const label = document.createElement('label')
      label.htmlFor = id
      const name = document.createElement('code')
      name.textContent = m.name
      const kind = document.createElement('span')
      kind.className = 'muted'
      kind.textContent = ` ${appliesTo(m.applyTo)}`
      label.append(name, kind)
      const input = document.createElement('input')
      input.id = id
      input.placeholder = m.applyTo === 'entity' ? 'key, then [parameters]' : '[parameters]'
      input.autocomplete = 'off'
      const button = document.createElement('button')
      button.type = 'button'
      button.textContent = 'Call'
      button.addEventListener('click', () => callFunction(m, input.value))
      li.append(label, input, button)
      return li
    }),
  )
  $('functions-panel').hidden = methods.length === 0
  $('function-result').replaceChildren()
}

const appliesTo = (/** @type {string} */ applyTo) =>
  applyTo === 'entity'
    ? 'on an entity'
    : applyTo === 'entityCollection'
      ? 'on the current selection'
      : 'on the dataclass'

/**
 * Calls a function: a dataclass's on the dataclass, a selection's on the current filter, an
 * entity's on the key written first (`3 [5]`).
 * @param {Method} m
 * @param {string} text
 */
async function callFunction(m, text) {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const out = $('function-result')
  try {
    let path = `${REST}/${encodeURIComponent(dc.name)}`
    let args = text.trim()
    if (m.applyTo === 'entity') {
      const key = /^\S+/.exec(args)?.[0]
      if (!key) throw new Error(`${m.name} needs the key of an entity first`)
      path += `(${encodeURIComponent(key)})`
      args = args.slice(key.length).trim()
    }
    path += `/${encodeURIComponent(m.name)}`
    if (m.applyTo === 'entityCollection' && state.filter)
      path = withQuery(
        path,
        query({ $filter: quoted(state.filter), $params: state.params || undefined }),
      )
    const params = args ? JSON.parse(args) : []
    const body = await rest(path, {
      method: 'POST',
      body: Array.isArray(params) ? params : [params],
    })
    const pre = document.createElement('pre')
    pre.textContent = JSON.stringify(body, null, 2)
    out.replaceChildren(pre)
    // A function may have written: the rows shown are read again.
    await refresh()
  } catch (e) {
    const p = document.createElement('p')
    p.className = 'error'
    p.textContent = e instanceof Error ? e.message : String(e)
    out.replaceChildren(p)
  }
}

// ---------------------------------------------------------------------------------------------
// Following the selection live: the live feed `GET /rest/{dataClass}/$changes` as server-sent
// events (docs/change-tracking.md, "Live feed"), with the selection's `$filter` and `$params`,
// from the `__GlobalStamp` of the envelope of the page's last read: the changes made between that
// read and the subscription come first, so none is missed. The browser's EventSource reconnects
// by itself with `Last-Event-ID`, which the server resumes from, so a reconnection misses nothing
// either; `reset` (the stamp asked for is older than the server keeps) and `dropped` (the page fell
// too far behind) mean read the rows again and follow from that read's stamp.
//
// A change re-reads the page rather than patching the rows from the event. The page is a window
// (`$skip`, `$top`) of the selection in the order of `$orderby`: where a created entity falls,
// whether an updated one still belongs on this page once its sorted value changed, which row moves
// up when one is deleted, and the count are the server's to say. Patching here would mean
// redoing the sort (4D's collation, nulls, the key's order when there is no sort) and guessing
// what the neighbouring pages hold; one read of the page is always right, and costs little (the
// page, not the selection). Re-reads are coalesced: one in flight and at most one after it,
// whatever the number of events meanwhile, so a burst of writes costs two reads, not one each.
// The events say what to show: created and updated rows are highlighted once read, and a change
// to an entity outside this page is named in the live status.

const LIVE_LABELS = {
  on: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  off: 'Off',
}
/** How long a changed row stays highlighted, in milliseconds. */
const LIVE_MARK_MS = 2500
/** The changes kept for the live status until the next read: the last ones, and how many. */
const LIVE_NEWS_KEPT = 3

const live = {
  on: false,
  /** @type {EventSource | undefined} */
  source: undefined,
  /** A re-read in flight, and whether another is needed after it (coalescing). */
  reading: false,
  again: false,
  /**
   * The rows to highlight when the page is next drawn, by key.
   * @type {Map<string, 'created' | 'updated'>}
   */
  marks: new Map(),
  /**
   * The changes to tell in the live status when the page is next drawn (the last few).
   * @type {{ key: string, what: string }[]}
   */
  news: [],
  /** How many changes came since the page was last drawn. */
  newsCount: 0,
  /** @type {number | undefined} */
  fade: undefined,
}

/** Why the selection shown cannot be followed, or undefined when it can. */
function unfollowable() {
  if (typeof EventSource !== 'function') return 'this browser has no EventSource'
  if (state.source.kind !== 'dataClass') return 'a followed relation is not followed live'
  if (state.stamp === undefined) return 'the selection could not be read'
  return undefined
}

/** The toggle: pressed while following, unavailable (and saying why) for what cannot be followed. */
function renderLiveControl() {
  const button = buttonEl('live')
  button.setAttribute('aria-pressed', String(live.on))
  const why = live.on ? undefined : unfollowable()
  button.disabled = why !== undefined
  button.title = why
    ? `Not available: ${why}`
    : live.on
      ? 'Stop following'
      : 'Follow the selection as it changes'
}

/**
 * The live status: its state (live, connecting, reconnecting, off), and what happened.
 * @param {keyof typeof LIVE_LABELS} name
 * @param {string} [news] replaces the line of news when given
 */
function showLiveState(name, news) {
  const badge = $('live-state')
  badge.dataset.state = name
  badge.textContent = LIVE_LABELS[name]
  if (news !== undefined) $('live-news').textContent = news
}

function startLive() {
  if (live.on || unfollowable() !== undefined) return
  live.on = true
  forgetNews()
  openStream(/** @type {number} */ (state.stamp))
  renderLiveControl()
}

/**
 * Stops following: the stream is closed, the toggle released; `reason` says why when it was not
 * the person's choice.
 * @param {string} [reason]
 */
function stopLive(reason) {
  closeStream()
  const was = live.on
  live.on = false
  live.again = false
  forgetNews()
  if (was || reason) showLiveState('off', reason ? `(${reason})` : '')
  if (state.dc) renderLiveControl()
}

function closeStream() {
  live.source?.close()
  live.source = undefined
}

function forgetNews() {
  live.marks.clear()
  live.news = []
  live.newsCount = 0
}

/** The feed's URL for the selection shown, from `since`. @param {number} since */
function feedPath(since) {
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const params = query({
    $filter: state.filter ? quoted(state.filter) : undefined,
    $params: state.filter && state.params ? state.params : undefined,
    $since: since,
  })
  return `${REST}/${encodeURIComponent(dc.name)}/$changes?${params}`
}

/** Opens the stream from `since`, closing any other: one stream at most. @param {number} since */
function openStream(since) {
  closeStream()
  const url = feedPath(since)
  const source = new EventSource(url)
  live.source = source
  showLiveState('connecting')
  // Events of a stream closed meanwhile (a newer one replaced it) are ignored.
  /** @param {(e: MessageEvent) => void} handle */
  const current = (handle) => (/** @type {Event} */ e) => {
    if (live.source === source) handle(/** @type {MessageEvent} */ (e))
  }
  source.addEventListener(
    'open',
    current(() => showLiveState('on')),
  )
  for (const type of /** @type {const} */ (['created', 'updated', 'deleted']))
    source.addEventListener(
      type,
      current((e) => changed(type, e)),
    )
  source.addEventListener(
    'reset',
    current(() => void resync('reset')),
  )
  source.addEventListener(
    'dropped',
    current(() => void resync('dropped')),
  )
  source.addEventListener(
    'heartbeat',
    current(() => {
      if ($('live-state').dataset.state !== 'on') showLiveState('on')
    }),
  )
  source.addEventListener(
    'error',
    current(() => {
      // Connecting again (the browser waits the `retry:` the server sent), or given up: a stream
      // refused with an error reply, whose reason EventSource does not tell.
      if (source.readyState === EventSource.CLOSED) void refused(url)
      else showLiveState('reconnecting')
    }),
  )
}

/**
 * A change to an entity of the selection: noted for the next drawing, and the page read again.
 * @param {'created' | 'updated' | 'deleted'} type
 * @param {MessageEvent} event
 */
function changed(type, event) {
  let data
  try {
    data = JSON.parse(event.data)
  } catch {
    return
  }
  const key = String(data?.__KEY)
  if (type === 'deleted') live.marks.delete(key)
  // Created then updated before the read is still new to the page.
  else if (live.marks.get(key) !== 'created') live.marks.set(key, type)
  const what = type === 'deleted' && data.left ? 'left the selection' : type
  live.news.push({ key, what })
  if (live.news.length > LIVE_NEWS_KEPT) live.news.shift()
  live.newsCount++
  void reread()
}

/** Reads the page again for the changes received; coalesced (see the top of this part). */
async function reread() {
  if (live.reading) {
    live.again = true
    return
  }
  live.reading = true
  try {
    do {
      live.again = false
      await refresh({ quiet: true })
    } while (live.again && live.on)
  } finally {
    live.reading = false
  }
}

/** Highlights the rows changed since the last drawing and tells the changes (after a read). */
function markLiveRows() {
  if (!live.on || live.newsCount === 0) return
  const dc = /** @type {DataClassInfo} */ (state.dc)
  const body = /** @type {HTMLTableSectionElement} */ (tableEl('rows').tBodies[0])
  const rows = new Map([...body.rows].map((row) => [row.dataset.key, row]))
  for (const [key, type] of live.marks) {
    const row = rows.get(key)
    if (!row) continue
    row.classList.add('live-changed')
    row.dataset.live = type
  }
  const told = live.news.map(({ key, what }) => {
    const away = (what === 'created' || what === 'updated') && !rows.has(key)
    return `${dc.name}(${key}) ${what}${away ? ' (not on this page)' : ''}`
  })
  const more = live.newsCount - told.length
  showLiveState(
    /** @type {keyof typeof LIVE_LABELS} */ ($('live-state').dataset.state ?? 'on'),
    more > 0 ? `${live.newsCount} changes, the last: ${told.join('; ')}` : told.join('; '),
  )
  forgetNews()
  clearTimeout(live.fade)
  live.fade = setTimeout(() => {
    for (const row of body.querySelectorAll('tr.live-changed')) {
      row.classList.remove('live-changed')
      delete (/** @type {HTMLElement} */ (row).dataset.live)
    }
  }, LIVE_MARK_MS)
}

/**
 * Reads the rows again and follows from that read's stamp: after `reset` or `dropped`, a login,
 * or the page shown again from the history. `why` starts the line of news.
 * @param {string} why
 */
async function resync(why) {
  closeStream()
  showLiveState('reconnecting', `(${why}: reading the rows again…)`)
  // A read overtaken by another of the same selection (paging) is done again; one that fails has
  // turned following off.
  while (live.on && !(await refresh({ quiet: true }))) continue
  if (!live.on || state.stamp === undefined) return
  openStream(state.stamp)
  $('live-news').textContent = `(${why}: the rows were read again)`
}

/**
 * The browser gave up on the stream: the server refused it (an `__ERROR` reply). The same request
 * sent with fetch says why; a refusal for want of a login asks for one, then follows again.
 * @param {string} url
 */
async function refused(url) {
  closeStream()
  showLiveState('reconnecting')
  const error = await feedError(url)
  if (!live.on) return
  if (error?.status === 401 && (await askLogin())) {
    if (live.on) await resync('logged in')
    return
  }
  stopLive(error ? `the live feed was refused: ${error.message}` : 'the live feed closed')
}

/**
 * The error reply of the feed at `url`, or undefined if it answers a stream (then closed at once).
 * @param {string} url
 * @returns {Promise<RestError | undefined>}
 */
async function feedError(url) {
  const abort = new AbortController()
  try {
    const res = await fetch(url, { credentials: 'same-origin', signal: abort.signal })
    if (res.ok) return undefined
    const body = await res.json().catch(() => null)
    const errors = Array.isArray(body?.__ERROR) ? body.__ERROR : [{ message: `HTTP ${res.status}` }]
    return new RestError(res.status, errors, body)
  } catch (e) {
    return new RestError(0, [{ message: e instanceof Error ? e.message : String(e) }], null)
  } finally {
    abort.abort()
  }
}

// ---------------------------------------------------------------------------------------------
// Wiring

// The theme follows the system's (`prefers-color-scheme`, as it changes) until the theme button
// is used; that choice is stored and wins from then on. The button names what it does, which
// also says the theme shown: "Switch to light theme" on the dark one.

const THEME_KEY = 'entistore-theme'
const systemDark = matchMedia('(prefers-color-scheme: dark)')

/** The person's stored choice, 'dark' or 'light', or null when none was made. */
function storedTheme() {
  try {
    return localStorage.getItem(THEME_KEY)
  } catch {
    return null
  }
}

function showTheme(/** @type {boolean} */ dark) {
  document.documentElement.dataset.theme = dark ? 'dark' : 'light'
  $('theme').textContent = `Switch to ${dark ? 'light' : 'dark'} theme`
}

function chooseTheme(/** @type {boolean} */ dark) {
  try {
    localStorage.setItem(THEME_KEY, dark ? 'dark' : 'light')
  } catch {
    // Storage may be refused (private windows): the choice then lasts for the page.
  }
  showTheme(dark)
}

function start() {
  const saved = storedTheme()
  showTheme(saved ? saved === 'dark' : systemDark.matches)
  systemDark.addEventListener('change', (e) => {
    if (!storedTheme()) showTheme(e.matches)
  })
  $('theme').addEventListener('click', () =>
    chooseTheme(document.documentElement.dataset.theme !== 'dark'),
  )
  $('query').addEventListener('submit', (e) => {
    e.preventDefault()
    stopLive()
    state.filter = field('filter').value.trim()
    state.params = field('params').value.trim()
    state.top = Number(selectEl('page-size').value)
    state.skip = 0
    void refresh()
  })
  $('clear').addEventListener('click', () => {
    stopLive()
    field('filter').value = ''
    field('params').value = ''
    state.filter = ''
    state.params = ''
    state.skip = 0
    void refresh()
  })
  // Another page size reads the page again at once (not at the next Run), with the query shown;
  // the page is the one that holds the first row shown before.
  $('page-size').addEventListener('change', () => {
    state.top = Number(selectEl('page-size').value)
    state.skip = Math.floor(state.skip / state.top) * state.top
    if (state.dc) void refresh()
  })
  $('prev').addEventListener('click', () => {
    state.skip = Math.max(0, state.skip - state.top)
    void refresh()
  })
  $('next').addEventListener('click', () => {
    state.skip += state.top
    void refresh()
  })
  $('compute-attr').addEventListener('change', () => void renderCompute())
  $('edit-form').addEventListener('submit', (e) => {
    e.preventDefault()
    void saveEdit()
  })
  $('edit-cancel').addEventListener('click', () => {
    dialogEl('editor').close()
    const conflict = $('edit-error').dataset.conflict === 'true'
    editing = undefined
    if (conflict) void refresh()
  })
  $('login-form').addEventListener('submit', (e) => {
    e.preventDefault()
    void submitLogin()
  })
  $('login-cancel').addEventListener('click', () => dialogEl('login').close())
  // Escape closes the dialog too: either way, the requests waiting for a login give up.
  dialogEl('login').addEventListener('close', () => settleLogin?.(false))
  $('logout').addEventListener('click', () => void logout())
  $('new-entity').addEventListener('click', openCreator)
  $('live').addEventListener('click', () => (live.on ? stopLive() : startLive()))
  // Leaving the page closes the stream; coming back to it from the history (the page kept in
  // memory) reads the rows again and follows from there.
  addEventListener('pagehide', () => closeStream())
  addEventListener('pageshow', (e) => {
    if (e.persisted && live.on) void resync('shown again')
  })
  $('create-form').addEventListener('submit', (e) => {
    e.preventDefault()
    void saveNew()
  })
  $('create-cancel').addEventListener('click', () => dialogEl('creator').close())
  void showUser().catch(() => undefined)
  loadCatalog().catch(showStatusError)
}

start()
