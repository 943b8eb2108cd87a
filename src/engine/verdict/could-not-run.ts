// One rule for "the work could not run" (ADR 0002, amended for issue 12):
// a command the shell vouch started could not find or could not execute ends
// with the shell's own status (POSIX: 127 not found, 126 not executable). That
// is no evidence either way — an error, never a failed verdict — for a check
// and a script alike. (A spawn that fails outright, ENOENT/EACCES on an argv
// program or an agent CLI, never yields an exit status: the spawn seam reports
// it as `spawn_failed`, judged error in judgeStop.) Pure.

/** Why a shell-run command did not run, from the shell's exit status; null when it ran. */
export function shellCouldNotRun(exit: number | null): "command not found" | "command not executable" | null {
  if (exit === 127) return "command not found";
  if (exit === 126) return "command not executable";
  return null;
}

/** "exit 127 (command not found)", or plain "exit N" for a status that says nothing more. */
export function describeExit(exit: number | null): string {
  const why = shellCouldNotRun(exit);
  return why === null ? `exit ${exit}` : `exit ${exit} (${why})`;
}
