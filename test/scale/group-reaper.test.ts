// The worker's group reaper (ADR 0046) with real processes: told of groups through its
// stdin, it kills the ones still listed when the pipe closes, and no other — a group that
// ended (and whose id the kernel may give to someone else) is not signalled.
import { expect, test } from "vitest";
import { REAPER_SCRIPT } from "../../src/executor/group-reaper.ts";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test("on the pipe's close it SIGKILLs the listed groups, their children too, and leaves an unlisted one alone", async () => {
  // Two groups of our own: a shell with a child each.
  const kept = Bun.spawn(["sh", "-c", "sleep 77.1234 & wait"], { detached: true, stdout: "ignore" });
  const gone = Bun.spawn(["sh", "-c", "sleep 77.1235 & wait"], { detached: true, stdout: "ignore" });
  const reaper = Bun.spawn(["sh", "-c", REAPER_SCRIPT], { stdin: "pipe", stdout: "ignore", stderr: "pipe" });
  try {
    reaper.stdin.write(`+${gone.pid}\n+${kept.pid}\n-${kept.pid}\n-424242\n`);
    await reaper.stdin.end();
    expect(await reaper.exited).toBe(0);
    expect(await gone.exited).not.toBe(0);
    expect(gone.signalCode).toBe("SIGKILL");
    expect(alive(kept.pid)).toBe(true);
    // The killed group's child went with it (bounded wait for the kill to land).
    const pgrep = () => Bun.spawnSync(["pgrep", "-f", "sleep 77.1235"]).stdout.toString().trim();
    for (let i = 0; i < 100 && pgrep() !== ""; i++) await Bun.sleep(20);
    expect(pgrep()).toBe("");
    expect(await new Response(reaper.stderr).text()).toBe("");
  } finally {
    process.kill(-kept.pid, "SIGKILL");
    await kept.exited;
  }
});
