// The conformance kit: one suite of checks run against every harness adapter.
// Each check compares what the adapter DECLARES (its guarantees) with what
// its sittings DO against stub executables first on PATH: a cap declared
// native must be stopped by the harness's own flag, a supervised cap by the
// engine, an observed one must at least be reported; what it cannot keep must
// be refused before anything starts. Never a real model, never a real cost.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CAP_NAMES } from "../../../src/engine/events.ts";
import { CAP_GUARANTEES } from "../../../src/spawn/harness/types.ts";
import { overruns } from "../../../src/engine/caps.ts";
import type { AgentPlan } from "../../../src/engine/ports.ts";
import { isProcessHarness, KIT_PROMPT, kitAssignment, kitRunner, readEcho, sit, type KitSubject, type SitResult } from "./kit-sitting.ts";

export type CheckStatus = "passed" | "failed" | "not_applicable";
export interface CheckResult {
  check: string;
  status: CheckStatus;
  detail: string;
}
interface KitCheck {
  name: string;
  run(subject: KitSubject): Promise<Omit<CheckResult, "check">>;
}

const ok = (detail = "") => ({ status: "passed" as const, detail });
const no = (detail: string) => ({ status: "failed" as const, detail });
const na = (detail: string) => ({ status: "not_applicable" as const, detail });
const brief = (r: SitResult) =>
  `stop ${r.sitting.stopReason}, turns ${r.sitting.turns}, cost ${r.sitting.costUsd}, exit ${r.sitting.exitCode}, ${r.elapsedMs} ms${r.safetyFired ? " (the kit had to cancel it)" : ""}${r.sitting.error ? `: ${r.sitting.error}` : ""}`;

/** Expectations of a cap's guarantee, checked on a sitting that went past the cap. */
function capKept(
  subject: KitSubject,
  cap: "turns" | "budget_usd",
  r: SitResult,
  limit: number,
  fullRun: number,
): Omit<CheckResult, "check"> {
  const guarantee = subject.descriptor.guarantees.caps[cap];
  const stop = cap === "turns" ? "turns" : "budget";
  const actual = cap === "turns" ? r.sitting.turns : r.sitting.costUsd;
  const overrun = overruns(
    cap === "turns" ? { turns: limit } : { budgetUsd: limit },
    cap === "turns" ? { turns: actual } : { costUsd: actual },
  );
  if (guarantee === "observed") {
    return overrun.length === 1
      ? ok(`observed: ${cap} ${actual} against ${limit} is reported`)
      : no(`declares ${cap} observed, but the sitting did not report it past the cap: ${brief(r)}`);
  }
  if (r.sitting.stopReason !== stop)
    return no(`declares ${cap} ${guarantee}, but a sitting past a ${cap} cap of ${limit} stopped "${r.sitting.stopReason}" (${brief(r)})`);
  if (overrun.length !== 1) return no(`stopped for ${cap} but did not report the actual value past the cap (${brief(r)})`);
  if (actual !== null && actual >= fullRun)
    return no(`stopped for ${cap} only after the full run (${actual} of ${fullRun}): nothing kept the cap`);
  return ok(`${guarantee}: stopped "${stop}" at ${actual} against ${limit}`);
}

