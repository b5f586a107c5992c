-- wrk script: POSTs one JSON-RPC request per call with a fresh id, checks every answer, times
-- every request itself, prints a JSON summary line. Configured from the environment:
--   BENCH_BODY     JSON body with the placeholder __ID__ where the id goes
--   BENCH_HEADERS  "name: value" lines (e.g. Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method)
--   BENCH_EXPECT   plain substring every good answer contains (default "result")
--
-- Why it times requests itself: wrk's own latency histogram does not hold one latency per
-- request. Against a plain node:http server at one connection it reported a mean of 359 us for
-- 64,810 requests in 5 s (23 s of latency in 5 s of run: impossible one at a time), and a p99 of
-- 6.3 ms where this script's per-request p99 was 0.35 ms and a separate Node client's 0.19 ms.
-- Its tail weighs long requests far beyond their count, so a server's rare GC pause became "the
-- p99". Here each request's start is noted under its JSON-RPC id as wrk sends it, and its end
-- when the answer carrying that id is complete: a latency per request, whose mean obeys
-- Little's law (connections / throughput). wrk's own figures stay in the line as wrk_*.
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clock_id, bench_timespec *tp);
]]
local CLOCK_MONOTONIC = 1
local now_ts = ffi.new("bench_timespec")
local function now_us()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, now_ts)
  return tonumber(now_ts.tv_sec) * 1000000 + tonumber(now_ts.tv_nsec) / 1000
end

local body_template = os.getenv("BENCH_BODY")
local expect = os.getenv("BENCH_EXPECT") or '"result"'
local headers = { ["Content-Type"] = "application/json", ["Accept"] = "application/json, text/event-stream" }
for line in string.gmatch(os.getenv("BENCH_HEADERS") or "", "[^\n]+") do
  local name, value = string.match(line, "^([^:]+):%s*(.*)$")
  if name then headers[name] = value end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
  thread:set("tid", #threads)
end

function init(args)
  counter = 0
  bad = 0
  prefix = tostring(tid or 1)
  started = {} -- request id -> when it was handed to wrk to send (us)
  timed = {}   -- latency in us -> how many requests took it
end

function request()
  counter = counter + 1
  local id = prefix .. string.format("%09d", counter)
  started[id] = now_us()
  return wrk.format("POST", nil, headers, (string.gsub(body_template, "__ID__", id, 1)))
end

-- The id this answer carries: the JSON-RPC id ends the message, so its tail is read first.
local function answered_id(body)
  for _, text in ipairs({ string.sub(body, -80), body }) do
    for id in string.gmatch(text, '"id":"?(%d%d%d%d%d%d%d%d%d%d+)') do
      if started[id] then return id end
    end
  end
end

function response(status, hdrs, body)
  local ended = now_us()
  if status ~= 200 or not string.find(body, expect, 1, true) then bad = bad + 1 end
  local id = answered_id(body)
  if id then
    local us = math.floor(ended - started[id])
    started[id] = nil
    timed[us] = (timed[us] or 0) + 1
  end
end

-- Percentiles of the merged per-request latencies: { count, mean, p50, p90, p99, max }.
local function summarize(counts)
  local keys, count, sum = {}, 0, 0
  for us, n in pairs(counts) do
    keys[#keys + 1] = us
    count = count + n
    sum = sum + us * n
  end
  table.sort(keys)
  local function at(p)
    local rank, seen = math.max(1, math.ceil(p / 100 * count)), 0
    for _, us in ipairs(keys) do
      seen = seen + counts[us]
      if seen >= rank then return us end
    end
    return 0
  end
  return { count = count, mean = count > 0 and sum / count or 0, p50 = at(50), p90 = at(90), p99 = at(99), max = keys[#keys] or 0 }
end

function done(summary, latency, requests)
  local bad_total, merged = 0, {}
  for _, thread in ipairs(threads) do
    bad_total = bad_total + (thread:get("bad") or 0)
    for us, n in pairs(thread:get("timed") or {}) do merged[us] = (merged[us] or 0) + n end
  end
  local own = summarize(merged)
  local e = summary.errors
  io.write(string.format('BENCHJSON {"requests":%d,"timed":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f,"wrk_p50_us":%d,"wrk_p99_us":%d,"wrk_mean_us":%.1f,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"bad":%d}\n',
    summary.requests, own.count, summary.duration, own.p50, own.p90, own.p99, own.max, own.mean,
    latency:percentile(50), latency:percentile(99), latency.mean,
    e.connect, e.read, e.write, e.status, e.timeout, bad_total))
end
