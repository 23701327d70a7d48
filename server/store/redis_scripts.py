"""The Lua scripts of ``RedisStore``: every multi-key write is one script, so
Redis runs it atomically (no other command interleaves) and nothing is half
written by a race.

The key layout is ``server.store.redis_keys``'s. Every script is handed all
the keys it touches in ``KEYS``, and they all share one hash slot, so each
runs on Redis Cluster as on a lone Redis.

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

# How long a reserved invite code waits for its table (milliseconds): a
# process that dies between the reservation and the table leaves nothing
# behind for longer.
RESERVATION_MS = 60_000

# KEYS: code key
# ARGV: table id, reservation ms
# Reserves the code for the table (a retry of the same reservation is fine).
RESERVE_CODE = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then return 1 end
if holder then return -4 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# KEYS: code key
# ARGV: table id, "persist" | "release" | seconds to live
# Settles a code the table holds: keeps it for good (the table exists),
# gives it back (the table could not be made) or lets it expire with the
# table. A code another table holds is left alone.
SETTLE_CODE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == 'persist' then return redis.call('PERSIST', KEYS[1]) end
if ARGV[2] == 'release' then return redis.call('DEL', KEYS[1]) end
return redis.call('EXPIRE', KEYS[1], ARGV[2])
"""

# KEYS: code key, table hash (another slot: read by the caller, not here)
# ARGV: table id
# Drops a settled code whose table is gone (expired); a code still
# reserved (it has an expiry) is left to run out.
DROP_DEAD_CODE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('PTTL', KEYS[1]) ~= -1 then return 0 end
return redis.call('DEL', KEYS[1])
"""

# KEYS: hash, events stream, records list, bucket tables set, bucket running
#       set, pending stats hash, bucket owing set, reviews hash
# ARGV: table id, code, state, token, creation number
# The token makes a retry of the same call safe: if the hash already carries
# it, this very call created the table and its reply was lost.
CREATE = """
local existing = redis.call('HGET', KEYS[1], 'token')
if existing then
  if existing == ARGV[4] then
    redis.call('HSET', KEYS[1], 'token', ARGV[4])  -- for a WAIT after it (see COMMIT)
    return 1
  end
  return -3
end
-- A dead table with the same id may have left a log, records, pending
-- statistics or reviews whose expiry lags its hash by a moment; a new
-- table must not inherit them.
redis.call('DEL', KEYS[2], KEYS[3], KEYS[6], KEYS[8])
redis.call('SREM', KEYS[5], ARGV[1])
redis.call('SREM', KEYS[7], ARGV[1])
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'version', 1, 'last_seq', 0,
           'code', ARGV[2], 'created', ARGV[5], 'token', ARGV[4])
redis.call('SADD', KEYS[4], ARGV[1])
return 1
"""

# KEYS: hash, events stream, lease key, bucket running set, records list,
#       pending stats hash, bucket owing set
# ARGV: expected version, state, token, max events, owner ("" = no lease),
#       running ("1" in progress, "0" not, "" unchanged), table id,
#       number of hand records n, n hand records,
#       number of players with statistics m, m pairs (player id, the six
#       increments joined by ","), event bodies...
# Returns {new_version, last_seq} or {status, stored_version}.
COMMIT = """
local cur = redis.call('HMGET', KEYS[1], 'version', 'last_seq', 'token')
if not cur[1] then return {-1, 0} end
local version = tonumber(cur[1])
local last = tonumber(cur[2])
local expected = tonumber(ARGV[1])
-- Our own earlier attempt applied and only its reply was lost: report the
-- result it produced (it is durable, even if the lease has moved since).
-- The token is written again: that write follows the first attempt's in
-- the replication stream, so a WAIT after this reply covers both, even on a
-- connection other than the first attempt's.
if version == expected + 1 and cur[3] == ARGV[3] then
  redis.call('HSET', KEYS[1], 'token', ARGV[3])
  return {version, last}
end
-- Fencing (scale-out): a process that lost the table's lease must never
-- write, even if it has not noticed yet (paused, slow).
if ARGV[5] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[5] then return {-5, 0} end
if version ~= expected then return {-2, version} end
local records = tonumber(ARGV[8])
local at = 9 + records
local players = tonumber(ARGV[at])
local first_event = at + 1 + 2 * players
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
-- The players' statistics live in their own slots: the commit notes what
-- it owes them here, in the table's slot, and the store adds it there next
-- (once per player and commit, whoever does it; redis_store.py).
for j = 0, players - 1 do
  local k = at + 1 + 2 * j
  redis.call('HSET', KEYS[6], (version + 1) .. '|' .. ARGV[k], ARGV[k + 1])
