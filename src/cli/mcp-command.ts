// `vouch mcp serve [--root DIR] [--checks FILE] [--pass-env NAME]...`: a Model Context
// Protocol server on stdio (ADR 0065, docs/mcp.md). Only `serve` exists.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { UsageError } from "../engine/errors.ts";
import { checkedLedgerHome } from "../ledger/index.ts";
import { parseCommandArgs } from "./args.ts";
import type { Command } from "./io.ts";
import { planLibrary } from "./plan/library.ts";
import { passEnvFlag } from "./run-command.ts";

const mcpCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("mcp", args, {
    root: { type: "string" },
    checks: { type: "string" },
    "pass-env": { type: "string", multiple: true },
  });
  if (positionals.length !== 1 || positionals[0] !== "serve")
    throw new UsageError("mcp takes one subcommand: serve", "usage: vouch mcp serve [--root DIR] [--checks FILE]; see: docs/mcp.md");
  const { Root } = await import("./mcp/root.ts");
  const root = new Root(resolve(io.cwd, values.root ?? "."));
  const home = checkedLedgerHome(io.env, root.real);
  const checks = values.checks ?? (existsSync(join(root.real, "vouch.checks.yaml")) ? join(root.real, "vouch.checks.yaml") : undefined);
  const library = checks === undefined ? [] : planLibrary({ cwd: root.real, env: io.env }, checks).files;
  const { serve } = await import("./mcp/server.ts");
  return serve({ root, home, library, env: io.env, passEnv: passEnvFlag(values["pass-env"]), say: io.err });
};
export default mcpCommand;
