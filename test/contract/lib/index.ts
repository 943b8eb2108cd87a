// The shared pieces of the contract suite (docs/real-clis.md).
export * from "./clis.ts";
export * from "./home.ts";
export * from "./run.ts";
export * from "./shape.ts";
export { describeCli } from "./skip.ts";
export * from "./claude.ts";
export * from "./codex-gemini.ts";
