-- wrk script: POSTs one JSON-RPC request per call with a fresh id, checks every answer, prints a
-- JSON summary line. Configured from the environment:
--   BENCH_BODY     JSON body with the placeholder __ID__ where the id goes
--   BENCH_HEADERS  "name: value" lines (e.g. Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method)
--   BENCH_EXPECT   plain substring every good answer contains (default "result")
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
end

function request()
  counter = counter + 1
  local body = string.gsub(body_template, "__ID__", prefix .. string.format("%09d", counter), 1)
  return wrk.format("POST", nil, headers, body)
end

function response(status, hdrs, body)
  if status ~= 200 or not string.find(body, expect, 1, true) then bad = bad + 1 end
end

function done(summary, latency, requests)
  local bad_total = 0
  for _, thread in ipairs(threads) do bad_total = bad_total + (thread:get("bad") or 0) end
  local e = summary.errors
  io.write(string.format('BENCHJSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"mean_us":%.1f,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d,"bad":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    e.connect, e.read, e.write, e.status, e.timeout, bad_total))
end
