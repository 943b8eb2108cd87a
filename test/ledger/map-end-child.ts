// Run by map-end-memory.test.ts in a process of its own: a 100,000-item map's node.finished
// through the real ledger and the NDJSON output (written, as to a pipe, to /dev/null); prints
// the peak resident set (VmHWM, KiB) once the event's text is made and after the write.
import { fullGC } from "bun:jsc";
import { openSync, readFileSync, writeSync } from "node:fs";
import { syncWriter } from "../../src/cli/stdout-writer.ts";
import { eventJson } from "../../src/engine/events.ts";
import { openLedger } from "../../src/ledger/index.ts";
import { createNdjsonOutput } from "../../src/tui/ndjson-output.ts";
import { mapEndRun } from "./events-fixture.ts";
import { tempHome } from "./temp-home.ts";

const N = Number(process.argv[2] ?? 100_000);
const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]);
const { script: s, finished } = mapEndRun("r-map-end-0001", N);
const home = tempHome();
const ledger = openLedger({ home: home.home });
const fd = openSync("/dev/null", "w");
const write = syncWriter({ write: (b, o, l) => writeSync(fd, b, o, l), wait: () => {}, closed: () => {}, fallback: () => {} });
const out = createNdjsonOutput(write);
const sink = ledger.sink((e) => out.push(e), { forwardBatch: (es) => out.pushMany!(es) });
for (const e of s.events.slice(0, -1)) sink.append(e);
sink.flush();
fullGC();
eventJson(finished); // the text --json prints and the ledger stores, made first
const before = hwm();
sink.append(finished);
sink.flush();
const after = hwm();
ledger.close();
home.cleanup();
console.log(JSON.stringify({ before, after }));
