// go.mod: the Go toolchain's own evidence. `go test ./...` and `go vet ./...`
// judge by their exit status; `gofmt -l .` exits 0 either way and lists the files
// it would reformat, so it passes only when it prints nothing (expect: empty_output).
// Nothing of go.mod is read: its presence is the whole signal.
import type { Finding } from "./detected.ts";
import type { ProjectFiles } from "./project-files.ts";

export function detectGo(files: ProjectFiles): Finding {
  if (!files.exists("go.mod")) return { checks: [], found: [], notes: [], protect: [] };
  return {
    checks: [
      {
        kind: "tests",
        prefix: "go",
        origin: "go.mod: the Go tests",
        run: "go test ./...",
        program: "go",
        timeout: "10m",
        description: "go test ./... (every package's tests)",
      },
      {
        kind: "vet",
        prefix: "go",
        origin: "go.mod: go vet",
        run: "go vet ./...",
        program: "go",
        timeout: "5m",
        description: "go vet ./... (suspicious constructs)",
      },
      {
        kind: "fmt",
        prefix: "go",
        origin: "go.mod: gofmt",
        run: "gofmt -l .",
        program: "gofmt",
        timeout: "2m",
        expect: "empty_output",
        expectWhy: "gofmt -l exits 0 either way and prints the files it would change: only no output passes",
        description: "no file needs gofmt (it lists the ones that do)",
      },
    ],
    found: ["go.mod: go test ./..., go vet ./..., gofmt -l ."],
    notes: [],
    protect: [
      { glob: "**/*_test.go", why: "test files" },
      { glob: "**/testdata/**", why: "the tests' data" },
    ],
  };
}
