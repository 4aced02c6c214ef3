-- The fenced step of one resource (RedisDestination). Redis runs a script alone, start to end, so
-- the issuer check, the epoch check, the operation record and the change are one atomic step.
--
-- KEYS[1]  fence hash of the resource: epoch, issuer (shared by every destination of the server)
-- KEYS[2]  operation records of this destination and resource: operation -> record
-- KEYS[3]  the document this destination publishes for the resource: value, version
--          (all three carry the resource as {hash tag}: one hash slot)
-- ARGV[1]  'register' or 'write'
-- ARGV[2]  the token's issuer         ARGV[3]  the token's epoch (decimal, no leading zeros)
-- ARGV[4]  operation ID               ARGV[5]  request fingerprint (sha256:...)
-- ARGV[6]  the new value
--
-- Answers {tag, value}: {'foreign', bound issuer}, {'stale', current epoch},
-- {'registered', previous epoch}, {'conflict', record}, {'replayed', record}, {'applied', record},
-- {'corrupt', the registered epoch} if that is not an epoch (then nothing was written).
-- A record is '<epoch> <seconds> <microseconds> <version> <fingerprint>'.
-- Every check comes before the first write, and nothing after the first write can fail: Redis
-- does not roll a script back.

-- Epochs go up to 2^63-1; Lua numbers are doubles, exact only to 2^53. Compare the decimals.
local function older(a, b)
  if #a ~= #b then
    return #a < #b
  end
  return a < b
end

-- What Java registers: a decimal from 0 to 2^63-1 without leading zeros.
local function isEpoch(s)
  if s == '0' then
    return true
  end
  return string.match(s, '^[1-9]%d*$') ~= nil
    and (#s < 19 or (#s == 19 and s <= '9223372036854775807'))
end

local mode, issuer, epoch = ARGV[1], ARGV[2], ARGV[3]
local fence = redis.call('HMGET', KEYS[1], 'epoch', 'issuer')
local current = fence[1] or '0'
local bound = fence[2]

if not isEpoch(current) then
  return {'corrupt', current}
end

if bound and bound ~= issuer then
  return {'foreign', bound}
end
if older(epoch, current) then
  return {'stale', current}
end

-- Registers the token's epoch if newer, and binds the resource to its issuer if unbound.
local function register()
  if older(current, epoch) or not bound then
    redis.call('HSET', KEYS[1], 'epoch', epoch, 'issuer', issuer)
  end
end

if mode == 'register' then
  register()
  return {'registered', current}
elseif mode ~= 'write' then
  return redis.error_reply('fence.lua: unknown mode ' .. tostring(mode))
end

local operation, fingerprint = ARGV[4], ARGV[5]
local recorded = redis.call('HGET', KEYS[2], operation)
if recorded then
  if string.match(recorded, '%S+$') ~= fingerprint then
    return {'conflict', recorded}
  end
  register()
  return {'replayed', recorded}
end

local now = redis.call('TIME')
local version = redis.call('HINCRBY', KEYS[3], 'version', 1)
redis.call('HSET', KEYS[3], 'value', ARGV[6])
-- version is a Lua number: '..' would write 1e+14 from 10^14 on, '%d' writes every digit.
local record = table.concat({epoch, now[1], now[2], string.format('%d', version), fingerprint}, ' ')
redis.call('HSET', KEYS[2], operation, record)
register()
return {'applied', record}
