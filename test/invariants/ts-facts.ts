// The facts the invariant tests judge, read with the TypeScript parser (the
// tsgo API of the `typescript` dev dependency), not with regular expressions:
// every import, re-export and dynamic import with whether it carries values or
// types only, and every `X.y` / `X["y"]` access (Bun.spawn, process.env).
// A comment or a string that merely mentions `Bun.spawn` is not an access.
import { join, relative } from "node:path";
import { API } from "typescript/unstable/async";
import { SyntaxKind, type Node, type SourceFile } from "typescript/unstable/ast";

export interface ImportFact {
  spec: string;
  /** Only types cross (`import type`, all specifiers `type`, `import("x").T`): nothing loads at run time. */
  typeOnly: boolean;
  /** The value names imported (`default` for a default import); `*` for a namespace import or `export *`. */
  names: string[];
}

export interface FunctionFact {
  /** The function's, method's or variable's name; "(anonymous)" for a callback. */
  name: string;
  /** First line (1-based) and how many lines it spans, its signature included. */
  line: number;
  lines: number;
}

export interface FileFacts {
  imports: ImportFact[];
  /** `Bun.spawn`, `process.env`, `Bun.$` …: property accesses on a plain identifier, element accesses with a string key folded in. */
  accesses: string[];
  /** Lines in the file. */
  lines: number;
  /** Every function, method, constructor, accessor and arrow function. */
  functions: FunctionFact[];
}

type AnyNode = Node & Record<string, any>;

function textOf(n: AnyNode | undefined): string | undefined {
  if (!n) return undefined;
  if (n.kind === SyntaxKind.StringLiteral || n.kind === SyntaxKind.NoSubstitutionTemplateLiteral || n.kind === SyntaxKind.Identifier)
    return n.text as string;
  return undefined;
}

function namedBindings(elements: AnyNode[]): { typeOnly: boolean; names: string[] } {
  const values = elements.filter((e) => !e.isTypeOnly);
  return { typeOnly: elements.length > 0 && values.length === 0, names: values.map((e) => textOf(e.propertyName) ?? textOf(e.name)!) };
}

function importFact(n: AnyNode): ImportFact | null {
  if (n.kind === SyntaxKind.ImportDeclaration) {
    const spec = textOf(n.moduleSpecifier)!;
    const clause = n.importClause as AnyNode | undefined;
    if (!clause) return { spec, typeOnly: false, names: [] }; // `import "x"`: runs the module
    if (clause.isTypeOnly || clause.phaseModifier === SyntaxKind.TypeKeyword) return { spec, typeOnly: true, names: [] };
    const names: string[] = clause.name ? ["default"] : [];
    const b = clause.namedBindings as AnyNode | undefined;
    if (b?.kind === SyntaxKind.NamespaceImport) return { spec, typeOnly: false, names: [...names, "*"] };
    const named = b ? namedBindings([...b.elements]) : { typeOnly: false, names: [] };
    return { spec, typeOnly: names.length === 0 && named.typeOnly, names: [...names, ...named.names] };
  }
  if (n.kind === SyntaxKind.ExportDeclaration && n.moduleSpecifier) {
    const spec = textOf(n.moduleSpecifier)!;
    if (n.isTypeOnly) return { spec, typeOnly: true, names: [] };
    const clause = n.exportClause as AnyNode | undefined;
    if (!clause || clause.kind === SyntaxKind.NamespaceExport) return { spec, typeOnly: false, names: ["*"] };
    return { spec, ...namedBindings([...clause.elements]) };
  }
  if (n.kind === SyntaxKind.CallExpression) {
    const callee = n.expression as AnyNode;
    const isImport = callee.kind === SyntaxKind.ImportKeyword;
    const isRequire = callee.kind === SyntaxKind.Identifier && callee.text === "require";
    if (isImport || isRequire) return { spec: textOf(n.arguments[0]) ?? "<computed>", typeOnly: false, names: ["*"] };
  }
  if (n.kind === SyntaxKind.ImportType) {
    const arg = n.argument as AnyNode;
    const spec = textOf(arg.literal) ?? textOf(arg);
    if (spec !== undefined) return { spec, typeOnly: true, names: [] };
  }
  return null;
}

