// A model's answer to the planner → the plan vouch writes: the YAML taken out of
// any fence, `origin: planned` set whatever the model wrote (a model cannot make
// its graph user-written), and `checks_from` naming the user's library by a path
// relative to the plan file. Pure; validation reads the library through a port.
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { isMap, isScalar, parseDocument } from "yaml";
import type { GraphProblem } from "../../engine/errors.ts";
import type { ChecksReader } from "../../engine/graph/checks-library.ts";
import { loadGraph, type LoadResult } from "../../engine/graph/loader.ts";

/** The first ```yaml (or bare ```) fenced block, else the whole answer. */
export function yamlOfAnswer(answer: string): string {
  const fenced = /```[ \t]*(?:ya?ml)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```/i.exec(answer);
  return `${(fenced ? fenced[1]! : answer).trim()}\n`;
}

/** checks_from entry for the library, seen from the plan file's folder. */
export function libraryEntry(planFile: string, checksFile: string): string {
  const rel = relative(dirname(planFile), checksFile);
  if (isAbsolute(rel)) return rel;
  return rel.startsWith("..") ? rel : `./${rel}`;
}

/** The plan's text. A document that is not a YAML mapping is left as the model
 *  wrote it: it does not validate, and the problems say why. */
export function planText(answer: string, checksFrom: string[]): string {
  const text = yamlOfAnswer(answer);
  const doc = parseDocument(text, { uniqueKeys: false, logLevel: "silent" });
  if (doc.errors.length > 0 || !isMap(doc.contents)) return text;
  const map = doc.contents;
  map.delete("origin");
  map.delete("checks_from");
  // Right after name: (where a reader looks first), whatever the model wrote there.
  const at = map.items.findIndex((p) => isScalar(p.key) && p.key.value === "name") + 1;
  map.items.splice(at, 0, doc.createPair("origin", "planned"), doc.createPair("checks_from", doc.createNode(checksFrom, { flow: true })));
  return doc.toString({ lineWidth: 0 });
}

export interface CheckedPlan {
  text: string;
  loaded: LoadResult;
}

/** The plan's text and what loading it as the (absolute) file `planFile` gives.
 *  Problems name the plan by its base name: they are quoted back to the model. */
export function checkAnswer(answer: string, planFile: string, checksFiles: string[], readChecks: ChecksReader): CheckedPlan {
  const text = planText(
    answer,
    checksFiles.map((f) => libraryEntry(planFile, f)),
  );
  const reader: ChecksReader = (p) => readChecks(isAbsolute(p) ? p : join(dirname(planFile), p));
  return { text, loaded: loadGraph(basename(planFile), text, { readChecks: reader }) };
}

export function problemsOf(loaded: LoadResult): GraphProblem[] {
  return loaded.graph ? [] : loaded.problems;
}
