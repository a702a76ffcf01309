// port-check mcp driven by the official MCP TypeScript SDK (pinned in package-lock.json), as a coding
// agent's client would drive it: initialise with roots, list tools, call every tool on a fixture
// workspace (a stand-in compiler, tests/fixtures/compile/fake-python.sh), progress, a cancelled compile,
// resources; then raw JSON-RPC (malformed, oversized, batches, version negotiation) with every message
// the server sends checked against the SDK's own schemas.
// Usage: node mcp_sdk_test.mjs --port-check BIN --fixtures DIR --source-dir DIR   (exit 77 = skipped)
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { loadSdk, parseArgs } from "./sdk.mjs";

const args = parseArgs(process.argv.slice(2), ["port-check", "fixtures", "source-dir"]);
const sdk = await loadSdk();
const { Client, StdioClientTransport, ListRootsRequestSchema, CallToolResultSchema, JSONRPCMessageSchema,
        InitializeResultSchema, ListToolsResultSchema, McpError, ErrorCode, LATEST_PROTOCOL_VERSION } = sdk;

// A workspace: a fake PyPTO checkout, a port that compiles, one whose compile hangs, one to lint.
const ws = fs.mkdtempSync(path.join(os.tmpdir(), "port-check-mcp-"));
const write = (rel, text) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};
write(".git/HEAD", "ref: refs/heads/main\n");
write("pypto/python/pypto/__init__.py", "");
write("projects/good/pypto_src/FAKE_MODE", "ok\n");
write("projects/good/pypto_src/golden.py", "x = 1\n");
write("projects/hanging/pypto_src/FAKE_MODE", "timeout\n");
write("projects/hanging/pypto_src/golden.py", "x = 1\n");
const port = path.join(args["source-dir"], "projects/row_softmax/pypto_src");
for (const f of fs.readdirSync(port)) if (f.endsWith(".py")) write(`projects/row_softmax/pypto_src/${f}`, fs.readFileSync(path.join(port, f)));
const fake = path.join(args.fixtures, "compile/fake-python.sh");
const serverArgs = ["mcp", "--pypto", path.join(ws, "pypto"), "--python", fake];

const checks = [];
const check = async (name, fn) => {
  try {
    await fn();
    checks.push(`ok   ${name}`);
  } catch (e) {
    checks.push(`FAIL ${name}: ${e.stack || e}`);
  }
};

// ---------------------------------------------------------------- through the SDK client
const client = new Client({ name: "port-check-sdk-test", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(ws).href, name: "workspace" }] }));
// The server starts elsewhere: only the client's roots say where the workspace is.
const transport = new StdioClientTransport({ command: args["port-check"], args: serverArgs, cwd: os.tmpdir(), stderr: "pipe" });
let stderr = "";
transport.stderr?.on("data", (d) => (stderr += d));
await client.connect(transport);

const call = (name, a, options) => client.callTool({ name, arguments: a }, CallToolResultSchema, options);
const text = (r) => r.content.map((c) => c.text ?? "").join("\n");

await check("initialize: server info and capabilities", async () => {
  assert.equal(client.getServerVersion().name, "port-check");
  assert.ok(client.getServerCapabilities().tools);
  assert.ok(client.getServerCapabilities().resources);
  assert.match(client.getInstructions() ?? "", /port-check/);
});

const expectedTools = ["check", "compile", "doctor", "eval", "explain_rule", "ledger", "lint", "new", "report", "run", "verify"];
await check("tools/list: every tool with an input schema, report tools with an output schema", async () => {
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(), expectedTools);
  for (const t of tools) assert.equal(t.inputSchema.type, "object", t.name);
  for (const name of ["check", "lint", "compile", "run", "verify", "report"])
    assert.equal(tools.find((t) => t.name === name).outputSchema.type, "object", name);
});

// The SDK validates structuredContent against each tool's output schema: a mismatch throws here.
await check("lint: the report model as structured content", async () => {
  const r = await call("lint", { paths: ["projects/row_softmax"] });
  assert.ok(!r.isError, text(r));
  assert.ok(r.structuredContent.summary.files >= 3, JSON.stringify(r.structuredContent.summary));
  assert.ok(r.structuredContent.sram.length >= 1);
});

await check("compile: progress per program, the compiler's stage in the report", async () => {
  const progress = [];
  const r = await call("compile", { paths: ["projects/good"] }, { onprogress: (p) => progress.push(p) });
  assert.ok(!r.isError, text(r));
  const stage = r.structuredContent.run.stages.find((s) => s.name === "compile");
  assert.match(stage.detail, /1 compiled, 0 failed/);
  // The SDK hands notifications to their handlers asynchronously and drops a progress handler when
  // the response arrives, so the last notification can be lost here; the raw session below checks
  // every one on the wire.
  assert.ok(progress.length >= 1, JSON.stringify(progress));
  for (let i = 1; i < progress.length; ++i) assert.ok(progress[i].progress > progress[i - 1].progress);
});

