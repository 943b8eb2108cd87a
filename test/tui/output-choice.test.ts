import { describe, expect, test } from "vitest";
import { chooseOutput, colorEnabled, outputWidth, PIPE_WIDTH } from "../../src/tui/output-choice.ts";

const tty = { stdoutIsTTY: true, stdinIsTTY: true, env: {} };

describe("output choice", () => {
  test("--json wins over everything; --plain and pipes get plain lines; a terminal gets the UI", () => {
    expect(chooseOutput({ json: true, plain: true }, tty)).toBe("json");
    expect(chooseOutput({ plain: true }, tty)).toBe("plain");
    expect(chooseOutput({}, { ...tty, stdoutIsTTY: false })).toBe("plain");
    expect(chooseOutput({}, { ...tty, stdinIsTTY: false })).toBe("plain"); // no keys: no live UI
    expect(chooseOutput({}, { ...tty, env: { TERM: "dumb" } })).toBe("plain");
    expect(chooseOutput({}, tty)).toBe("tui");
  });

  test("NO_COLOR (any non-empty value) and pipes turn colour off", () => {
    expect(colorEnabled(tty)).toBe(true);
    expect(colorEnabled({ ...tty, env: { NO_COLOR: "1" } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { NO_COLOR: "" } })).toBe(true);
    expect(colorEnabled({ stdoutIsTTY: false, env: {} })).toBe(false);
  });

  test("width: the terminal's columns, else $COLUMNS, else 80", () => {
    expect(outputWidth(132, { COLUMNS: "90" })).toBe(132);
    expect(outputWidth(undefined, { COLUMNS: "90" })).toBe(90);
    expect(outputWidth(0, { COLUMNS: "x" })).toBe(80);
  });

  test("a pipe is not cut at 80 columns: CI logs keep whole error lines unless COLUMNS says otherwise", () => {
    expect(outputWidth(undefined, {}, false)).toBe(PIPE_WIDTH);
    expect(outputWidth(undefined, { COLUMNS: "100" }, false)).toBe(100);
  });
});
