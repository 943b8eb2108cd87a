// The fleet key (ADR 0045): a secret the coordinator and every worker hold, so that a
// job, an event or a result is taken only when it was made by one of them. Anyone who
// can write to the executor's store (Redis) can write a job; without the key they
// cannot write one a worker runs, nor a result the coordinator records.
//
// HMAC-SHA-256 over a purpose and the message's parts, each part length-prefixed (no
// two different messages share an input), compared in constant time. The key comes
// from the environment (VOUCH_FLEET_KEY) or a file (--fleet-key-file,
// VOUCH_FLEET_KEY_FILE): never from the command line, where `ps` shows it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { UsageError } from "../engine/errors.ts";

/** What an HMAC is taken for: a key's MAC for one purpose is no MAC for another. */
export type MacPurpose = "job" | "message";

/** Shorter keys are refused: 32 characters of `openssl rand -hex 32` is 128 bits. */
export const MIN_KEY_LENGTH = 32;
const HINT =
  "give every coordinator and worker the same key: export VOUCH_FLEET_KEY=$(openssl rand -hex 32), or put it in a file and pass --fleet-key-file FILE (docs/scale-out.md)";

export class FleetKey {
  private constructor(private readonly secret: Buffer) {}

  /** @param where what to name in a message when the key is too short */
  static of(text: string, where: string): FleetKey {
    const key = text.trim();
    if (key.length < MIN_KEY_LENGTH)
      throw new UsageError(`${where}: the fleet key has ${key.length} characters; it needs at least ${MIN_KEY_LENGTH}`, HINT);
    return new FleetKey(Buffer.from(key, "utf8"));
  }

  /** The MAC of `parts` for `purpose`, as 64 hex digits. */
  mac(purpose: MacPurpose, ...parts: string[]): string {
    const h = createHmac("sha256", this.secret);
    h.update(`vouch-fleet/1 ${purpose}\n`);
    for (const p of parts) {
      const bytes = Buffer.from(p, "utf8");
      h.update(`${bytes.length}:`);
      h.update(bytes);
    }
    return h.digest("hex");
  }

  /** Whether `mac` is the MAC of `parts`: constant time, whatever `mac` holds. */
  verify(mac: unknown, purpose: MacPurpose, ...parts: string[]): boolean {
    if (typeof mac !== "string" || !/^[0-9a-f]{64}$/.test(mac)) return false;
    return timingSafeEqual(Buffer.from(mac, "hex"), Buffer.from(this.mac(purpose, ...parts), "hex"));
  }
}

/** The variables a branch's commands must never see (they name vouch's own secrets). */
export const FLEET_SECRET_VARS: readonly string[] = [
  "VOUCH_FLEET_KEY",
  "VOUCH_FLEET_KEY_FILE",
  "VOUCH_REDIS_PASSWORD",
  "VOUCH_REDIS_PASSWORD_FILE",
];

/** A secret from the environment or a file it names; the flag's file wins. Undefined when none is given. */
export function secretFrom(
  env: Record<string, string | undefined>,
  name: string,
  cwd: string,
  fileFlag?: { flag: string; path: string | undefined },
): { text: string; where: string } | undefined {
  const file = fileFlag?.path ?? nonEmpty(env[`${name}_FILE`]);
  if (file !== undefined) {
    const where = fileFlag?.path !== undefined ? `${fileFlag.flag} ${file}` : `${name}_FILE=${file}`;
    let text: string;
    try {
      text = readFileSync(resolve(cwd, file), "utf8");
    } catch (e) {
      throw new UsageError(`${where}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    if (text.trim() === "") throw new UsageError(`${where}: the file is empty`);
    return { text: text.trim(), where };
  }
  const value = nonEmpty(env[name]);
  return value === undefined ? undefined : { text: value, where: name };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === "" ? undefined : v;
}

/** The fleet key, or a UsageError saying how to give one: a fleet never runs unauthenticated. */
export function fleetKeyFrom(env: Record<string, string | undefined>, cwd: string, file: string | undefined, who: string): FleetKey {
  const got = secretFrom(env, "VOUCH_FLEET_KEY", cwd, { flag: "--fleet-key-file", path: file });
  if (got === undefined)
    throw new UsageError(`${who} needs a fleet key: none was given (VOUCH_FLEET_KEY, VOUCH_FLEET_KEY_FILE or --fleet-key-file)`, HINT);
  return FleetKey.of(got.text, got.where);
}