end
if players > 0 then redis.call('SADD', KEYS[7], ARGV[7]) end
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
  if players > 0 then redis.call('PEXPIRE', KEYS[6], ttl) end
end
return {version + 1, last}
"""

# KEYS: the player's stats hash, the commit's counted marker
# ARGV: seconds the marker lives, then field, amount pairs
# Adds one commit's statistics to one player, once.
COUNT_STATS = """
if redis.call('SET', KEYS[2], 1, 'NX', 'EX', ARGV[1]) == false then return 0 end
for i = 2, #ARGV, 2 do
  redis.call('HINCRBY', KEYS[1], ARGV[i], ARGV[i + 1])
end
return 1
"""

# KEYS: pending stats hash, bucket owing set
# ARGV: table id, the fields counted
# Forgets statistics once every player has them.
SETTLE_STATS = """
-- With no field left to settle (the pass found the index entry alone, or
-- another pass settled them first) there is nothing to delete: HDEL needs
-- at least one field.
if #ARGV > 1 then redis.call('HDEL', KEYS[1], unpack(ARGV, 2)) end
if redis.call('EXISTS', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[1]) end
return 1
"""

# KEYS: public sorted set, listed hash
# ARGV: table id, code, summary, listed ("1") or not ("0"), creation number
LIST_OR_UNLIST = """
if ARGV[4] == '0' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], 'c:' .. ARGV[1], 's:' .. ARGV[1])
  return 0
end
redis.call('HSET', KEYS[2], 'c:' .. ARGV[1], ARGV[2], 's:' .. ARGV[1], ARGV[3])
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[1])
return 1
"""

# KEYS: public sorted set, listed hash
# ARGV: first, last (ranks, newest first)
# Returns a flat array id, code, summary, id, code, summary, ... of the
# listed tables in that range of ranks (whether each table still exists is
# the caller's to check: the tables are in other slots).
LIST_PUBLIC = """
local out = {}
for _, id in ipairs(redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2])) do
  local f = redis.call('HMGET', KEYS[2], 'c:' .. id, 's:' .. id)
  out[#out + 1] = id
  out[#out + 1] = f[1] or ''
  out[#out + 1] = f[2] or ''
end
return out
"""

# KEYS: hash, events stream, records list, pending stats hash, reviews hash
# ARGV: seconds
# Returns the table's code (the caller expires it and unlists the table:
# other slots), or 0 for an unknown table.
EXPIRE = """
local code = redis.call('HGET', KEYS[1], 'code')
if not code then return 0 end
for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ARGV[1]) end
return code
"""

# KEYS: hash, reviews hash
# ARGV: review key, review
# Keeps a review with a live table (nothing for one that is gone); a table
# already set to expire passes its expiry on, so the review goes with it.
SAVE_REVIEW = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -2 then return 0 end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
return 1
"""

# KEYS: hash, reviews hash
# ARGV: review keys
# The reviews under those keys (false where none is), none for a table
# that is gone.
LOAD_REVIEWS = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
return redis.call('HMGET', KEYS[2], unpack(ARGV))
"""

# KEYS: hash, records list
# ARGV: record

# KEYS: a bucket's set (tables, running or owing)
# ARGV: the key of a table hash of the bucket without its id
# The ids whose table still exists; the others (expired) leave the set.
TABLE_IDS = """
local live = {}
for _, id in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  if redis.call('EXISTS', ARGV[1] .. id) == 1 then
    live[#live + 1] = id
  else
    redis.call('SREM', KEYS[1], id)
  end
end
return live
"""

# KEYS: hash, events stream
# ARGV: first entry id wanted ("<seq>-0")
# Returns {last_seq or false, entries}: read at one moment.
READ_EVENTS = """
local last = redis.call('HGET', KEYS[1], 'last_seq')
return {last, redis.call('XRANGE', KEYS[2], ARGV[1], '+')}
"""

# KEYS: the player's stats hash
# ARGV: field, amount pairs
