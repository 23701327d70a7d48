"""The Lua scripts of ``RedisStore``: every multi-key write is one script, so
Redis runs it atomically (no other command interleaves) and nothing is half
written by a race.

Key layout (``P`` is the store's prefix, ``hearts:`` by default)::

    P table:<id>        hash: state, version, last_seq, code, created, token,
                        public_code, public_summary (the last two while listed)
    P events:<id>       stream, entry id ``<seq>-0``, field ``b`` = body
    P records:<id>      list of hand records, oldest first
    P code:<code>       string: the table id the invite code names
    P tables            set of table ids (dead ids are dropped lazily)
    P running           set of the ids whose last commit said a game is in
                        progress: the tables somebody must run (dropped lazily
                        too); a takeover scans this, not every table
    P public            sorted set: listed table id -> creation number
    P created           counter giving each table its creation number
    P stats:<player>    hash: games, wins, hands, points, moons, queens

The kind of key comes before the id, so no id (whatever characters it holds)
can name another table's key or another kind of key.

Scripts that look up keys they were not handed in ``KEYS`` (the code key
found in the hash, or each id of a set) build them from the prefix passed in
``ARGV``. That is fine on a standalone Redis (our deployment) but would not
be on Redis Cluster, which we do not use.

Conventions: scripts return integers or arrays; negative status numbers are
refusals that the Python side maps to ``StoreConflict``.
"""

from __future__ import annotations

# Refusal statuses shared by the scripts and redis_store.py.
UNKNOWN_TABLE = -1
VERSION_MOVED = -2
ID_TAKEN = -3
CODE_TAKEN = -4
LEASE_LOST = -5

# KEYS: hash, code key, tables set, events stream, records list, created counter,
#       running set
# ARGV: table id, code, state, token
# The token makes a retry of the same call safe: if the hash already carries
# it, this very call created the table and its reply was lost.
CREATE = """
local existing = redis.call('HGET', KEYS[1], 'token')
if existing then
  if existing == ARGV[4] then return 1 end
  return -3
end
if redis.call('SET', KEYS[2], ARGV[1], 'NX') == false then return -4 end
local created = redis.call('INCR', KEYS[6])
-- A dead table with the same id may have left a log or records whose expiry
-- lags its hash by a moment; a new table must not inherit them.
redis.call('DEL', KEYS[4], KEYS[5])
redis.call('SREM', KEYS[7], ARGV[1])
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'version', 1, 'last_seq', 0,
           'code', ARGV[2], 'created', created, 'token', ARGV[4])
redis.call('SADD', KEYS[3], ARGV[1])
return 1
"""

# KEYS: hash, events stream, lease key, running set, records list,
#       stats hashes...
# ARGV: expected version, state, token, max events, owner ("" = no lease),
#       running ("1" in progress, "0" not, "" unchanged), table id,
#       number of hand records n, n hand records,
#       number of stats increments m, m triples (stats key's index among the
#       stats hashes, 1-based; field; amount), event bodies...
# Returns {new_version, last_seq} or {status, stored_version}.
COMMIT = """
local cur = redis.call('HMGET', KEYS[1], 'version', 'last_seq', 'token')
if not cur[1] then return {-1, 0} end
local version = tonumber(cur[1])
local last = tonumber(cur[2])
local expected = tonumber(ARGV[1])
-- Our own earlier attempt applied and only its reply was lost: report the
-- result it produced (it is durable, even if the lease has moved since).
if version == expected + 1 and cur[3] == ARGV[3] then return {version, last} end
-- Fencing (scale-out): a process that lost the table's lease must never
-- write, even if it has not noticed yet (paused, slow).
if ARGV[5] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[5] then return {-5, 0} end
if version ~= expected then return {-2, version} end
local records = tonumber(ARGV[8])
local at = 9 + records
local increments = tonumber(ARGV[at])
local first_event = at + 1 + 3 * increments
-- Events first: XADD is the only call here that could fail (it never does,
-- ids only grow), and failing before HSET leaves the table as it was.
for i = first_event, #ARGV do
  last = last + 1
  redis.call('XADD', KEYS[2], 'MAXLEN', ARGV[4], last .. '-0', 'b', ARGV[i])
end
redis.call('HSET', KEYS[1], 'state', ARGV[2], 'version', version + 1,
           'last_seq', last, 'token', ARGV[3])
-- A finished hand's record is written with the commit that finishes it:
-- never lost to a store blip between the two, never written twice by a retry.
for i = 9, 8 + records do
  redis.call('RPUSH', KEYS[5], ARGV[i])
end
-- So are the players' statistics for that hand or game: counted exactly once.
for j = 0, increments - 1 do
  local k = at + 1 + 3 * j
  redis.call('HINCRBY', KEYS[5 + tonumber(ARGV[k])], ARGV[k + 1], ARGV[k + 2])
end
if ARGV[6] == '1' then
  redis.call('SADD', KEYS[4], ARGV[7])
elseif ARGV[6] == '0' then
  redis.call('SREM', KEYS[4], ARGV[7])
end
-- A table already set to expire may get its first events or records only
-- now: they must vanish with the table.
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then
  if #ARGV >= first_event then redis.call('PEXPIRE', KEYS[2], ttl) end
  if records > 0 then redis.call('PEXPIRE', KEYS[5], ttl) end
end
return {version + 1, last}
"""

# KEYS: hash, public sorted set
# ARGV: table id, code, summary, listed ("1") or not ("0")
LIST_OR_UNLIST = """
if ARGV[4] == '0' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[1], 'public_code', 'public_summary')
  return 0
end
local created = redis.call('HGET', KEYS[1], 'created')
if not created then return -1 end
redis.call('HSET', KEYS[1], 'public_code', ARGV[2], 'public_summary', ARGV[3])
redis.call('ZADD', KEYS[2], created, ARGV[1])
return 1
"""

# KEYS: public sorted set
# ARGV: prefix, limit
# Returns a flat array id, code, summary, id, code, summary, ...
# Entries whose table is gone (expired) are dropped on the way.
LIST_PUBLIC = """
local out = {}
local found = 0
local limit = tonumber(ARGV[2])
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], 0, -1)) do
  if found >= limit then break end
  local f = redis.call('HMGET', ARGV[1] .. 'table:' .. id, 'public_code', 'public_summary')
  if f[1] and f[2] then
    found = found + 1
    out[#out + 1] = id
    out[#out + 1] = f[1]
    out[#out + 1] = f[2]
  else
    redis.call('ZREM', KEYS[1], id)
  end
end
return out
"""

# KEYS: hash, events stream, records list, public sorted set
# ARGV: table id, seconds, prefix
EXPIRE = """
local code = redis.call('HGET', KEYS[1], 'code')
if not code then return 0 end
-- A table on its way out leaves the lobby now, not when it vanishes.
redis.call('ZREM', KEYS[4], ARGV[1])
redis.call('HDEL', KEYS[1], 'public_code', 'public_summary')
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[2]) end
redis.call('EXPIRE', ARGV[3] .. 'code:' .. code, ARGV[2])
return 1
"""

# KEYS: hash, records list
# ARGV: record
ADD_RECORD = """
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
redis.call('RPUSH', KEYS[2], ARGV[1])
-- The list may be created after expire_table: give it the table's deadline.
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
"""

# KEYS: tables set
# ARGV: prefix
# The ids whose table still exists; the others (expired) leave the set.
TABLE_IDS = """
local live = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. 'table:' .. id) == 1 then
    live[#live + 1] = id
  else
    redis.call('SREM', KEYS[1], id)
  end
end
return live
"""
