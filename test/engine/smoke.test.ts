import { describe, expect, test } from "vitest";
import { run, finishedOf, runFinished } from "./helpers/run-helper.ts";

describe("smoke", () => {
  test("one agent node passes exit-only", async () => {
    const r = await run(`
version: 1
name: t
nodes:
  a: { kind: agent, prompt: "hello" }
`);
    expect(r.outcome.status).toBe("passed");
    expect(finishedOf(r.events, "a").qualifier).toBe("exit-only");
    expect(runFinished(r.events).exit_code).toBe(0);
  });
});
