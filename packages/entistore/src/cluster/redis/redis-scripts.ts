/**
 * @module The Lua scripts that make lock ownership atomic in Redis, that write a session and tell
 * the other processes in one step, and the layout of the keys. A lock belongs to a session, and
 * lives as long as it: the scripts treat a lock whose owner's session key is gone (closed, or
 * expired by its TTL) as free, and remove it when they meet it, so a lock needs no TTL of its own
 * and no process has to outlive its sessions to clean up.
 *
 * Keys, under a prefix (`entistore:<app>:` by default):
 * - `s:<session id>`: the session, JSON `{v, c, t, e, d}` (its version, created, timeout,
 *   established, data), with the session's inactivity timeout as its TTL, restarted by every
 *   request (PEXPIRE);
 * - `version`: the counter that gives each session written or closed its version (`v`), so that a
 *   process applies what it hears of a session only when it is newer than what it holds;
 * - `l:<dataclass>:<key as JSON>`: a lock, JSON `{i, d, k, n}` (owner session id, dataclass, key,
 *   the owner's client info for `lockInfo`); `locks`: the set of lock key names, for a refresh;
 * - `e:<set id>`: an entity set, JSON `{dc, k, s, t, f, o, w}` (its members' entity KEYS in
 *   order, null for a member deleted when it was kept; sorted; timeout; saved filter and order;
 *   owner), with its timeout as TTL, restarted by every read; `os:<session id>` and `ou:<user>`:
 *   the ids of the sets a session and a user own, for `$info` (set-mirror.ts);
 * - `m:<process id>` (TTL: the lease) and the set `members` that lists them: the processes
 *   serving now, whose acknowledgement a session's change waits for (redis-presence.ts);
 * - `set-id-key`: the key that signs set ids to their owners, the same for every process;
 * - `q:<scope>|<quota>|<window start>`: the web server quotas' count of every process in one
 *   fixed window (INCRBY), with the time left in the window as TTL (redis-quotas.ts);
 * - `sx`: the ids of the open sessions, each scored with when its key expires as last written
 *   (Redis's time, ms), and `su`: those of them with a logged-in user; kept by the scripts that
 *   write and close sessions, for `nbSessions` and `nbGuestSessions` (redis-sessions.ts);
 * - channel `events`: what processes tell each other (a session changed or closed, a set
 *   released), and `to:<process id>`: what is for one process (acknowledgements, its heartbeat).
 *
 * The scripts name keys through the prefix (ARGV) rather than KEYS: one Redis (or a primary with
 * replicas), not Redis Cluster, where keys would have to share a hash slot. The JSON shapes and the
 * key names, in TypeScript, are in wire.ts.
 */

/**
 * What the scripts that tell the others share: `told(prefix, message, v)` publishes `message` on
 * the events channel and answers `{v, the processes serving...}`, those whose lease key is gone
 * taken out of the list. The message is built by the caller up to its last field (see
 * wire.ts's `toldStart`), so that the version is added here.
 */
const TOLD = `
local function told(prefix, message, v)
  redis.call('PUBLISH', prefix .. 'events', message)
  local out = {v}
  local index = prefix .. 'members'
  for _, m in ipairs(redis.call('SMEMBERS', index)) do
    if redis.call('EXISTS', prefix .. 'm:' .. m) == 1 then out[#out + 1] = m
    else redis.call('SREM', index, m) end
  end
  return out
end
`

/**
 * What the scripts that write or close a session share: the index of the open sessions (`sx`, by
 * when each key expires; `su`, those with a user). A touch (PEXPIRE) lengthens a key without
 * telling the index: `prune(prefix, n)` looks at up to `n` entries whose time has come, gives a
 * session still there its new time and takes a gone one out, so that the index holds the open
 * sessions and a few expired ones, each opening pruning two.
 */
