-- Append one command's batch of records to a game's stream, all or nothing.
-- KEYS[1] events stream, KEYS[2] meta hash, KEYS[3] idempotency hash
-- ARGV[1] expected version, ARGV[2] idempotency field ("" for none), ARGV[3] the answer stored under it,
-- ARGV[4] number of meta field/value pairs that follow, then those pairs, then the records (JSON).
-- Returns {"ok", new_version} | {"conflict", current_version} | {"duplicate", stored_answer} | {"missing", "0"}
local idem = ARGV[2]
if idem ~= "" then
  local prior = redis.call("HGET", KEYS[3], idem)
  if prior then return {"duplicate", prior} end
end
local current = redis.call("HGET", KEYS[2], "version")
if not current then return {"missing", "0"} end
current = tonumber(current)
if current ~= tonumber(ARGV[1]) then return {"conflict", tostring(current)} end
local pairs_n = tonumber(ARGV[4])
local first = 5 + 2 * pairs_n
local n = #ARGV - first + 1
for i = 0, n - 1 do
  redis.call("XADD", KEYS[1], tostring(current + i + 1) .. "-0", "r", ARGV[first + i])
end
local meta = {"version", tostring(current + n)}
for i = 0, pairs_n - 1 do
  meta[#meta + 1] = ARGV[5 + 2 * i]
  meta[#meta + 1] = ARGV[6 + 2 * i]
end
redis.call("HSET", KEYS[2], unpack(meta))
if idem ~= "" then redis.call("HSET", KEYS[3], idem, ARGV[3]) end
return {"ok", tostring(current + n)}
