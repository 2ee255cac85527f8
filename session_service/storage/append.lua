-- Append one command's batch of records to a game's stream, all or nothing, and announce it.
-- KEYS[1] events stream, KEYS[2] meta hash, KEYS[3] idempotency hash
-- ARGV[1] expected version (-1: create the game, whose meta must not exist yet), ARGV[2] idempotency field
-- ("" for none), ARGV[3] the answer stored under it, ARGV[4] the notice channel ("" for none), ARGV[5] the game
-- id the notice names, ARGV[6] number of meta field/value pairs that follow, then those pairs, then the records.
-- Returns {"ok", new_version} | {"conflict", current_version} | {"duplicate", stored_answer} | {"missing", "0"}
-- The notice ("<game id> <new version>") is a classic PUBLISH: on Redis Cluster it reaches subscribers on every
-- node, so a session process may listen on any one of them.
local idem = ARGV[2]
if idem ~= "" then
  local prior = redis.call("HGET", KEYS[3], idem)
  if prior then return {"duplicate", prior} end
end
local current = redis.call("HGET", KEYS[2], "version")
local expected = tonumber(ARGV[1])
if expected == -1 then
  if current then return {"conflict", current} end
  current = 0
elseif not current then
  return {"missing", "0"}
else
  current = tonumber(current)
  if current ~= expected then return {"conflict", tostring(current)} end
end
local pairs_n = tonumber(ARGV[6])
local first = 7 + 2 * pairs_n
local n = #ARGV - first + 1
for i = 0, n - 1 do
  redis.call("XADD", KEYS[1], tostring(current + i + 1) .. "-0", "r", ARGV[first + i])
end
local meta = {"version", tostring(current + n)}
for i = 0, pairs_n - 1 do
  meta[#meta + 1] = ARGV[7 + 2 * i]
  meta[#meta + 1] = ARGV[8 + 2 * i]
end
redis.call("HSET", KEYS[2], unpack(meta))
if idem ~= "" then redis.call("HSET", KEYS[3], idem, ARGV[3]) end
if ARGV[4] ~= "" then redis.call("PUBLISH", ARGV[4], ARGV[5] .. " " .. tostring(current + n)) end
return {"ok", tostring(current + n)}