const INDEX = `
local function nowMs()
  local t = redis.call('TIME')
  return t[1] * 1000 + math.floor(t[2] / 1000)
end
local function indexed(prefix, id, ttl, user)
  redis.call('ZADD', prefix .. 'sx', nowMs() + tonumber(ttl), id)
  if user == '1' then redis.call('SADD', prefix .. 'su', id)
  else redis.call('SREM', prefix .. 'su', id) end
end
local function unindexed(prefix, id)
  redis.call('ZREM', prefix .. 'sx', id)
  redis.call('SREM', prefix .. 'su', id)
end
local function prune(prefix, n)
  local now = nowMs()
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 'sx', '-inf', now, 'LIMIT', 0, n)) do
    local pttl = redis.call('PTTL', prefix .. 's:' .. id)
    if pttl > 0 then redis.call('ZADD', prefix .. 'sx', now + pttl, id)
    else unindexed(prefix, id) end
  end
end
`

/**
 * Writes a session with its next version. KEYS: the session key. ARGV: the prefix, the session's
 * JSON (an object, its version left out), its TTL in ms, `open` or `save`, the message's beginning
 * (`save`), `1` when it has a user. `open`: a new session, written as it is; answers `{v}`.
 * `save`: only if it still exists (XX: a session gone from Redis is not brought back), and the
 * others told (`"s"`: the session as written); answers `{v, processes...}`, or `{0}` when it was
 * gone. Either way the index of open sessions holds it.
 */
export const SAVE = `${TOLD}${INDEX}
local v = redis.call('INCR', ARGV[1] .. 'version')
local json = '{"v":' .. v .. ',' .. string.sub(ARGV[2], 2)
local id = string.sub(KEYS[1], #ARGV[1] + 3)
if ARGV[4] == 'open' then
  redis.call('SET', KEYS[1], json, 'PX', ARGV[3])
  indexed(ARGV[1], id, ARGV[3], ARGV[6])
  prune(ARGV[1], 2)
  return {v}
end
if not redis.call('SET', KEYS[1], json, 'PX', ARGV[3], 'XX') then return {0} end
indexed(ARGV[1], id, ARGV[3], ARGV[6])
return told(ARGV[1], ARGV[5] .. ',"s":' .. json .. '}', v)
`

/**
 * The open sessions, and of them those with a user, after a prune of up to 1,000 entries of the
 * index. ARGV: the prefix. Answers `{sessions, users}`.
 */
export const SESSIONS = `${INDEX}
prune(ARGV[1], 1000)
return {redis.call('ZCARD', ARGV[1] .. 'sx'), redis.call('SCARD', ARGV[1] .. 'su')}
`

/**
 * Takes a lock for a session. KEYS: lock key, lock index. ARGV: the lock's JSON, the owner's
 * session id, the prefix. Answers `{1}` when the session holds it now, `{0, holder, its session,
 * its TTL}` when another live session does, `{-1}` when the asking session itself is gone.
 */
export const ACQUIRE = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local holder = cjson.decode(cur)
  if holder.i == ARGV[2] then return {1} end
  local hs = ARGV[3] .. 's:' .. holder.i
  local pttl = redis.call('PTTL', hs)
  if pttl > 0 then return {0, cur, redis.call('GET', hs), pttl} end
end
if redis.call('EXISTS', ARGV[3] .. 's:' .. ARGV[2]) == 0 then return {-1} end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SADD', KEYS[2], KEYS[1])
return {1}
`

/**
 * Releases a lock. KEYS: lock key, lock index. ARGV: the releasing session id ('' for an entity
 * deleted: whoever holds it), the prefix. Answers `{1}` when nobody holds it afterwards, `{0,
 * holder, its session, its TTL}` when another live session keeps it.
 */
export const RELEASE = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local holder = cjson.decode(cur)
  if ARGV[1] ~= '' and holder.i ~= ARGV[1] then
    local hs = ARGV[2] .. 's:' .. holder.i
    local pttl = redis.call('PTTL', hs)
    if pttl > 0 then return {0, cur, redis.call('GET', hs), pttl} end
  end
  redis.call('DEL', KEYS[1])
end
redis.call('SREM', KEYS[2], KEYS[1])
return {1}
`

