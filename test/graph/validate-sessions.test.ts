// Sessions (ADR 0023): `session: { continue | fork: NODE }` and `retry.session:
// continue` are refused at load, with file:line:col, wherever a sitting could
// not continue that session. Each refusal has a passing twin, so a rule that
// reports everything fails here too.
import { describe, expect, test } from "vitest";
import { lines, problems, withNodes } from "./helpers.ts";

const agent = (id: string, extra = "") => `  ${id}:\n    kind: agent\n    prompt: ${id}\n${extra}`;

describe("session: { continue | fork: NODE }", () => {
  test("a node downstream on the same harness and cwd may continue or fork; retry.session: continue is accepted", () => {
    const text = withNodes(
      agent("impl", "    retry: { max: 2, session: continue }\n") +
        agent("fix", "    needs: [impl]\n    session: { continue: impl }\n") +
        agent("alt", "    needs: [fix]\n    session: { fork: impl }\n"),
    );
    expect(lines(text)).toEqual([]);
  });

  test("exactly one of continue and fork", () => {
    expect(lines(withNodes(agent("a") + agent("b", "    needs: [a]\n    session: { continue: a, fork: a }\n")))).toEqual([
      "11:14 session needs exactly one of continue or fork",
    ]);
    expect(lines(withNodes(agent("a") + agent("b", "    needs: [a]\n    session: {}\n")))).toEqual([
      "11:14 session needs exactly one of continue or fork",
    ]);
  });

  test("the named node must exist, be an agent, not be the node itself, and be upstream", () => {
    const text = withNodes(
      agent("a") +
        '  s:\n    kind: script\n    run: "true"\n' +
        agent("b", "    session: { continue: a }\n") +
        agent("c", "    needs: [s]\n    session: { continue: s }\n") +
        agent("d", "    session: { fork: ghost }\n") +
        agent("e", "    session: { continue: e }\n"),
    );
    expect(lines(text)).toEqual([
      '13:26 session.continue: "a" is not upstream of "b", so its session may not exist yet when this node starts',
      '18:26 session.continue: "s" is a script node; only an agent node has a session',
      '22:22 session.fork: unknown node "ghost"',
      "26:26 session.continue names the node itself: a node can only continue the session of a node upstream",
    ]);
  });

  test("another harness or another cwd holds another session", () => {
    const text = withNodes(
      agent("a") +
        agent("b", "    needs: [a]\n    harness: codex\n    session: { continue: a }\n") +
        agent("c", "    needs: [a]\n    cwd: sub\n    session: { fork: a }\n"),
    );
    expect(lines(text)).toEqual([
      '12:26 session.continue: "a" runs on claude and "b" on codex; a session can only be continued by the harness that holds it',
      '18:22 session.fork: "a" works in the base folder and "c" in "sub"; the CLIs keep sessions per folder, so both need the same cwd',
    ]);
  });

  test("gemini cannot fork, command has no sessions; gemini may continue", () => {
    const text = withNodes(
      agent("g", "    harness: gemini\n") +
        agent("g2", "    harness: gemini\n    needs: [g]\n    session: { fork: g }\n") +
        agent("g3", "    harness: gemini\n    needs: [g2]\n    session: { continue: g }\n") +
        agent("k", "    harness: command\n") +
        agent("k2", "    harness: command\n    needs: [k]\n    session: { continue: k }\n"),
    );
    expect(lines(text)).toEqual([
      "13:22 session.fork: gemini cannot fork a session (its CLI has no fork); use session: { continue: NODE } or choose a harness that can (claude, codex)",
      "29:26 session.continue: the command harness runs a program that has no sessions to continue; remove session or choose a harness that can (claude, codex, gemini, acp)",
    ]);
  });

  test("two nodes that may run at once cannot both continue one session; ordered by needs they can", () => {
    const both = withNodes(
      agent("a") +
        agent("x", "    needs: [a]\n    session: { continue: a }\n") +
        agent("y", "    needs: [a]\n    session: { continue: a }\n"),
    );
    const found = problems(both);
    expect(found.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([
      '16:26 session.continue: "x" and "y" both continue "a" and may run at the same time, resuming one session at once',
    ]);
    expect(found[0]!.hint).toContain("session: { fork: a }");
    const ordered = withNodes(
      agent("a") +
        agent("x", "    needs: [a]\n    session: { continue: a }\n") +
        agent("y", "    needs: [x]\n    session: { continue: a }\n"),
    );
    expect(lines(ordered)).toEqual([]);
  });
});

describe("sessions and maps", () => {
  const map = (branch: string, outer = "") =>
    withNodes(
      `${outer}  m:\n    kind: map\n    over: inputs.xs\n${outer ? "    needs: [top]\n" : ""}    branch:\n${branch}`,
      "inputs:\n  xs: { default: [1, 2] }\n",
    );
  const inBranch = (id: string, extra = "") => `      ${id}:\n        kind: agent\n        prompt: ${id}\n${extra}`;

  test("a branch node continues a node of its own branch (each branch its own session)", () => {
    expect(lines(map(inBranch("impl") + inBranch("fix", "        needs: [impl]\n        session: { continue: impl }\n")))).toEqual([]);
  });

  test("a branch node may fork an outer node upstream, not continue it (every branch would resume one session)", () => {
    const outer = agent("top");
    expect(lines(map(inBranch("b", "        session: { fork: top }\n"), outer))).toEqual([]);
    const found = problems(map(inBranch("b", "        session: { continue: top }\n"), outer));
    expect(found.map((p) => `${p.line}:${p.col} ${p.message}`)).toEqual([
      '17:30 session.continue: "top" is an outer node; every branch of map "m" would resume its one session at the same time',
    ]);
    expect(found[0]!.hint).toBe("use session: { fork: top }: each branch then starts its own session from top's history");
  });

  test("an outer node cannot name a branch node's session", () => {
    const text = map(inBranch("inner")) + agent("after", "    needs: [m]\n    session: { continue: inner }\n");
    expect(lines(text)).toEqual([
      '17:26 session.continue: "inner" is inside the branch of map "m"; each branch has its own session, so a node outside that branch cannot name one',
    ]);
  });
});

describe("retry.session: continue", () => {
  test("refused where the harness cannot resume and on a script; inherited from defaults it is named on the node", () => {
    const text = withNodes(
      agent("k", "    harness: command\n    retry: { max: 1, session: continue }\n") +
        '  s:\n    kind: script\n    run: "true"\n    retry: { max: 1, session: continue }\n' +
        agent("g", "    harness: gemini\n    retry: { max: 1, session: continue }\n"),
    );
    expect(lines(text)).toEqual([
      "8:31 retry.session: the command harness runs a program that has no sessions to continue; remove retry.session or choose a harness that can (claude, codex, gemini, acp)",
      "12:31 retry.session: continue is for agent nodes: a script has no session to continue",
    ]);
    const inherited = withNodes(agent("k", "    harness: command\n"), "defaults:\n  retry: { max: 1, session: continue }\n");
    expect(lines(inherited)).toEqual([
      '4:29 node "k" inherits retry.session: the command harness runs a program that has no sessions to continue; remove retry.session or choose a harness that can (claude, codex, gemini, acp)',
    ]);
  });

  test("an unknown retry.session value is a schema error", () => {
    const found = lines(withNodes(agent("a", "    retry: { max: 1, session: resume }\n")));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^7:31 retry.session must be one of fresh or continue, not "resume"$/);
  });
});
