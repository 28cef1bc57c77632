-- bench.lua - the Lua workload of check_recursive.py: recursion (fib, a
-- tree build), table.sort (recursive auxsort), math.tointeger,
-- string.format and gmatch, garbage collection (recursive marking).
-- About 1 s with lua built with -pg -O2.
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local s = 0
for i = 1, 100000 do
  s = s + (math.tointeger(i * 1.0) or 0) + math.floor(i / 3)
end
local t = {}
local x = 42
for i = 1, 100000 do x = (x * 1103515245 + 12345) % 2147483648; t[i] = x end
table.sort(t)
table.sort(t, function(a, b) return a > b end)
local parts = {}
for i = 1, 20000 do parts[#parts + 1] = string.format("%d:%s", i, tostring(i * 7)) end
local str = table.concat(parts, ",")
local n = 0
for w in str:gmatch("%d+") do n = n + #w end
local tree
local function build(d) if d == 0 then return {} end return {build(d - 1), build(d - 1)} end
for i = 1, 8 do tree = build(12); collectgarbage() end
print(fib(24), s, t[1], n, #tree)
