// One node label: printed the same way by every reader, read back from it and from
// every spelling vouch printed before (`map#i/node`, `node [map #i]`, `node (map #i)`,
// `map #i node`), so `vouch show --diff` and `--transcript` take the same ones.
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { nodesNamed } from "../../src/cli/node-arg.ts";
import { nodeKey } from "../../src/engine/events.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { branchPath, namesNode, nodePath, parseNodePath } from "../../src/read/node-path.ts";
import { RunScript } from "../ledger/events-fixture.ts";
import { tempHome } from "../ledger/temp-home.ts";

const name = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_-]{0,8}$/);
const node = fc.array(name, { minLength: 1, maxLength: 3 }).map((parts) => parts.join("/")); // a sub-graph's node: review/lint
const branch = fc.option(fc.record({ map: name, index: fc.nat({ max: 99_999 }) }), { nil: undefined });

describe("the node label", () => {
  test("top level: the id; in a branch: map[index].node", () => {
    expect(nodePath("verify")).toBe("verify");
    expect(nodePath("verify", { map: "each", index: 3 })).toBe("each[3].verify");
    expect(nodePath("review/lint", { map: "each", index: 0 })).toBe("each[0].review/lint");
    expect(branchPath("each", 3)).toBe("each[3]");
  });

  test("every spelling reads back to the same node, for any ids", () => {
    fc.assert(
      fc.property(node, branch, (n, b) => {
        const want = b ? { node: n, branch: b } : { node: n };
        expect(parseNodePath(nodePath(n, b))).toEqual(want);
        expect(parseNodePath(nodeKey(n, b))).toEqual(want);
        if (b) {
          for (const old of [`${n} [${b.map} #${b.index}]`, `${n} (${b.map} #${b.index})`, `${b.map} #${b.index} ${n}`])
            expect([old, parseNodePath(old)]).toEqual([old, want]);
        }
      }),
    );
  });

  test("what is no label is refused, not guessed", () => {
    for (const bad of ["", "each[x].v", "each[1]", "each[1].", "a b", "__proto__[1].x.y", "-rf", "each#1", "[1].x"])
      expect([bad, parseNodePath(bad)]).toEqual([bad, null]);
  });

  test("a bare id names the node in every branch; a label names one", () => {
    const ref = parseNodePath("verify")!;
    expect(namesNode(ref, "verify")).toBe(true);
    expect(namesNode(ref, "verify", { map: "each", index: 2 })).toBe(true);
    const one = parseNodePath("each[2].verify")!;
    expect(namesNode(one, "verify", { map: "each", index: 2 })).toBe(true);
    expect(namesNode(one, "verify", { map: "each", index: 1 })).toBe(false);
    expect(namesNode(one, "verify")).toBe(false);
  });
});

describe("a command's NODE argument against a recorded run", () => {
  test("finds the node by its label or an older spelling; a bare branch node id finds it in every branch", () => {
    const t = tempHome();
    const ledger = openLedger({ home: t.home });
    try {
      const r = new RunScript("r-path-0001");
      r.started();
      for (const index of [0, 1]) {
        const b = { map: "each", index };
        r.ev("branch.started", { branch: b, item: index, label: `#${index}` });
        r.nodeStarted({ node: "verify", branch: b }, "agent");
        r.finished({ node: "verify", branch: b }, "passed");
      }
      ledger.write(r.events);
      const s = ledger.runSummary(r.run);
      const paths = (arg: string) => nodesNamed(s, arg).map((n) => n.path);
      for (const arg of ["each[1].verify", "each#1/verify", "verify [each #1]"])
        expect([arg, paths(arg)]).toEqual([arg, ["each[1].verify"]]);
      expect(paths("verify")).toEqual(["each[0].verify", "each[1].verify"]);
      expect(paths("build")).toEqual(["build"]);
      expect(paths("nope")).toEqual([]);
      expect(() => paths("each[1]")).toThrow(/not a node label/);
    } finally {
      ledger.close();
      t.cleanup();
    }
  });
});
