// `vouch graph GRAPH [--format text|mermaid|dot]`: a picture of the graph on stdout.
import { UsageError } from "../engine/errors.ts";
import { drawDot, drawMermaid } from "../engine/graph/draw-diagram.ts";
import { drawText, type SubgraphLookup } from "../engine/graph/draw-text.ts";
import type { GraphFile } from "../engine/graph/schema.ts";
import { parseCommandArgs } from "./args.ts";
import { readGraphFile } from "./graph-file.ts";
import { subgraphLookup } from "./graph-drawing.ts";
import type { Command } from "./io.ts";
import { sanitize } from "../tui/text.ts";

const FORMATS: Record<string, (g: GraphFile, path: string, lookup: SubgraphLookup) => string> = {
  text: drawText,
  mermaid: drawMermaid,
  dot: drawDot,
};

const graphCommand: Command = async (args, io) => {
  const { values, positionals } = parseCommandArgs("graph", args, { format: { type: "string", short: "f" } });
  const format = values.format ?? "text";
  const draw = FORMATS[format];
  if (!draw) throw new UsageError(`graph: unknown format "${format}" (formats: ${Object.keys(FORMATS).join(", ")})`);
  if (positionals.length !== 1)
    throw new UsageError(
      `graph takes one graph file${positionals.length > 1 ? `, not ${positionals.length}` : ""}`,
      "usage: vouch graph GRAPH [--format text|mermaid|dot]",
    );
  const { graph, path, subgraphs } = readGraphFile(positionals[0]!, io.cwd, io.env);
  // Sub-graphs are drawn nested under their graph node (ADR 0024).
  io.out(sanitize(draw(graph, path, subgraphLookup(subgraphs)))); // names from the file may hold control characters
  return 0;
};
export default graphCommand;
