// `vouch mcp serve`: placeholder replaced below.
import { UsageError } from "../engine/errors.ts";
import type { Command } from "./io.ts";

const mcpCommand: Command = async () => {
  throw new UsageError("not yet");
};
export default mcpCommand;
