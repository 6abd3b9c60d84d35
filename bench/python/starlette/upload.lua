-- wrk script for run_starlette.py: POSTs one prebuilt multipart body, bounded in requests.
--   FW_BODY    path of the request body file
--   FW_CT      its Content-Type
--   FW_N       stop after this many responses (wrk's -d is the time cap)
--   FW_EXPECT  the exact response body every request must get (empty: any 200 response)
-- Use with one thread (-t1): the count is per thread. After FW_N responses it prints FW_DONE and stops; the runner
-- then sends SIGINT, and done() prints one JSON line (wrk's duration runs to that SIGINT, a few ms late at most).

local f = assert(io.open(os.getenv("FW_BODY"), "rb"))
local body = f:read("*a")
f:close()

wrk.method = "POST"
wrk.body = body
wrk.headers["Content-Type"] = os.getenv("FW_CT")
wrk.headers["Content-Length"] = tostring(#body)

local limit = tonumber(os.getenv("FW_N"))
local expect = os.getenv("FW_EXPECT")
-- globals: done() reads them from each thread with thread:get()
count, bad, first_bad = 0, 0, ""
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function response(status, headers, resp)
   count = count + 1
   if status ~= 200 or (expect ~= "" and resp ~= expect) then
      bad = bad + 1
      if first_bad == "" then first_bad = status .. " " .. string.sub(resp, 1, 200) end
   end
   if count == limit then
      -- wrk's main thread sleeps for the whole -d: tell the runner, which interrupts wrk (SIGINT) at once
      io.write("FW_DONE\n")
      io.flush()
      wrk.thread:stop()
   end
end

function done(summary, latency, requests)
   local e = summary.errors
   local nbad, seen, fb = 0, 0, ""
   for _, t in ipairs(threads) do
      nbad = nbad + t:get("bad")
      seen = seen + t:get("count")
      if fb == "" then fb = t:get("first_bad") end
   end
   io.write(string.format(
      '{"requests":%d,"duration_us":%d,"bytes":%d,"err_connect":%d,"err_read":%d,"err_write":%d,"err_status":%d,"err_timeout":%d,"lat_p50_us":%d,"lat_p99_us":%d,"checked":%d,"bad":%d,"first_bad":"%s"}\n',
      summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
      latency:percentile(50), latency:percentile(99), seen, nbad,
      string.gsub(fb, '[^%w %-_:,.{}]', '?')))
end
