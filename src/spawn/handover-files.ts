// The data a check or script is handed (docs/architecture.md §7): the run state, and in a
// map branch the item, as JSON files in a private temporary directory (mode
// 0700, files 0600) named by VOUCH_STATE_FILE, VOUCH_ITEM_FILE and (for a check)
// VOUCH_OUTPUT_FILE, and each run input as a file of its own named by
// VOUCH_INPUT_<NAME>_FILE (small ones also as VOUCH_INPUT_<NAME>, input-env.ts)
// — never on the command line. The directory is removed when the command has finished.
import { mkdtempSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CommandInput } from "../engine/ports.ts";
import { inputEnv } from "./input-env.ts";

export interface Handover {
  /** VOUCH_STATE_FILE, VOUCH_ITEM_FILE when there is an item, VOUCH_OUTPUT_FILE when there
   *  is an output, VOUCH_INPUT_<NAME>_FILE (and, when small, VOUCH_INPUT_<NAME>) per input. */
  vars: Record<string, string>;
  /** The state JSON (a script also gets it on stdin). */
  stateJson: string;
  dir: string;
  remove(): Promise<void>;
}

/** Who owns the folder until it is removed (the session's ProcessSupervisor): whatever
 *  path ends vouch (a second Ctrl-C, process.exit, an uncaught error), none is left in TMPDIR. */
export interface FolderOwner {
  trackFolder(dir: string): () => Promise<void>;
}

export interface HandoverData {
  state: unknown;
  item?: unknown;
  /** For a check: the node's own output. */
  output?: unknown;
  inputs?: readonly CommandInput[];
}

export async function writeHandover(owner: FolderOwner, data: HandoverData, tmpRoot: string = tmpdir()): Promise<Handover> {
  const { state, item, output, inputs = [] } = data;
  // Made and handed to its owner with no await in between: a process.exit in such a
  // gap (a second Ctrl-C) would find a folder on disk that nobody knows to remove.
  const dir = mkdtempSync(join(tmpRoot, "vouch-"));
  const remove = owner.trackFolder(dir);
  try {
    await chmod(dir, 0o700);
    const stateJson = JSON.stringify(state ?? null);
    const stateFile = join(dir, "state.json");
    await writeFile(stateFile, stateJson, { mode: 0o600 });
    const vars: Record<string, string> = { VOUCH_STATE_FILE: stateFile };
    if (item !== undefined) {
      const itemFile = join(dir, "item.json");
      await writeFile(itemFile, JSON.stringify(item), { mode: 0o600 });
      vars.VOUCH_ITEM_FILE = itemFile;
    }
    if (output !== undefined) {
      // A check sees the node's own output, to test the model's claims against the files.
      const outputFile = join(dir, "output.json");
      await writeFile(outputFile, JSON.stringify(output), { mode: 0o600 });
      vars.VOUCH_OUTPUT_FILE = outputFile;
    }
    if (inputs.length > 0) {
      // One file per input (the stems are unique: validation refuses two names that upper-case alike).
      const inputDir = join(dir, "inputs");
      await mkdir(inputDir, { mode: 0o700 });
      await Promise.all(inputs.map(({ stem, text }) => writeFile(join(inputDir, stem), text, { mode: 0o600 })));
      Object.assign(vars, inputEnv(inputs, (stem) => join(inputDir, stem)));
    }
    return { vars, stateJson, dir, remove };
  } catch (e) {
    await remove();
    throw e;
  }
}
