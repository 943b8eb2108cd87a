// The engine's side of sealing (ADR 0040), with fakes: the pure decision per
// node, what the plan refuses and warns of, and the seal request each port gets
// — the worktree (with the user's repository) for a node in one, the working
// folder for a shared one, none when unsealed — and what the events record.
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import { RefusalError } from "../../src/engine/errors.ts";
import { planRun } from "../../src/engine/run.ts";
import { decideSeal, sandboxModeOf, SANDBOX_MODES, type SandboxAvailability } from "../../src/engine/sandbox.ts";
import { FAKE_ROOT, FakeGit } from "./helpers/fake-git.ts";
import { finishedOf, run, setup } from "./helpers/run-helper.ts";

const WORKS: SandboxAvailability = { available: true };
const BROKEN: SandboxAvailability = { available: false, reason: "bubblewrap (bwrap) is not installed" };

describe("decideSeal (pure)", () => {
  test("the table: off never seals; auto seals where it works and says why not where not; required refuses", () => {
    const agent = { kind: "agent" as const, workspace: false };
    expect(decideSeal("off", WORKS, agent)).toEqual({ sealed: false, reason: "sandbox: off", warn: false });
    expect(decideSeal("auto", WORKS, agent)).toEqual({ sealed: true });
    expect(decideSeal("auto", BROKEN, agent)).toEqual({
      sealed: false,
      reason: "the sandbox is not available here: bubblewrap (bwrap) is not installed",
      warn: true,
    });
    expect(decideSeal("required", WORKS, agent)).toEqual({ sealed: true });
    expect(decideSeal("required", BROKEN, agent)).toEqual({
      refused: "sandbox: required, but this machine cannot seal: bubblewrap (bwrap) is not installed",
    });
  });

  test("a script without a workspace: auto leaves it unsealed without a warning; required seals it; with a workspace auto seals", () => {
    expect(decideSeal("auto", WORKS, { kind: "script", workspace: false })).toEqual({
      sealed: false,
      reason: "a script without a workspace runs unconfined in the shared folder",
      warn: false,
    });
    expect(decideSeal("required", WORKS, { kind: "script", workspace: false })).toEqual({ sealed: true });
    expect(decideSeal("auto", WORKS, { kind: "script", workspace: true })).toEqual({ sealed: true });
  });

  test("property: sealed only where it works and not off; a refusal only for required where it does not", () => {
    const mode = fc.constantFrom(...SANDBOX_MODES);
    fc.assert(
      fc.property(
        mode,
        fc.boolean(),
        fc.constantFrom("agent", "script") as fc.Arbitrary<"agent" | "script">,
        fc.boolean(),
        (m, works, kind, ws) => {
          const d = decideSeal(m, works ? WORKS : BROKEN, { kind, workspace: ws });
          if ("refused" in d) expect([m, works]).toEqual(["required", false]);
          else if (d.sealed) expect(works && m !== "off").toBe(true);
          else expect(m === "off" || !works || (m === "auto" && kind === "script" && !ws)).toBe(true);
        },
      ),
    );
  });

  test("the node's own setting wins, then defaults, then --sandbox, then auto", () => {
    expect(sandboxModeOf("off", "required", "auto")).toBe("off");
    expect(sandboxModeOf(undefined, "required", "off")).toBe("required");
    expect(sandboxModeOf(undefined, undefined, "off")).toBe("off");
    expect(sandboxModeOf(undefined, undefined, undefined)).toBe("auto");
  });
});

const GRAPH = `
version: 1
name: s
defaults: { workspace: { mode: worktree } }
nodes:
  impl: { kind: agent, prompt: do it }
  shared: { kind: agent, prompt: look, workspace: { mode: shared }, network: false }
  setup: { kind: script, run: "true" }
  sealed_script: { kind: script, run: "true", sandbox: required }
  loose: { kind: agent, prompt: x, sandbox: off, workspace: { mode: shared } }
`;

describe("the plan", () => {
  test("required where sealing does not work is refused before anything starts, naming the node and the reason", () => {
    const x = setup(GRAPH, { options: { sandboxAvailability: BROKEN } });
    const plan = planRun(x.options);
    expect(plan.refusals).toEqual([
      {
        node: "sealed_script",
        harness: "sandbox",
        field: "sandbox",
        message:
          "sandbox: required, but this machine cannot seal: bubblewrap (bwrap) is not installed; install bubblewrap, or set sandbox: auto (or off) for this node",
      },
    ]);
    // The run's one warning lists the nodes auto leaves unsealed because sealing does not work here.
    expect(plan.unsealed.map((u) => u.node)).toEqual(["impl", "shared"]);
  });

  test("--sandbox required makes every node that says nothing required; a run refused by it never starts", async () => {
    const x = setup(GRAPH, { options: { sandbox: "required", sandboxAvailability: BROKEN } });
    expect(planRun(x.options).refusals.map((r) => r.node)).toEqual(["impl", "shared", "setup", "sealed_script"]);
    await expect(run(GRAPH, { options: { sandbox: "required", sandboxAvailability: BROKEN } })).rejects.toBeInstanceOf(RefusalError);
  });
});

describe("what the ports are asked, and what the events record", () => {
  test("a worktree node: its tree and the user's repository; a shared one: its folder, network as set; unsealed ones: nothing", async () => {
    const git = new FakeGit();
    const r = await run(GRAPH, { git, options: { sandboxAvailability: WORKS } });
    const seal = (node: string) => r.agents.assignments.find((a) => a.node === node)?.seal;
    expect(seal("impl")).toEqual({ tree: `${FAKE_ROOT}/.vouch/worktrees/run-test/impl`, repository: FAKE_ROOT, network: true });
    expect(seal("shared")).toEqual({ tree: "/work/project", network: false });
    expect(seal("loose")).toBeUndefined();
    const script = (node: string) => r.commands.scripts.find((s) => s.ctx.node === node)?.ctx.seal;
    expect(script("setup")).toBeUndefined();
    expect(script("sealed_script")).toEqual({ tree: "/work/project", network: true });
    expect([
      finishedOf(r.events, "impl").sealed,
      finishedOf(r.events, "loose").sealed,
      finishedOf(r.events, "loose").unsealed_reason,
    ]).toEqual([true, false, "sandbox: off"]);
    const started = r.events.find((e) => e.type === "node.started" && e.node === "impl");
    expect(started?.type === "node.started" && started.sealed).toBe(true);
  });

  test("a check of a sealed script node is not handed the seal (checks are sealed elsewhere, issue 26 item 3)", async () => {
    const r = await run(
      `version: 1\nname: c\nnodes:\n  s: { kind: script, run: "true", sandbox: required, success: { checks: [{ name: t, run: "true" }] } }\n`,
      { options: { sandboxAvailability: WORKS } },
    );
    expect(r.commands.scripts[0]!.ctx.seal).toBeDefined();
    expect(r.commands.checks[0]!.ctx.seal).toBeUndefined();
  });

  test("no probe given (NOT_PROBED): auto runs unsealed and says why", async () => {
    const r = await run(`version: 1\nname: n\nnodes:\n  a: { kind: agent, prompt: x }\n`);
    expect(r.agents.assignments[0]!.seal).toBeUndefined();
    expect(finishedOf(r.events, "a")).toMatchObject({
      sealed: false,
      unsealed_reason: "the sandbox is not available here: no sandbox probe was run",
    });
  });
});