/**
 * Who holds a lock. KEYS: lock key. ARGV: the prefix. Answers `{0, holder, its session, its TTL}`
 * when a live session does, `{1}` when it is free.
 */
export const HOLDER = `
local cur = redis.call('GET', KEYS[1])
if cur then
  local hs = ARGV[1] .. 's:' .. cjson.decode(cur).i
  local pttl = redis.call('PTTL', hs)
  if pttl > 0 then return {0, cur, redis.call('GET', hs), pttl} end
end
return {1}
`

/**
 * Every live lock, with its owner's session. KEYS: lock index. ARGV: the prefix. Answers a flat
 * list: lock JSON, session JSON, session TTL, for each; locks of gone sessions are removed.
 */
export const LOCKS = `
local out = {}
for _, k in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local cur = redis.call('GET', k)
  local live = false
  if cur then
    local hs = ARGV[1] .. 's:' .. cjson.decode(cur).i
    local pttl = redis.call('PTTL', hs)
    if pttl > 0 then
      live = true
      out[#out + 1] = cur
      out[#out + 1] = redis.call('GET', hs)
      out[#out + 1] = pttl
    end
  end
  if not live then
    redis.call('DEL', k)
    redis.call('SREM', KEYS[1], k)
  end
end
return out
`

/**
 * Closes a session: its key, its entry in the index and every lock it holds, and the others told
 * (`"v"`: the version of the close). KEYS: session key, lock index. ARGV: the session id, the
 * prefix, the message's beginning. Answers `{v, processes...}`.
 */
export const CLOSE = `${TOLD}${INDEX}
redis.call('DEL', KEYS[1])
unindexed(ARGV[2], ARGV[1])
for _, k in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local cur = redis.call('GET', k)
  if not cur or cjson.decode(cur).i == ARGV[1] then
    redis.call('DEL', k)
    redis.call('SREM', KEYS[2], k)
  end
end
local v = redis.call('INCR', ARGV[2] .. 'version')
return told(ARGV[2], ARGV[3] .. ',"v":' .. v .. '}', v)
`

/**
 * Renews a session (a login gave it a new id): its key written under the new id, every lock it
 * holds given to the new id, the old key deleted, in one step, so that no process sees the locks
 * without a live holder; the others told that the old id is closed. KEYS: old session key, new
 * session key, lock index. ARGV: the old id, the new id, the session's JSON (its version left
 * out), its TTL in ms, the prefix, the message's beginning, `1` when it has a user. A lock's JSON
 * is edited in place (its `"i"` only), not decoded and encoded again: cjson would round large
 * numeric keys. Answers `{v, processes...}`.
 */
export const RENEW = `${TOLD}${INDEX}
local v = redis.call('INCR', ARGV[5] .. 'version')
redis.call('SET', KEYS[2], '{"v":' .. v .. ',' .. string.sub(ARGV[3], 2), 'PX', ARGV[4])
unindexed(ARGV[5], ARGV[1])
indexed(ARGV[5], ARGV[2], ARGV[4], ARGV[7])
if redis.call('DEL', KEYS[1]) == 1 then
  local from = '"i":' .. cjson.encode(ARGV[1])
  local to = '"i":' .. cjson.encode(ARGV[2])
  for _, k in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    local cur = redis.call('GET', k)
    if cur and cjson.decode(cur).i == ARGV[1] then
      local s, e = string.find(cur, from, 1, true)
      if s then
        redis.call('SET', k, string.sub(cur, 1, s - 1) .. to .. string.sub(cur, e + 1))
      end
    end
  end
end
return told(ARGV[5], ARGV[6] .. ',"v":' .. v .. '}', v)
`
