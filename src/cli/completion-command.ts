// `vouch completion bash|zsh|fish`: prints the shell's completion script (ADR 0070).
import { UsageError } from "../engine/errors.ts";
import { didYouMean } from "../engine/graph/did-you-mean.ts";
import { parseCommandArgs } from "./args.ts";
import { SCRIPTS, SHELLS, type Shell } from "./completion/scripts.ts";
import type { Command } from "./io.ts";

const completionCommand: Command = async (args, io) => {
  const { positionals } = parseCommandArgs("completion", args, {});
  const [shell, extra] = positionals;
  if (shell === undefined) throw new UsageError("completion needs a shell: bash, zsh or fish", "e.g. source <(vouch completion bash)");
  if (extra !== undefined) throw new UsageError(`completion takes one shell, not "${extra}" too`, "usage: vouch completion bash|zsh|fish");
  if (!(SHELLS as readonly string[]).includes(shell))
    throw new UsageError(`completion: no script for the shell "${shell}"${didYouMean(shell, SHELLS)}; the shells: ${SHELLS.join(", ")}`);
  io.out(SCRIPTS[shell as Shell]);
  return 0;
};
export default completionCommand;
