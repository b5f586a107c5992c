// The Lua scripts behind the shared state's compound steps (redis.ts): each runs in Redis as one
// step, so a check and the write it guards cannot be split by another instance, or by a reply
// lost and the command sent again.

/**
 * HSET of one field, refused (0) when the field is new and the hash already holds ARGV[3] fields,
 * and (-1) when KEYS[2] is given and gone; the checks and the write are one step in Redis, so the
 * cap holds across instances, and a write cannot bring back a hash its owner's removal took.
 */
export const CAPPED_HASH_SET = `
if KEYS[2] and redis.call('EXISTS', KEYS[2]) == 0 then return -1 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`

/**
 * SET NX with a token of the caller's, that also says yes when the key already holds that token:
 * a claim Redis applied but whose reply was lost (Redis killed between the two) is re-sent by
 * ioredis once the connection is back, and a plain SET NX would then refuse the claim's own
 * maker, who would wait for a step nobody runs (found by the chaos run).
 */
export const CLAIM = `
local held = redis.call('GET', KEYS[1])
if held then return held == ARGV[1] and 1 or 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`

/**
 * RPUSH of ARGV[4..] to the list KEYS[1], whose items after its head have their bytes counted in
 * KEYS[2]; then the list keeps its head and, of the items after it, the last ARGV[2] that fit in
 * ARGV[3] bytes (the newest one always). Both keys expire ARGV[1] ms from now. The count beside
 * the list is what lets a trim by bytes read only the items it drops.
 */
export const BOUNDED_APPEND = `
local length = redis.call('RPUSH', KEYS[1], unpack(ARGV, 4))
local added = 0
for i = 4, #ARGV do added = added + string.len(ARGV[i]) end
local bytes = redis.call('INCRBY', KEYS[2], added)
local keepLast = tonumber(ARGV[2])
local keepBytes = tonumber(ARGV[3])
local kept = length - 1
local drop = 0
while kept - drop > 1 and (kept - drop > keepLast or bytes > keepBytes) do
  drop = drop + 1
  bytes = bytes - string.len(redis.call('LINDEX', KEYS[1], drop))
end
if drop > 0 then
  local head = redis.call('LINDEX', KEYS[1], 0)
  redis.call('LTRIM', KEYS[1], drop, -1)
  redis.call('LSET', KEYS[1], 0, head)
  redis.call('SET', KEYS[2], bytes)
end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return length - drop`

/** ZADD into every set of KEYS, only when none is full (ARGV[4+i] members besides ARGV[1], after dropping scores under ARGV[4]): -1, or the index of the first full set. */
export const RANK_WITHIN = `
for i = 1, #KEYS do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', '(' .. ARGV[4])
  if not redis.call('ZSCORE', KEYS[i], ARGV[1]) and redis.call('ZCARD', KEYS[i]) >= tonumber(ARGV[4 + i]) then return i - 1 end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[1])
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
return -1`

/**
 * SET of a cached result (KEYS[1] = ARGV[2], PX ARGV[3]) within a byte budget, in one step so it
 * holds across instances. KEYS[2] ranks each kept entry (member ARGV[1]) by when it expires,
 * KEYS[3] holds its owner and bytes, KEYS[4] the bytes kept in all (`total`) and per owner. What
 * expired by Redis's clock (`TIME`, the one its keys expire by: an instance's clock may be off)
 * gives its bytes back first (1,000 a call at most: the rest on later calls); an entry kept again
 * gives back its old bytes. Refused (0, nothing written, and the old entry under KEYS[1] removed,
 * as its bytes are no longer counted) when the entry's ARGV[5] bytes would take the total past
 * ARGV[6] or its owner ARGV[4] past ARGV[7]; nothing unexpired is evicted for it.
 */
export const KEEP_WITHIN = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local function release(member)
  local held = redis.call('HGET', KEYS[3], member)
  if held then
    local owner, size = string.match(held, '^(.*) (%d+)$')
    if redis.call('HINCRBY', KEYS[4], owner, -tonumber(size)) <= 0 then redis.call('HDEL', KEYS[4], owner) end
    redis.call('HINCRBY', KEYS[4], 'total', -tonumber(size))
    redis.call('HDEL', KEYS[3], member)
  end
  redis.call('ZREM', KEYS[2], member)
end
for _, member in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now, 'LIMIT', 0, 1000)) do release(member) end
release(ARGV[1])
local size = tonumber(ARGV[5])
local total = tonumber(redis.call('HGET', KEYS[4], 'total') or '0')
local mine = tonumber(redis.call('HGET', KEYS[4], ARGV[4]) or '0')
if total + size > tonumber(ARGV[6]) or mine + size > tonumber(ARGV[7]) then
  redis.call('DEL', KEYS[1])
  return 0
end
local ttl = tonumber(ARGV[3])
redis.call('SET', KEYS[1], ARGV[2], 'PX', ttl)
redis.call('ZADD', KEYS[2], now + ttl, ARGV[1])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[4] .. ' ' .. ARGV[5])
redis.call('HINCRBY', KEYS[4], 'total', size)
redis.call('HINCRBY', KEYS[4], ARGV[4], size)
for i = 2, 4 do
  if redis.call('PTTL', KEYS[i]) < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1`
