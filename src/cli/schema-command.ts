// `vouch schema`: the JSON Schema of graph files, generated from the zod schema.
import { graphJsonSchema } from "../engine/graph/schema.ts";
import { parseCommandArgs } from "./args.ts";
import { UsageError } from "../engine/errors.ts";
import type { Command } from "./io.ts";

const schemaCommand: Command = async (args, io) => {
  const { positionals } = parseCommandArgs("schema", args, {});
  if (positionals.length > 0) throw new UsageError(`schema takes no arguments (got "${positionals[0]}")`);
  io.out(`${JSON.stringify(graphJsonSchema(), null, 2)}\n`);
  return 0;
};
export default schemaCommand;
