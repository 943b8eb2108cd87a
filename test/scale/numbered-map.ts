// A graph whose script lists 1..count and whose map runs `branch` once per number: the shape the
// fleet's tests and benches share (test/scale/fleet-round-trips, measure-fleet-commands, bench/scale-out).

/** @param branch the branch's nodes as YAML lines, each already indented by six spaces */
export function numberedMapGraph(name: string, count: number, branch: string): string {
  return `version: 1
name: ${name}
nodes:
  items: { kind: script, run: "seq 1 ${count} | paste -sd, | sed 's/.*/[&]/'", output: { format: json } }
  each:
    kind: map
    needs: [items]
    over: nodes.items.output
    branch:
${branch}
`;
}
