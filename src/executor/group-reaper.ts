// A worker's branch processes die with it (ADR 0046). Each process a branch starts
// leads its own process group, which the worker's supervisor kills on every exit the
// worker sees — but not on kill -9 or the OOM killer: then its groups were reparented
// to init and ran on while another worker ran the same branch again.
//
// The reaper is one small `sh` beside the worker, in a group of its own, ignoring the
// terminal's signals. The worker tells it each group as it starts ("+PGID") and ends
// ("-PGID") through a pipe; when the pipe closes — the worker's exit, however it came,
// since the kernel closes a dead process's files — it SIGKILLs every group still
// listed, and every process left in those groups' sessions (a descendant that moved to
// a group of its own: GNU `timeout`, job control), then ends.
//
// Measured before choosing (docs/adr/0046): `setpriv --pdeathsig KILL` around a command
// kills only that command, not its children — a `sh -c 'sleep 300; ...'` dies and its
// `sleep` is reparented to init and lives on — and a child subreaper is only a
// subreaper while it lives. A pid namespace (the sandbox's) would do it all; it needs
// user namespaces, which this must not.
import { startCompanion, type Companion } from "../spawn/process.ts";
import type { ProcessSupervisor } from "../spawn/process-registry.ts";

/** POSIX sh with no command forked per line (a `sed` per group cost each branch ~3 ms of a
 *  2-core machine, measured with bench/scale-out.ts); dash's `kill` takes no `--`, so
 *  `kill -9 -PGID`; `pkill -s` where procps has it. */
export const REAPER_SCRIPT = `trap '' INT TERM HUP QUIT PIPE
live=" "
while IFS= read -r line; do
  case "$line" in
    +*) live="$live\${line#+} " ;;
    -*) g=\${line#-}; case "$live" in *" $g "*) live="\${live%% $g *} \${live#* $g }" ;; esac ;;
  esac
done
for g in $live; do
  kill -9 "-$g" 2>/dev/null
  command -v pkill >/dev/null 2>&1 && pkill -9 -s "$g" 2>/dev/null
done
exit 0
`;

export interface GroupReaper {
  readonly pid: number;
  /** The worker stops on its own: every group has ended; the reaper ends with nothing to kill. */
  stop(): void;
}

/** Starts the reaper and has `supervisor` tell it of every group; null when `sh` could not start. */
export function startGroupReaper(supervisor: ProcessSupervisor, env: Record<string, string>): GroupReaper | null {
  const reaper: Companion | null = startCompanion(["sh", "-c", REAPER_SCRIPT], env);
  if (!reaper) return null;
  supervisor.observe({
    added: (pgid) => void reaper.write(`+${pgid}\n`),
    removed: (pgid) => void reaper.write(`-${pgid}\n`),
  });
  return {
    pid: reaper.pid,
    stop: () => {
      supervisor.observe(null);
      reaper.close();
    },
  };
}
