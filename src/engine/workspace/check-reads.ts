// What a sealed check reads from the base and what from the attempt's commit
// (ADR 0043). A check runs on a tree vouch builds from the commit it recorded,
// with some paths taken from the base instead: the node's protected paths, the
// graph's own files, every script the check's command runs (`./scripts/test`,
// `sh test/has.sh`, `make -f ci.mk`; not the data it reads: `test -f out.txt`
// reads the work's out.txt), the files the runners it calls read by
// convention (`npm test` → package.json and the test runner's config; `make` →
// the Makefile; `pytest` → every conftest.py and pytest's config), and the
// check's `from_base` globs. `from_result` keeps a named or conventional path
// from the commit (never a protected one, never a `from_base` one). Pure.
import { compileGlob, matching, type CompiledGlob } from "./glob.ts";

/** Files a runner reads by convention, relative to where the check runs; "**\/…" anywhere in the repository. */
const JS = [
  "package.json",
  "vitest.config.*",
  "vitest.workspace.*",
  "vite.config.*",
  "jest.config.*",
  "playwright.config.*",
  ".mocharc*",
  "bunfig.toml",
];
const PY = ["**/conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "noxfile.py"];
const MAKE = ["Makefile", "makefile", "GNUmakefile"];
export const RUNNER_READS: Readonly<Record<string, readonly string[]>> = {
  npm: JS,
  npx: JS,
  yarn: JS,
  pnpm: JS,
  bun: JS,
  vitest: JS,
  jest: JS,
  mocha: JS,
  playwright: JS,
  pytest: PY,
  "py.test": PY,
  tox: PY,
  nox: PY,
  make: MAKE,
  gmake: MAKE,
  just: ["justfile", "Justfile", ".justfile"],
  rake: ["Rakefile"],
};

const OPERATORS = new Set([";", "&", "|", "(", ")", "<", ">", "\n"]);
/** Words after which the next word starts a command. */
const KEYWORDS = new Set(["then", "do", "else", "elif", "if", "while", "until", "!", "{", "}"]);
/** Programs that run the script their first operand names. */
const INTERPRETERS = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "python",
  "python3",
  "node",
  "bun",
  "deno",
  "ruby",
  "perl",
  "php",
  "tsx",
  "ts-node",
  "source",
  ".",
]);
/** Words that run the command after them (`env A=1 ./x`, `timeout 60 ./x`). */
const WRAPPERS = new Set(["env", "exec", "command", "time", "nice", "nohup"]);

/** One word of a command: its text (quotes removed), whether it starts a simple command, and
 *  whether it holds an expansion (`$`, a backquote, a glob, a leading `~`) whose value is known
 *  only when it runs. */
export interface Word {
  text: string;
  starts: boolean;
  dynamic: boolean;
}

/** The words of a shell command as the shell would split them. Not a shell: enough to find
 *  the scripts a command runs. */
export function commandWords(run: string): Word[] {
  const words: Word[] = [];
  let word = "";
  let open = false;
  let dynamic = false;
  let starts = true;
  // The word after < or > is a file the shell opens, not a command (and >& is no &).
  let redirect = false;
  const end = (operator: boolean) => {
    if (open && redirect) words.push({ text: word, starts: false, dynamic });
    else if (open) {
      words.push({ text: word, starts, dynamic });
      starts = KEYWORDS.has(word) && !dynamic;
    }
    if (open) redirect = false;
    if (operator) starts = true;
    word = "";
    open = false;
    dynamic = false;
  };
  for (let i = 0; i < run.length; i++) {
    const ch = run[i]!;
    if (ch === "\\" && i + 1 < run.length) {
      word += run[++i];
      open = true;
    } else if (ch === "'") {
      const close = run.indexOf("'", i + 1);
      word += run.slice(i + 1, close < 0 ? run.length : close);
      open = true;
      i = close < 0 ? run.length : close;
    } else if (ch === '"') {
      let j = i + 1;
      for (; j < run.length && run[j] !== '"'; j++) {
        if (run[j] === "\\" && j + 1 < run.length) word += run[++j];
        else {
          if (run[j] === "$" || run[j] === "`") dynamic = true;
          word += run[j];
        }
      }
      open = true;
      i = j;
    } else if (ch === "<" || ch === ">") {
      end(false);
      redirect = true;
    } else if (ch === "&" && redirect && !open) continue;
    else if (OPERATORS.has(ch)) end(true);
    else if (/\s/.test(ch)) end(false);
    else if (ch === "#" && !open) {
      const nl = run.indexOf("\n", i);
      i = (nl < 0 ? run.length : nl) - 1;
    } else {
      if ("$`*?[".includes(ch) || (ch === "~" && !open)) dynamic = true;
      word += ch;
      open = true;
    }
  }
  end(false);
  return words;
}

/** `a/./b/../c` → `a/c`; null when it climbs above the repository root or is absolute. */
function normal(prefix: string, word: string): string | null {
  if (word.startsWith("/")) return null;
  const out: string[] = [];
  for (const seg of `${prefix}${word}`.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(seg);
  }
  return out.length === 0 ? null : out.join("/");
}

