-- Count a write against its rate limits, then append its batch of records to a game's stream, all or nothing, and
-- announce it: one round trip for a whole command (issue 32).
-- KEYS[1] events stream, KEYS[2] meta hash, KEYS[3] idempotency hash, KEYS[4..] the write's rate counters (none
-- when the limit is off, or on Redis Cluster, where they live in other slots and are counted before: store.py)
-- ARGV[1] expected version (-1: create the game, whose meta must not exist yet), ARGV[2] idempotency field
-- ("" for none), ARGV[3] the answer stored under it, ARGV[4] the notice channel ("" for none), ARGV[5] the game
-- id the notice names, ARGV[6] the head hash the batch continues ("" not checked), ARGV[7] the counters' time to
-- live, ARGV[8 .. 7+c] each counter's limit (c = #KEYS - 3), then the number of meta field/value pairs, the pairs,
-- and the records.
-- Returns {status, value, count of each counter...}, status and value one of
-- {"ok", new_version} | {"conflict", current_version} | {"duplicate", stored_answer} | {"missing", "0"} |
-- {"limited", "0"} (a counter past its limit: nothing else done).
-- The notice ("<game id> <new version>") is a classic PUBLISH: on Redis Cluster it reaches subscribers on every
-- node, so a session process may listen on any one of them.
local counters = #KEYS - 3
local counted = {}
local limited = false
for i = 1, counters do
  local count = redis.call("INCR", KEYS[3 + i])
  if count == 1 then redis.call("EXPIRE", KEYS[3 + i], ARGV[7]) end
  counted[i] = tostring(count)
  if count > tonumber(ARGV[7 + i]) then limited = true end
end
local function answer(status, value)
  return {status, value, unpack(counted)}
end
if limited then return answer("limited", "0") end
local idem = ARGV[2]
if idem ~= "" then
  local prior = redis.call("HGET", KEYS[3], idem)
  if prior then return answer("duplicate", prior) end
end
local current = redis.call("HGET", KEYS[2], "version")
local expected = tonumber(ARGV[1])
if expected == -1 then
  if current then return answer("conflict", current) end
  current = 0
elseif not current then
  return answer("missing", "0")
else
  current = tonumber(current)
  if current ~= expected then return answer("conflict", tostring(current)) end
  if ARGV[6] ~= "" and redis.call("HGET", KEYS[2], "head_hash") ~= ARGV[6] then
    return answer("conflict", tostring(current))  -- the same version, another history (a failover took writes back)
  end
end
local pairs_at = 8 + counters
local pairs_n = tonumber(ARGV[pairs_at])
local first = pairs_at + 1 + 2 * pairs_n
local n = #ARGV - first + 1
for i = 0, n - 1 do
  redis.call("XADD", KEYS[1], tostring(current + i + 1) .. "-0", "r", ARGV[first + i])
end
local meta = {"version", tostring(current + n)}
for i = 0, pairs_n - 1 do
  meta[#meta + 1] = ARGV[pairs_at + 1 + 2 * i]
  meta[#meta + 1] = ARGV[pairs_at + 2 + 2 * i]
end
redis.call("HSET", KEYS[2], unpack(meta))
if idem ~= "" then redis.call("HSET", KEYS[3], idem, ARGV[3]) end
if ARGV[4] ~= "" then redis.call("PUBLISH", ARGV[4], ARGV[5] .. " " .. tostring(current + n)) end
return answer("ok", tostring(current + n))
