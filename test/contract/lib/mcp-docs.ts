// The MCP client configurations docs/mcp.md shows, as a test writes them: the
// `vouch` command replaced by the binary under test and /path/to/project by the
// test's root. The docs' examples are what the contract tests run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY } from "../../graph/binary.ts";

const DOC = readFileSync(join(import.meta.dirname, "..", "..", "..", "docs", "mcp.md"), "utf8");

/** The first code block (of `lang`) under the `### title` heading. */
function blockUnder(title: string, lang: string): string {
  const at = DOC.indexOf(`### ${title}\n`);
  if (at < 0) throw new Error(`docs/mcp.md has no "### ${title}" section`);
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(DOC.slice(at));
  if (!m) throw new Error(`docs/mcp.md: no ${lang} block under "### ${title}"`);
  return m[1]!;
}

function filled(text: string, root: string): string {
  return text.replace(/(command"?\s*[:=]\s*)"vouch"/g, `$1${JSON.stringify(BINARY)}`).replace(/\/path\/to\/project/g, root);
}

export const claudeConfig = (root: string) =>
  JSON.parse(filled(blockUnder("Claude Code", "json"), root)) as {
    mcpServers: { vouch: Record<string, unknown> };
  };
export const codexConfig = (root: string) => filled(blockUnder("Codex", "toml"), root);
export const geminiConfig = (root: string) => filled(blockUnder("Gemini CLI", "json"), root);