export const KIT_CHECKS: readonly KitCheck[] = [
  {
    name: "declares every cap and setting",
    async run(s) {
      const g = s.descriptor.guarantees;
      const caps = Object.keys(g.caps).sort();
      if (caps.join() !== [...CAP_NAMES].sort().join())
        return no(`declares caps [${caps.join(", ")}], expected exactly ${CAP_NAMES.join(", ")}`);
      const bad = CAP_NAMES.filter((c) => !(CAP_GUARANTEES as readonly string[]).includes(g.caps[c]));
      if (bad.length > 0) return no(`invalid guarantee for ${bad.join(", ")}`);
      if (![g.model, g.tools, g.permissionMode].every((b) => typeof b === "boolean"))
        return no("model/tools/permissionMode must be booleans");
      if (s.descriptor.name !== s.harness) return no(`declares name ${s.descriptor.name} for harness ${s.harness}`);
      return ok(CAP_NAMES.map((c) => `${c}: ${g.caps[c]}`).join(", "));
    },
  },
  {
    name: "refuses what it cannot keep, names harness and field",
    async run(s) {
      const runner = kitRunner(s, { replayDir: tmpdir() });
      const plan = (p: Partial<AgentPlan>): AgentPlan => ({
        node: "n",
        harness: s.harness,
        caps: {},
        ...(s.acpCommand ? { acp: { command: s.acpCommand } } : {}),
        ...p,
      });
      const problems: string[] = [];
      const expectRefused = (what: string, p: Partial<AgentPlan>, field: string, refused: boolean) => {
        const hit = runner.refuse(plan(p)).find((r) => r.field === field);
        if (refused && !hit) problems.push(`${what} was accepted`);
        if (refused && hit && !(hit.message.includes(s.harness) && hit.message.includes(field)))
          problems.push(`refusal of ${what} does not name "${s.harness}" and "${field}": ${hit.message}`);
        if (!refused && hit) problems.push(`${what} was refused although declared kept: ${hit.message}`);
      };
      const g = s.descriptor.guarantees;
      const capValues = { turns: { turns: 3 }, budget_usd: { budgetUsd: 1 }, wall: { wallMs: 60_000 }, idle: { idleMs: 60_000 } } as const;
      for (const cap of CAP_NAMES) expectRefused(`caps.${cap}`, { caps: capValues[cap] }, `caps.${cap}`, g.caps[cap] === "none");
      expectRefused("model", { model: "kit-model" }, "model", !g.model);
      expectRefused("tools", { tools: ["Read"] }, "tools", !g.tools);
      expectRefused(
        "permission_mode",
        { permissionMode: s.descriptor.permissionModes?.[0] ?? "default" },
        "permission_mode",
        !g.permissionMode,
      );
      expectRefused("a negative wall cap", { caps: { wallMs: -1 } }, "caps.wall", true);
      expectRefused("an empty prompt", { prompt: " " }, "prompt", true);
      expectRefused("a missing cwd", { cwd: join(tmpdir(), "vouch-kit-no-such-dir") }, "cwd", true);
      return problems.length === 0 ? ok() : no(problems.join("; "));
    },
  },
  {
    name: "a refused sitting starts nothing",
    async run(s) {
      const r = await sit(s, "success", { prompt: "" });
      if (r.started) return no("the program was started for a sitting with an empty prompt");
      if (r.sitting.stopReason !== "unavailable" || !r.sitting.error?.includes("prompt"))
        return no(`expected unavailable naming the prompt, got ${brief(r)}`);
      return ok();
    },
  },
  {
    name: "success: complete, prompt intact on its channel, nothing invented",
    async run(s) {
      const r = await sit(s, "success");
      if (r.sitting.stopReason !== "complete") return no(`expected complete, got ${brief(r)}`);
      if (r.sitting.exitCode !== 0) return no(`expected exit 0, got ${r.sitting.exitCode}`);
      const echo = readEcho(r.sitting.resultText);
      if (!echo) return no(`the result is not the stub's echo: ${r.sitting.resultText.slice(0, 200)}`);
      if (echo.prompt !== KIT_PROMPT) return no(`the prompt arrived changed: ${JSON.stringify(echo.prompt)}`);
      if (echo.argv.some((a) => a.includes("vouch-kit-pwned"))) return no("the prompt was put on the command line");
      const g = s.descriptor.guarantees.caps;
      if (g.budget_usd === "none" && r.sitting.costUsd !== null)
        return no(`reports cost ${r.sitting.costUsd} although it has no cost figure`);
      if (g.turns === "none" && r.sitting.turns !== null) return no(`reports ${r.sitting.turns} turns although it cannot count them`);
      if (g.turns !== "none" && !(typeof r.sitting.turns === "number" && r.sitting.turns >= 1))
        return no(`counts turns but reported ${r.sitting.turns}`);
      return ok(brief(r));
    },
  },
  {
    name: "model, tools and permission mode reach the harness when declared honoured",
    async run(s) {
      if (!isProcessHarness(s)) return na("replay plays a recording: settings are whatever was recorded");
      const g = s.descriptor.guarantees;
      if (!g.model && !g.tools && !g.permissionMode) return na("declares none honoured (the refusal check covers them)");
      const mode = s.descriptor.permissionModes?.[0] ?? "default";
      const r = await sit(s, "success", {
        ...(g.model ? { model: "kit-model" } : {}),
        ...(g.tools ? { tools: ["Read", "Grep"] } : {}),
        ...(g.permissionMode ? { permissionMode: mode } : {}),
      });
      const echo = readEcho(r.sitting.resultText);
      if (!echo) return no(`no echo from the stub: ${brief(r)}`);
      const problems: string[] = [];
      if (g.model && echo.model !== "kit-model") problems.push(`model arrived as ${echo.model}`);
      if (g.tools && JSON.stringify(echo.tools) !== JSON.stringify(["Read", "Grep"]))
        problems.push(`tools arrived as ${JSON.stringify(echo.tools)}`);
      // Pre-approving is not restricting: a harness that honours tools must also make the others unavailable.
      if (g.tools && JSON.stringify(echo.available) !== JSON.stringify(["Read", "Grep"]))
        problems.push(`the available tools arrived as ${JSON.stringify(echo.available)} (pre-approved is not restricted)`);
      if (g.permissionMode && echo.permissionMode !== mode) problems.push(`permission mode arrived as ${echo.permissionMode}`);
      return problems.length === 0 ? ok() : no(`declared honoured but ${problems.join("; ")}`);
    },
  },
  {
    name: "a setting that looks like a flag arrives as a value, never as a flag",
    async run(s) {
      if (!isProcessHarness(s)) return na("replay plays a recording: settings are whatever was recorded");
      const g = s.descriptor.guarantees;
      if (!g.model && !g.tools) return na("declares neither model nor tools honoured");
      // `-m --yolo` is gemini's yolo flag; `--model --dangerously-skip-permissions` claude's (issue 12).
      const r = await sit(s, "success", {
        ...(g.model ? { model: "--yolo" } : {}),
        ...(g.tools ? { tools: ["--dangerously-skip-permissions"] } : {}),
      });
      const echo = readEcho(r.sitting.resultText);
      if (!echo) return no(`no echo from the stub: ${brief(r)}`);
      const problems: string[] = [];
      if (g.model && echo.model !== "--yolo") problems.push(`model arrived as ${echo.model}`);
      if (g.tools && JSON.stringify(echo.tools) !== JSON.stringify(["--dangerously-skip-permissions"]))
        problems.push(`tools arrived as ${JSON.stringify(echo.tools)}`);
      const loose = echo.argv.filter((x) => x === "--yolo" || x === "--dangerously-skip-permissions");
      if (loose.length > 0) problems.push(`${loose.join(", ")} stood alone in argv, where the harness reads it as a flag`);
      return problems.length === 0 ? ok("values in the --flag=value form") : no(problems.join("; "));
    },
  },
  {
    name: "live progress: turns as they happen, never an invented number",
    async run(s) {
      const r = await sit(s, "success", { stub: { STUB_TURNS: "5", STUB_TURN_MS: "40" } });
      if (r.sitting.stopReason !== "complete") return no(`expected complete, got ${brief(r)}`);
      const turns = r.progress.map((p) => p.turns).filter((t): t is number => t !== undefined);
      if (s.descriptor.guarantees.caps.turns === "none") {
        if (turns.length > 0 || r.progress.some((p) => p.costUsd !== undefined)) return no("reported turns or cost it cannot know");
        return ok("no turns or cost reported");
      }
      if (turns.some((t, i) => i > 0 && t < turns[i - 1]!)) return no(`turns went backwards: ${turns.join(",")}`);
      if (new Set(turns).size < 3) return no(`expected turns to count up live, saw [${turns.join(",")}]`);
      if (s.descriptor.guarantees.caps.budget_usd === "none" && r.progress.some((p) => p.costUsd !== undefined))
        return no("reported a cost it cannot know");
      return ok(`turns seen: ${[...new Set(turns)].join(",")}`);
    },
  },
  {
    name: "turns cap is kept as declared",
    async run(s) {
      const g = s.descriptor.guarantees.caps.turns;
      if (g === "none") return na("declared none: refused (see the refusal check)");
      // With the backstop off, a native cap can only be kept by the harness's own flag.
      const r = await sit(s, "success", {
        caps: { turns: 1 },
        backstop: g === "native" ? null : undefined,
        stub: { STUB_TURNS: "20", STUB_TURN_MS: "40" },
      });
      return capKept(s, "turns", r, 1, 20);
    },
  },
  {
    name: "budget cap is kept as declared",
    async run(s) {
      const g = s.descriptor.guarantees.caps.budget_usd;
      if (g === "none") return na("declared none: refused (see the refusal check)");
      const stub: Record<string, string> =
        g === "observed" ? { STUB_TURNS: "5", STUB_TURN_COST: "0.01" } : { STUB_TURNS: "20", STUB_TURN_MS: "40", STUB_TURN_COST: "0.01" };
      const r = await sit(s, "success", { caps: { budgetUsd: 0.025 }, backstop: g === "native" ? null : undefined, stub });
      return capKept(s, "budget_usd", r, 0.025, g === "observed" ? Infinity : 0.2);
    },
  },
  {
    name: "wall cap: a hang is stopped on time",
    async run(s) {
      const g = s.descriptor.guarantees.caps.wall;
      if (g === "none") return na("declared none: refused");
      const r = await sit(s, "hang", { caps: { wallMs: 600 }, safetyMs: 6_000 });
      if (g === "observed") return (r.sitting.wallMs ?? 0) > 600 ? ok("observed") : no(`wall not reported: ${brief(r)}`);
      if (r.sitting.stopReason !== "wall") return no(`declares wall ${g}, but a hang past a 600 ms wall cap ended: ${brief(r)}`);
      if (!isProcessHarness(s)) return ok(brief(r));
      const stubborn = await sit(s, "hang", { caps: { wallMs: 600 }, graceMs: 300, stub: { STUB_IGNORE_TERM: "1" }, safetyMs: 6_000 });
      if (stubborn.sitting.stopReason !== "wall")
        return no(`a program ignoring SIGTERM was not stopped by the wall cap: ${brief(stubborn)}`);
      return ok(`${brief(r)}; ignoring SIGTERM: ${stubborn.elapsedMs} ms`);
    },
  },
  {
    name: "idle cap: silence is stopped",
    async run(s) {
      const g = s.descriptor.guarantees.caps.idle;
      if (g === "none") return na("declared none: refused");
      const r = await sit(s, "hang", { caps: { idleMs: 500 }, safetyMs: 6_000 });
      if (g === "observed") return (r.sitting.idleMs ?? 0) > 500 ? ok("observed") : no(`idle not reported: ${brief(r)}`);
      return r.sitting.stopReason === "idle"
        ? ok(brief(r))
        : no(`declares idle ${g}, but a silent sitting past a 500 ms idle cap ended: ${brief(r)}`);
    },
  },
  {
    name: "garbage output is never a verdict with invented numbers",
    async run(s) {
      const r = await sit(s, "garbage");
      if (s.descriptor.protocol === "text") {
        const fine =
          r.sitting.stopReason === "complete" &&
          r.sitting.resultText.includes("not JSON") &&
          r.sitting.costUsd === null &&
          r.sitting.turns === null;
        return fine ? ok("text harness: the output is the result") : no(`expected the text as the result and no numbers: ${brief(r)}`);
      }
      if (r.sitting.stopReason !== "crashed" || !r.sitting.error) return no(`expected crashed with an error: ${brief(r)}`);
      return r.sitting.costUsd === null ? ok(r.sitting.error) : no(`invented a cost of ${r.sitting.costUsd}`);
    },
  },
  {
    name: "a stream cut mid-line is crashed, with the stderr tail",
    async run(s) {
      const r = await sit(s, "cut");
      if (s.descriptor.protocol === "text") {
        return r.sitting.stopReason === "complete" && r.sitting.exitCode === 1
          ? ok("text harness: exit 1 recorded for exit_zero")
          : no(`expected complete with exit 1: ${brief(r)}`);
      }
      if (r.sitting.stopReason !== "crashed") return no(`expected crashed: ${brief(r)}`);
      if (isProcessHarness(s) && !r.sitting.stderrTail.includes("connection reset"))
        return no(`stderr tail lost: ${JSON.stringify(r.sitting.stderrTail)}`);
      return ok(r.sitting.error ?? "");
    },
  },
  {
    name: "a grandchild holding the pipe does not hang the sitting",
    async run(s) {
      if (!isProcessHarness(s)) return na("no process");
      const r = await sit(s, "grandchild", { safetyMs: 10_000 });
      if (r.safetyFired) return no(`the sitting hung on the grandchild's pipe: ${brief(r)}`);
      return r.sitting.stopReason === "complete" && r.elapsedMs < 8_000
        ? ok(brief(r))
        : no(`expected complete well before the grandchild's 30 s: ${brief(r)}`);
    },
  },
  {
    name: "a missing binary is unavailable, naming what is missing",
    async run(s) {
      if (s.harness === "replay") {
        // An empty fixture folder: the recording is what is missing.
        const empty = mkdtempSync(join(tmpdir(), "vouch-kit-no-fixtures-"));
        const sitting = await kitRunner(s, { replayDir: empty }).run(kitAssignment(s, empty, {}), {
          signal: new AbortController().signal,
          onProgress: () => {},
        });
        rmSync(empty, { recursive: true, force: true });
        const named = sitting.stopReason === "unavailable" && sitting.error?.includes("kit_node.jsonl");
        return named ? ok(sitting.error ?? "") : no(`expected unavailable naming the fixture files looked for: ${sitting.error}`);
      }
      const r = await sit(s, "success", { emptyPath: true });
      const name = s.harness === "command" ? "kit-missing-program" : (s.descriptor.binary ?? s.harness);
      return r.sitting.stopReason === "unavailable" && r.sitting.error?.includes(name)
        ? ok(r.sitting.error)
        : no(`expected unavailable naming ${name}: ${brief(r)}`);
    },
  },
  {
    name: "cancel stops a live sitting",
    async run(s) {
      const r = await sit(s, "hang", { cancelAfterMs: 400, safetyMs: 8_000 });
      return r.sitting.stopReason === "cancelled" && r.elapsedMs < 6_000 && !r.safetyFired
        ? ok(brief(r))
        : no(`expected cancelled soon after 400 ms: ${brief(r)}`);
    },
  },
  {
    name: "a flood of output is bounded",
    async run(s) {
      if (!isProcessHarness(s)) return na("no process");
      const r = await sit(s, "flood", { stub: { STUB_FLOOD_MB: "30" }, safetyMs: 25_000 });
      if (r.safetyFired) return no(`a 30 MB output did not finish: ${brief(r)}`);
      if (r.sitting.resultText.length > 2 * 1024 * 1024 || r.sitting.stderrTail.length > 64 * 1024)
        return no("kept more than the bounded tail");
      const expected = s.descriptor.protocol === "text" ? "complete" : "crashed";
      return r.sitting.stopReason === expected ? ok(`${brief(r).slice(0, 200)}`) : no(`expected ${expected}: ${brief(r).slice(0, 300)}`);
    },
  },
];

/** Runs every check (or those named) and reports each. */
export async function runKit(subject: KitSubject, only?: string[]): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  for (const check of KIT_CHECKS) {
    if (only && !only.includes(check.name)) continue;
    try {
      out.push({ check: check.name, ...(await check.run(subject)) });
    } catch (e) {
      out.push({ check: check.name, status: "failed", detail: `threw: ${(e as Error).message}` });
    }
  }
  return out;
}