await check("check: lint and compile in one report", async () => {
  const r = await call("check", { paths: ["projects/good"] });
  assert.ok(r.structuredContent.run.stages.some((s) => s.name === "compile"), text(r));
});

await check("run: a report with the run stage", async () => {
  const r = await call("run", { paths: ["projects/good"], timeout: 30 });
  assert.ok(r.structuredContent.run.stages.some((s) => s.name === "run"), text(r));
});

await check("report: SRAM rows", async () => {
  const r = await call("report", { paths: ["projects/row_softmax"] });
  assert.ok(!r.isError, text(r));
  assert.ok(r.structuredContent.sram.every((row) => typeof row.function === "string"));
});

await check("ledger: compile, check and run of the same sources are one attempt and its repeats", async () => {
  const r = await call("ledger", { project: "projects/good" });
  assert.ok(!r.isError, text(r));
  const attempts = r.structuredContent.attempts;
  assert.equal(attempts.length, 1, JSON.stringify(attempts.length));
  assert.ok(attempts[0].repeats >= 2, JSON.stringify(attempts[0].repeats));
});

await check("explain_rule: a rule, and an unknown one as a tool error", async () => {
  const r = await call("explain_rule", { id: "MEM001" });
  assert.equal(r.structuredContent.id, "MEM001");
  assert.match(text(r), /## MEM001/);
  const unknown = await call("explain_rule", { id: "NOPE999" });
  assert.equal(unknown.isError, true);
});

await check("doctor: the passes level", async () => {
  const r = await call("doctor", { level: "passes" });
  assert.ok(Array.isArray(r.structuredContent.checks), text(r));
});

await check("new: scaffolds a project inside the root", async () => {
  const r = await call("new", { name: "fresh" });
  assert.ok(!r.isError, text(r));
  assert.ok(fs.existsSync(path.join(ws, "projects/fresh/pypto_src/golden.py")));
});

await check("a path outside the client's roots is refused", async () => {
  const r = await call("lint", { paths: ["/etc"] });
  assert.equal(r.isError, true);
  assert.match(text(r), /outside the workspace roots/);
});

await check("a bad argument is a tool error naming the schema path", async () => {
  const r = await call("lint", { paths: "projects/good" });
  assert.equal(r.isError, true);
  assert.match(text(r), /\/properties\/paths\/type/);
  const extra = await call("lint", { paths: ["projects/good"], colour: "red" });
  assert.match(text(extra), /additionalProperties/);
});

await check("an unknown tool is a protocol error", async () => {
  await assert.rejects(call("no_such_tool", {}), (e) => e instanceof McpError && e.code === ErrorCode.InvalidParams);
});

await check("a cancelled compile: the compiler's process group is killed, nothing is cached", async () => {
  const results = path.join(ws, ".port-check-cache/results");
  const cachedBefore = fs.existsSync(results) ? fs.readdirSync(results, { recursive: true }).length : 0;
  const abort = new AbortController();
  const pending = call("compile", { paths: ["projects/hanging"], timeout: 120 }, { signal: abort.signal });
  // Wait until the stand-in compiler runs (it writes its background child's pid), then cancel.
  const compileDir = path.join(ws, ".port-check-cache/compile");
  let pidFile;
  for (let i = 0; i < 300 && !pidFile; ++i) {
    await new Promise((r) => setTimeout(r, 100));
    if (!fs.existsSync(compileDir)) continue;
    for (const d of fs.readdirSync(compileDir))
      if (d.startsWith("hanging") && fs.existsSync(path.join(compileDir, d, "a2a3/grandchild.pid"))) pidFile = path.join(compileDir, d, "a2a3/grandchild.pid");
  }
  assert.ok(pidFile, "the stand-in compile never started");
  const started = Date.now();
  abort.abort("the agent moved on");
  await assert.rejects(pending);
  const pid = Number(fs.readFileSync(pidFile, "utf8").trim());
  let alive = true;
  for (let i = 0; i < 150 && alive; ++i) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      alive = !fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z");
    } catch {
      alive = false;
    }
  }
  assert.equal(alive, false, `the compiler's child ${pid} survived the cancellation`);
  assert.ok(Date.now() - started < 30000);
  const cachedAfter = fs.existsSync(results) ? fs.readdirSync(results, { recursive: true }).length : 0;
  assert.equal(cachedAfter, cachedBefore, "a cancelled compile left a cache entry");
  // The server is still serving.
  assert.deepEqual(await client.ping(), {});
});