function accessOf(n: AnyNode): string | null {
  if (n.kind === SyntaxKind.PropertyAccessExpression && n.expression.kind === SyntaxKind.Identifier)
    return `${n.expression.text}.${n.name.text}`;
  if (n.kind === SyntaxKind.ElementAccessExpression && n.expression.kind === SyntaxKind.Identifier) {
    const key = n.argumentExpression as AnyNode;
    const literal = key.kind === SyntaxKind.StringLiteral || key.kind === SyntaxKind.NoSubstitutionTemplateLiteral;
    return `${n.expression.text}.${literal ? key.text : "[computed]"}`;
  }
  // `new Worker(...)`, `new globalThis.Worker(...)`: a thread is started (layer-rules.ts decides
  // whether the name is the global one or an import's, such as bullmq's queue Worker).
  if (n.kind === SyntaxKind.NewExpression) {
    const e = n.expression as AnyNode;
    if (e.kind === SyntaxKind.Identifier && e.text === "Worker") return "new Worker";
    if (e.kind === SyntaxKind.PropertyAccessExpression && e.name.text === "Worker" && e.expression.text === "globalThis")
      return "new Worker";
  }
  return null;
}

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

function functionName(n: AnyNode): string {
  if (n.kind === SyntaxKind.Constructor) return "constructor";
  const own = textOf(n.name);
  if (own !== undefined) return own;
  const parent = n.parent as AnyNode | undefined;
  const holder =
    parent && (parent.kind === SyntaxKind.VariableDeclaration || parent.kind === SyntaxKind.PropertyAssignment)
      ? textOf(parent.name)
      : undefined;
  return holder ?? "(anonymous)";
}

const lineOf = (text: string, pos: number) => text.slice(0, pos).split("\n").length;

function functionFact(n: AnyNode, text: string): FunctionFact | null {
  if (!FUNCTION_KINDS.has(n.kind)) return null;
  const line = lineOf(text, n.getStart());
  return { name: functionName(n), line, lines: lineOf(text, n.end) - line + 1 };
}

function factsOf(sf: SourceFile): FileFacts {
  const text = (sf as AnyNode).text as string;
  const facts: FileFacts = { imports: [], accesses: [], lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0), functions: [] };
  const visit = (n: Node): void => {
    const i = importFact(n as AnyNode);
    if (i) facts.imports.push(i);
    const a = accessOf(n as AnyNode);
    if (a) facts.accesses.push(a);
    const f = functionFact(n as AnyNode, text);
    if (f) facts.functions.push(f);
    n.forEachChild(visit);
  };
  sf.forEachChild(visit);
  return facts;
}

/** Facts of every .ts/.tsx file under `dirs` of the project whose tsconfig.json is in `root`, keyed by path relative to root. */
export async function scanProject(root: string, dirs: string[]): Promise<Map<string, FileFacts>> {
  const api = new API({ cwd: root });
  try {
    const snapshot = await api.updateSnapshot({ openProject: join(root, "tsconfig.json") });
    const project = snapshot.getProjects()[0];
    if (!project) throw new Error(`no TypeScript project in ${root}`);
    const out = new Map<string, FileFacts>();
    for (const name of await project.program.getSourceFileNames()) {
      const rel = relative(root, name);
      if (!/\.tsx?$/.test(rel) || rel.endsWith(".d.ts") || !dirs.some((d) => rel.startsWith(`${d}/`))) continue;
      const sf = await project.program.getSourceFile(name);
      if (sf) out.set(rel, factsOf(sf));
    }
    return out;
  } finally {
    await api.close();
  }
}
