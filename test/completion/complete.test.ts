// What completion offers where the cursor is (complete.ts), with the run and
// node ids from a fake source; the real shells and the real ledger are in
// shells.test.ts.
import { describe, expect, test } from "vitest";
import { complete, type Completion, type CompletionSources } from "../../src/cli/completion/complete.ts";
import { answer } from "../../src/cli/complete-command.ts";

const asked: string[] = [];
const sources: CompletionSources = {
  runs: () => [
    { value: "20261201-120000-aaaaaa", description: "g · passed" },
    { value: "20261130-090000-bbbbbb", description: "g · failed" },
    { value: "bad id", description: "a value with a space is never offered" },
  ],
  nodes: (run, which) => {
    asked.push(`${run}:${which}`);
    return which === "approval"
      ? [{ value: "ship" }, { value: "review/approve" }]
      : which === "worktree"
        ? [{ value: "implement" }, { value: "implement_each[0].implement" }]
        : [{ value: "plan" }];
  },
};

const values = (c: Completion) => (c.kind === "words" ? c.words.map((w) => w.value) : c.kind);
const at = (...typed: string[]) => values(complete(typed, sources));

describe("commands and options", () => {
  test("the commands, by prefix", () => {
    expect(at("ru")).toEqual(["run", "runs"]);
    expect(at("")).toContain("init");
    expect(at("")).toContain("completion");
    expect(at("")).not.toContain("__complete");
    expect(at("-")).toEqual(["--help", "--version"]);
    expect(at("help", "re")).toEqual(["reject", "report", "resume"]);
    expect(at("nosuch", "")).toBe("none");
  });

  test("a command's options, with their descriptions", () => {
    expect(at("run", "--dr")).toEqual(["--dry-run"]);
    expect(at("init", "--")).toEqual(["--yes", "--harness", "--dry-run", "--no-run-checks", "--help"]);
    const c = complete(["show", "last", "--d"], sources);
    expect(c).toEqual({ kind: "words", words: [{ value: "--diff", description: expect.stringContaining("print the patch") }] });
    expect(at("run", "--harness=cl")).toBe("none");
  });

  test("option values: choices, harnesses, files, folders, nothing", () => {
    expect(at("graph", "g.yaml", "--format", "")).toEqual(["text", "mermaid", "dot"]);
    expect(at("report", "last", "--format", "j")).toEqual(["junit"]);
    expect(at("run", "g.yaml", "--harness", "")).toEqual(["claude", "codex", "gemini", "acp", "replay", "command"]);
    expect(at("init", "--harness", "co")).toEqual(["codex", "command"]);
    expect(at("report", "last", "-o", "")).toBe("files");
    expect(at("run", "g.yaml", "--replay-dir", "")).toBe("dirs");
    expect(at("run", "g.yaml", "--budget", "")).toBe("none");
    expect(at("run", "g.yaml", "-i", "")).toBe("none");
  });
});

describe("positionals", () => {
  test("graph files where a GRAPH goes, again and again for validate", () => {
    expect(at("run", "")).toBe("yaml");
    expect(at("run", "--json", "")).toBe("yaml");
    expect(at("run", "g.yaml", "")).toBe("none");
    expect(at("validate", "a.yaml", "b.yaml", "")).toBe("yaml");
    expect(at("checks", "")).toBe("yaml");
  });

  test("an option's value is not a positional: --harness claude then GRAPH", () => {
    expect(at("run", "--harness", "claude", "")).toBe("yaml");
    expect(at("run", "--harness=claude", "")).toBe("yaml");
    expect(at("run", "-i", "x=1", "--json", "")).toBe("yaml");
  });

  test("run ids where a RUN goes (last first); plain words only", () => {
    expect(at("show", "")).toEqual(["last", "20261201-120000-aaaaaa", "20261130-090000-bbbbbb"]);
    expect(at("report", "2026113")).toEqual(["20261130-090000-bbbbbb"]);
    expect(at("show", "last", "")).toBe("none");
  });

  test("literal words and choices: export k8s|otlp, completion SHELL", () => {
    expect(at("export", "")).toEqual(["k8s", "otlp"]);
    expect(at("completion", "")).toEqual(["bash", "zsh", "fish"]);
    expect(at("completion", "z")).toEqual(["zsh"]);
  });
});

describe("node ids of the run on the line", () => {
  test("--approve and --reject: the run's approval nodes; --diff: its worktree nodes; --transcript: agents", () => {
    asked.length = 0;
    expect(at("resume", "2026", "--approve", "")).toEqual(["ship", "review/approve"]);
    expect(at("resume", "last", "--reject", "r")).toEqual(["review/approve"]);
    expect(at("show", "last", "--diff", "implement_")).toEqual(["implement_each[0].implement"]);
    expect(at("show", "last", "--transcript", "")).toEqual(["plan"]);
    expect(asked).toEqual(["2026:approval", "last:approval", "last:worktree", "last:agent"]);
  });

  test("no run on the line yet: nothing is asked", () => {
    asked.length = 0;
    expect(at("show", "--diff", "")).toBe("none");
    expect(asked).toEqual([]);
  });
});

describe("the answer on the wire", () => {
  test("the kind, then value<TAB>description lines without tabs or newlines inside", () => {
    expect(answer({ kind: "yaml" })).toBe("yaml\n");
    expect(answer({ kind: "words", words: [{ value: "a", description: "x\ty\nz\u001b[31m" }, { value: "b" }] })).toBe(
      "words\na\tx  y z\nb\n",
    );
  });
});