/** The simple commands of a command line, each its words, assignments and wrappers dropped. */
function simpleCommands(words: Word[]): Word[][] {
  const out: Word[][] = [];
  for (const w of words) {
    if (w.starts || out.length === 0) out.push([]);
    out.at(-1)!.push(w);
  }
  return out.map((cmd) => {
    let i = 0;
    for (; i < cmd.length; i++) {
      const t = cmd[i]!.text;
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(t) || WRAPPERS.has(t)) continue;
      if (t === "timeout" && i + 1 < cmd.length) {
        i++;
        continue;
      }
      break;
    }
    return cmd.slice(i);
  });
}

/** The file an interpreter runs: its first operand (`python -m x`, `sh -c '...'` run none). */
function scriptOperand(cmd: Word[]): Word | undefined {
  const prog = cmd[0]!.text.split("/").pop()!;
  const rest =
    prog === "deno" && cmd[1]?.text === "run" ? cmd.slice(2) : prog === "bun" && cmd[1]?.text === "run" ? cmd.slice(2) : cmd.slice(1);
  for (const w of rest) {
    if (w.text === "-m" || w.text === "-c" || w.text === "-e" || w.text === "--eval") return undefined;
    if (!w.text.startsWith("-")) return w;
  }
  return undefined;
}

/** What a command runs: the scripts (repository paths: the trees decide whether they are files)
 *  and the globs of the files its runners read by convention. */
export function commandReads(run: string, prefix: string): { paths: string[]; globs: string[] } {
  const paths = new Set<string>();
  const globs = new Set<string>();
  const add = (w: Word | undefined) => {
    const p = w === undefined || w.dynamic ? null : normal(prefix, w.text);
    if (p !== null) paths.add(p);
  };
  for (const cmd of simpleCommands(commandWords(run))) {
    if (cmd.length === 0 || cmd[0]!.dynamic) continue;
    const first = cmd[0]!.text;
    const prog = first.split("/").pop()!;
    if (first.includes("/")) add(cmd[0]);
    else if (INTERPRETERS.has(prog)) add(scriptOperand(cmd));
    const f = cmd.findIndex((w) => w.text === "-f" || w.text === "--file" || w.text === "--makefile");
    if ((prog === "make" || prog === "gmake") && f >= 0) add(cmd[f + 1]);
    // npm test, npx vitest, python -m pytest: the runners named anywhere in the command read their files.
    for (let i = 0; i < cmd.length; i++) {
      const runner = cmd[i]!.text.split("/").pop()!;
      if (!Object.hasOwn(RUNNER_READS, runner)) continue;
      // make -C DIR, npm --prefix DIR: the runner reads its files there.
      const dirFlag = cmd[i + 1]?.text === "-C" || cmd[i + 1]?.text === "--prefix" ? cmd[i + 2] : undefined;
      const at = dirFlag === undefined || dirFlag.dynamic ? null : normal(prefix, dirFlag.text);
      const base = dirFlag === undefined ? prefix : at === null ? null : `${at}/`;
      if (base === null) continue;
      for (const g of RUNNER_READS[runner]!) globs.add(g.startsWith("**/") ? g : `${base}${g}`);
    }
  }
  return { paths: [...paths], globs: [...globs] };
}

export interface CheckTreeInput {
  /** The check's shell command. */
  run: string;
  /** Where the check runs in the repository ("" at its root, else "dir/"). */
  prefix: string;
  protect: readonly string[];
  fromBase?: readonly string[];
  fromResult?: readonly string[];
  /** The graph's own files (the graph, its checks files) as repository paths. */
  graphFiles: readonly string[];
  /** Every file path of the base and of the commit. */
  baseFiles: readonly string[];
  commitFiles: readonly string[];
}

function compiled(globs: readonly string[] | undefined): CompiledGlob[] {
  return (globs ?? []).map(compileGlob);
}

/** The paths the check's tree takes from the base (each as base has it, or absent when base
 *  has none): everything else is the commit's. Sorted, each once. */
export function fromBasePaths(c: CheckTreeInput): string[] {
  const files = [...new Set([...c.baseFiles, ...c.commitFiles])];
  const reads = commandReads(c.run, c.prefix);
  const named = new Set([...reads.paths, ...c.graphFiles]);
  const auto = [...files.filter((f) => named.has(f)), ...matching(files, compiled(reads.globs))];
  const kept = new Set(matching(auto, compiled(c.fromResult)));
  const always = [...matching(files, compiled(c.protect)), ...matching(files, compiled(c.fromBase))];
  return [...new Set([...always, ...auto.filter((p) => !kept.has(p))])].sort();
}

/** A witness runs on the base with the check's `from_result` paths taken from the commit (the
 *  tests the agent wrote, say), never a protected or `from_base` path: sorted, each once. */
export function witnessFromResult(c: CheckTreeInput): string[] {
  const files = [...new Set([...c.baseFiles, ...c.commitFiles])];
  const never = new Set([...matching(files, compiled(c.protect)), ...matching(files, compiled(c.fromBase))]);
  return [...new Set(matching(files, compiled(c.fromResult)))].filter((p) => !never.has(p)).sort();
}