await check("resources: one per rule and per skill file, readable by URI", async () => {
  const { resources } = await client.listResources();
  assert.ok(resources.some((r) => r.uri === "port-check://rules/MEM001"));
  assert.ok(resources.some((r) => r.uri === "port-check://skills/pypto-porting-workflow/SKILL.md"));
  const rule = await client.readResource({ uri: "port-check://rules/MEM001" });
  assert.match(rule.contents[0].text, /MEM001/);
  const skill = await client.readResource({ uri: "port-check://skills/pypto-porting-workflow/SKILL.md" });
  assert.match(skill.contents[0].text, /^---/);
  await assert.rejects(client.readResource({ uri: "port-check://rules/NOPE999" }), (e) => e instanceof McpError && e.code === -32002);
  const { resourceTemplates } = await client.listResourceTemplates();
  assert.ok(resourceTemplates.some((t) => t.uriTemplate === "port-check://rules/{id}"));
});

await client.close();

// ---------------------------------------------------------------- raw JSON-RPC, checked against the SDK's schemas
function rawSession() {
  const child = spawn(args["port-check"], serverArgs, { cwd: ws, stdio: ["pipe", "pipe", "pipe"] });
  let buffer = "";
  const received = [];
  child.stdout.on("data", (d) => {
    buffer += d;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const message = JSONRPCMessageSchema.parse(JSON.parse(line));  // every message is valid JSON-RPC as the SDK defines it
      received.push(message);
    }
  });
  return {
    send: (text) => child.stdin.write(text + "\n"),
    received,
    child,
  };
}

async function exchange(session, lines, count) {
  const before = session.received.length;
  for (const l of lines) session.send(l);
  // Generous under a loaded machine (ctest runs tests in parallel): up to 30 s for the replies.
  for (let i = 0; i < 600 && session.received.length < before + count; ++i) await new Promise((r) => setTimeout(r, 50));
  return session.received.slice(before);
}

await check("raw: version negotiation, malformed JSON, batches, an oversized message, requests before initialize", async () => {
  const s = rawSession();
  let [m] = await exchange(s, ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}'], 1);
  assert.equal(m.error.code, -32600);  // not initialised yet
  [m] = await exchange(s, [JSON.stringify({ jsonrpc: "2.0", id: 2, method: "initialize",
    params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "raw", version: "0" } } })], 1);
  assert.equal(InitializeResultSchema.parse(m.result).protocolVersion, "2024-11-05");  // an older revision it knows
  [m] = await exchange(s, [JSON.stringify({ jsonrpc: "2.0", id: 3, method: "initialize",
    params: { protocolVersion: "1999-01-01", capabilities: {}, clientInfo: { name: "raw", version: "0" } } })], 1);
  assert.equal(m.result.protocolVersion, LATEST_PROTOCOL_VERSION);  // one it does not: the latest, which the SDK knows too
  [m] = await exchange(s, ["{not json"], 1);
  assert.equal(m.error.code, -32700);
  assert.equal(m.id, undefined);  // MCP's schema: an error of an unknown request has no id (never null)
  [m] = await exchange(s, ['[{"jsonrpc":"2.0","id":4,"method":"ping"}]'], 1);
  assert.equal(m.error.code, -32600);
  [m] = await exchange(s, ['{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"' + "x".repeat(5 << 20) + '"}}'], 1);
  assert.equal(m.error.code, -32600);
  assert.match(m.error.message, /over the limit/);
  [m] = await exchange(s, ['{"jsonrpc":"1.0","id":6,"method":"ping"}'], 1);
  assert.equal(m.error.code, -32600);
  [m] = await exchange(s, ['{"jsonrpc":"2.0","id":7,"method":"no/such"}'], 1);
  assert.equal(m.error.code, -32601);
  [m] = await exchange(s, ['{"jsonrpc":"2.0","id":8,"method":"tools/list"}'], 1);
  assert.deepEqual(ListToolsResultSchema.parse(m.result).tools.map((t) => t.name).sort(), expectedTools);
  // Progress on the wire: one at the start, one per program compiled, all before the response.
  const compiled = await exchange(s, ['{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"compile",' +
    '"arguments":{"paths":["projects/good"]},"_meta":{"progressToken":"p10"}}}'], 3);
  const progress = compiled.filter((x) => x.method === "notifications/progress");
  assert.deepEqual(progress.map((x) => x.params.progressToken), ["p10", "p10"], JSON.stringify(compiled));
  assert.match(progress[1].params.message, /compiled good/);
  assert.ok(progress[1].params.progress > progress[0].params.progress);
  assert.equal(compiled.at(-1).id, 10);
  [m] = await exchange(s, ['{"jsonrpc":"2.0","id":9,"method":"ping"}'], 1);  // still alive after all that
  assert.deepEqual(m.result, {});
  s.child.stdin.end();
  const code = await new Promise((r) => s.child.on("exit", r));
  assert.equal(code, 0);
});

fs.rmSync(ws, { recursive: true, force: true });
console.log(checks.join("\n"));
if (checks.some((c) => c.startsWith("FAIL"))) {
  console.log("server stderr:\n" + stderr);
  process.exit(1);
}
