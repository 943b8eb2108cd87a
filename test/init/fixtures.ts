// Fixture projects for `vouch init`, one per kind it detects, written into temp
// folders by the tests (real files, real git repositories). Commands are chosen so
// that they run anywhere Node is (`node -e …`), or name a toolchain the test
// expects to find missing.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { git } from "../workspace/git-repo.ts";

export type Files = Record<string, string>;

export const FIXTURES: Record<string, Files> = {
  node: {
    "package.json": JSON.stringify({
      name: "fixture-node",
      scripts: { test: "node -e 0", lint: "node -e \"console.log('src/a.js: 1 problem'); process.exit(1)\"", build: "node -e 0" },
    }),
    "package-lock.json": "{}\n",
    "test/a.test.js": "// a test\n",
    "src/a.js": "export const a = 1;\n",
  },
  python: {
    "pyproject.toml":
      '[project]\nname = "fixture"\nversion = "0.1.0"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n\n[tool.ruff]\nline-length = 100\n',
    "uv.lock": "version = 1\n",
    "tests/test_a.py": "def test_a():\n    assert True\n",
  },
  go: {
    "go.mod": "module example.com/fixture\n\ngo 1.22\n",
    "a.go": "package fixture\n\nfunc A() int { return 1 }\n",
    "a_test.go": 'package fixture\n\nimport "testing"\n\nfunc TestA(t *testing.T) {}\n',
  },
  rust: {
    "Cargo.toml": '[package]\nname = "fixture"\nversion = "0.1.0"\nedition = "2021"\n',
    "src/lib.rs": "pub fn a() -> i32 { 1 }\n",
    "tests/a.rs": "#[test]\nfn a() {}\n",
  },
  make: {
    Makefile: "X := 1\n.PHONY: test lint\n\ntest:\n\tnode -e 0\n\nlint: deps\n\tnode -e 'process.exit(2)'\n\ndeps:\n\t@true\n",
  },
  deno: {
    "deno.jsonc": '{\n  // tasks the project runs\n  "tasks": {\n    "test": "deno test -A", /* all permissions */\n  },\n}\n',
    "main_test.ts": "Deno.test('a', () => {});\n",
  },
  workflows: {
    ".github/workflows/ci.yml": [
      "name: ci",
      "on: [push]",
      "jobs:",
      "  test:",
      "    runs-on: ubuntu-latest",
      "    strategy: { matrix: { node: [20, 22] } }",
      "    steps:",
      "      - uses: actions/checkout@v4",
      "      - run: npm ci",
      "      - name: Run the tests",
      "        run: ./scripts/test.sh",
      "      - name: Lint on ${{ matrix.node }}",
      "        run: ./scripts/lint.sh ${{ matrix.node }}",
      "      - name: Build in a folder",
      "        run: make build",
      "        working-directory: site",
      "",
    ].join("\n"),
    "scripts/test.sh": "#!/bin/sh\nexit 0\n",
  },
  empty: { "README.md": "# nothing to test here\n" },
};

export interface Project {
  root: string;
  cleanup(): void;
}

export function writeFiles(root: string, files: Files): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A temp folder holding `files`; with `commit`, a git repository with them committed. */
export function project(files: Files, commit = true): Project {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "vouch-init-")));
  writeFiles(root, files);
  if (commit) {
    git(root, "init", "--quiet", "--initial-branch=main");
    git(root, "add", "--all");
    git(root, "commit", "--quiet", "-m", "initial");
  }
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}
