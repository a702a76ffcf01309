// What the MCP tests share: their --key value arguments, and the official TypeScript SDK, or exit 77
// (skipped) naming what is missing.
import path from "node:path";

export function parseArgs(argv, pathKeys) {
  const args = Object.fromEntries(
    argv.reduce((pairs, a, i, all) => (a.startsWith("--") ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []));
  for (const k of pathKeys) if (args[k]) args[k] = path.resolve(args[k]);
  return args;
}

export async function loadSdk() {
  try {
    return {
      ...(await import("@modelcontextprotocol/sdk/client/index.js")),
      ...(await import("@modelcontextprotocol/sdk/client/stdio.js")),
      ...(await import("@modelcontextprotocol/sdk/types.js")),
    };
  } catch (e) {
    console.log(`SKIP: the MCP TypeScript SDK is not installed (npm ci at the repository root): ${e.message}`);
    process.exit(77);
  }
}
