// The validator's list of unguarded permission modes (refused in planned graphs)
// must name the real "switch every prompt off" mode of each harness that has one.
import { expect, test } from "vitest";
import { UNGUARDED_MODES } from "../../src/engine/graph/validate-commands.ts";
import { CLAUDE_PERMISSION_MODES } from "../../src/spawn/harness/claude/adapter.ts";
import { CODEX_SANDBOX_MODES } from "../../src/spawn/harness/codex/adapter.ts";
import { GEMINI_APPROVAL_MODES } from "../../src/spawn/harness/gemini/adapter.ts";
import { ACP_PERMISSION_MODES } from "../../src/spawn/harness/acp/permissions.ts";

test("every unguarded mode is a real mode of some harness, and each harness's unguarded mode is listed", () => {
  const all: readonly string[] = [...CLAUDE_PERMISSION_MODES, ...CODEX_SANDBOX_MODES, ...GEMINI_APPROVAL_MODES, ...ACP_PERMISSION_MODES];
  for (const m of UNGUARDED_MODES) expect(all).toContain(m);
  expect(UNGUARDED_MODES).toEqual(expect.arrayContaining(["bypassPermissions", "danger-full-access", "yolo", "allow-all"]));
});
