// An agent's port, through MCP calls only: scaffold a project with `new`, write a row softmax with a
// bug (the agent's own file edits), `check` it with the golden on the simulator (the golden fails),
// fix it, `check` again (it passes), then read the `ledger` the tool kept of those attempts. Needs the
// real toolchain (PyPTO, its simulator): skipped (exit 77) with what `doctor` says is missing otherwise.
// Usage: node mcp_port_story_test.mjs --port-check BIN --source-dir DIR [--pypto DIR --python EXE]
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { loadSdk, parseArgs } from "./sdk.mjs";

const args = parseArgs(process.argv.slice(2), ["port-check", "pypto", "python", "source-dir"]);
const sdk = await loadSdk();
const { Client, StdioClientTransport, ListRootsRequestSchema } = sdk;

const ws = fs.mkdtempSync(path.join(os.tmpdir(), "port-check-story-"));
fs.mkdirSync(path.join(ws, ".git"));
fs.writeFileSync(path.join(ws, ".git/HEAD"), "ref: refs/heads/main\n");
const serverArgs = ["mcp"];
for (const k of ["pypto", "python"]) if (args[k]) serverArgs.push(`--${k}`, args[k]);

const client = new Client({ name: "port-story", version: "1.0.0" }, { capabilities: { roots: {} } });
client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(ws).href }] }));
// The SDK starts servers with a reduced environment unless given one: PYPTO_ROOT and the rest pass on.
await client.connect(new StdioClientTransport({ command: args["port-check"], args: serverArgs, cwd: ws, env: process.env, stderr: "inherit" }));
const call = async (name, a) => (await client.callTool({ name, arguments: a }, undefined, { timeout: 900000 }));

const doctor = await call("doctor", { level: "simulator" });
if (doctor.structuredContent.reached !== "simulator") {
  const missing = doctor.structuredContent.checks.filter((c) => c.state !== "ok");
  console.log("SKIP: the simulator is not reachable here: " + missing.map((c) => `${c.title}: ${c.found}`).join("; "));
  await client.close();
  process.exit(77);
}

// 1. The scaffold.
const created = await call("new", { name: "story" });
assert.ok(!created.isError, JSON.stringify(created.content));
const src = path.join(ws, "projects/story/pypto_src");

// 2. The agent writes its port: the row softmax of projects/row_softmax, with one bug: it divides by
// the row max instead of the row sum.
const reference = path.join(args["source-dir"], "projects/row_softmax/pypto_src");
for (const f of ["golden.py", "orchestration.py"]) fs.copyFileSync(path.join(reference, f), path.join(src, f));
const incore = fs.readFileSync(path.join(reference, "incore.py"), "utf8");
assert.match(incore, /pl\.row_sum\(exps, sum_scratch\)/);
fs.writeFileSync(path.join(src, "incore.py"), incore.replace("pl.row_sum(exps, sum_scratch)", "pl.row_max(exps, sum_scratch)"));

// 3. Checked with the golden: it fails, and says how.
const first = await call("check", { paths: ["projects/story"], run: true });
const verdict = (r) => r.structuredContent.golden?.[0]?.status;
assert.equal(verdict(first), "failed", JSON.stringify(first.structuredContent.golden));
assert.ok(first.structuredContent.diagnostics.some((d) => d.rule.startsWith("GOLD")));

// 4. One change: the denominator is the row sum. The golden passes.
fs.writeFileSync(path.join(src, "incore.py"), incore);
const second = await call("check", { paths: ["projects/story"], run: true });
assert.equal(verdict(second), "passed", JSON.stringify(second.structuredContent.golden));

// 5. The ledger tells that story: two attempts, the change between them, failed then passed.
const ledger = await call("ledger", { project: "projects/story" });
assert.ok(!ledger.isError, JSON.stringify(ledger.content));
const attempts = ledger.structuredContent.attempts;
assert.equal(attempts.length, 2, JSON.stringify(attempts));
assert.equal(attempts[0].golden?.status ?? attempts[0].golden, "failed");
assert.equal(attempts[1].golden?.status ?? attempts[1].golden, "passed");
assert.ok(JSON.stringify(attempts[1].changes ?? attempts[1].change).includes("incore.py"), JSON.stringify(attempts[1]));
console.log(ledger.content.map((c) => c.text).join("\n"));

await client.close();
fs.rmSync(ws, { recursive: true, force: true });
console.log("ok   a port from the scaffold to a passing golden through MCP calls only, told by its ledger");
