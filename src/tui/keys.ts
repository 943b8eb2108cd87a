// What each key does, as a pure function of the UI state: the Ink component
// only translates keypresses and carries out the effects (cancel, exit, answer).
import type { PendingApprovalView } from "./view-rows.ts";
import type { Fold } from "./view-branch-rows.ts";
import { own, put, withKey } from "./own.ts";

export type Key =
  | "up"
  | "down"
  | "pageUp"
  | "pageDown"
  | "home"
  | "end"
  | "enter"
  | "escape"
  | "left"
  | "right"
  | "ctrlC"
  | { char: string };

export interface UiState {
  selected: string | null;
  scrollTop: number;
  fold: Readonly<Record<string, Fold>>;
  details: { key: string; scroll: number } | null;
  /** A question on screen: cancel the live run, or leave its approvals for later. */
  confirm: "cancel" | "pause" | null;
  /** The user asked to cancel (Ctrl-C or q + y); the next Ctrl-C exits at once. */
  cancelRequested: boolean;
  /** The user left the approvals for later (they answer "pause"). */
  pausedApprovals: boolean;
}

export type Effect =
  | { kind: "cancel" }
  | { kind: "exitNow" }
  | { kind: "quit" }
  | { kind: "pauseApprovals" }
  | { kind: "answer"; id: number; decision: "approve" | "reject" };

export interface KeyContext {
  /** Selectable row keys in screen order (from the frame). */
  selectable: readonly string[];
  bodyHeight: number;
  /** The run is still going (no run.finished yet, and not a replay). */
  live: boolean;
  replay: boolean;
  /** `vouch watch`: another process drives the run; q and Ctrl-C leave the view, never stop the run. */
  watching?: boolean;
  /** The approval on screen, if one is waiting. */
  approval?: PendingApprovalView;
  pendingApprovals: number;
  /** Ids of map nodes, to fold a map from its row or any of its branch rows. */
  maps: ReadonlySet<string>;
}

export function initialUi(): UiState {
  return { selected: null, scrollTop: 0, fold: {}, details: null, confirm: null, cancelRequested: false, pausedApprovals: false };
}

export function handleKey(ui: UiState, key: Key, ctx: KeyContext): { ui: UiState; effects: Effect[] } {
  const done = (next: UiState, ...effects: Effect[]) => ({ ui: next, effects });
  if (key === "ctrlC") {
    if (ctx.replay || ctx.watching || !ctx.live) return done(ui, { kind: "quit" });
    if (ui.cancelRequested) return done(ui, { kind: "exitNow" });
    return done({ ...ui, confirm: null, cancelRequested: true }, { kind: "cancel" });
  }
  const char = typeof key === "object" ? key.char : null;
  if (ui.confirm) {
    if (char === "y" || char === "Y") {
      return ui.confirm === "cancel"
        ? done({ ...ui, confirm: null, cancelRequested: true }, { kind: "cancel" })
        : done({ ...ui, confirm: null, pausedApprovals: true }, { kind: "pauseApprovals" });
    }
    if (char === "n" || char === "N" || char === "q" || key === "escape") return done({ ...ui, confirm: null });
    return done(ui); // a question is on screen: other keys wait for the answer
  }
  if ((char === "a" || char === "r") && ctx.approval) {
    return done(ui, { kind: "answer", id: ctx.approval.id, decision: char === "a" ? "approve" : "reject" });
  }
  if (ui.details) return detailsKey(ui, key, ctx);
  if (char === "q") {
    if (ctx.replay || ctx.watching || !ctx.live) return done(ui, { kind: "quit" });
    if (ctx.pendingApprovals > 0 && !ui.pausedApprovals) return done({ ...ui, confirm: "pause" });
    if (ui.cancelRequested) return done(ui);
    return done({ ...ui, confirm: "cancel" });
  }
  const at = ui.selected === null ? 0 : Math.max(0, ctx.selectable.indexOf(ui.selected));
  const move = (to: number) => {
    const i = Math.max(0, Math.min(ctx.selectable.length - 1, to));
    return done({ ...ui, selected: ctx.selectable[i] ?? ui.selected });
  };
  switch (key) {
    case "up":
      return move(at - 1);
    case "down":
      return move(at + 1);
    case "pageUp":
      return move(at - Math.max(1, ctx.bodyHeight - 2));
    case "pageDown":
      return move(at + Math.max(1, ctx.bodyHeight - 2));
    case "home":
      return move(0);
    case "end":
      return move(ctx.selectable.length - 1);
    case "enter": {
      const sel = ui.selected ?? ctx.selectable[0];
      if (sel === undefined) return done(ui);
      if (sel.endsWith("#fold")) return done({ ...ui, fold: withKey(ui.fold, sel.slice(0, -5), "open") });
      return done({ ...ui, details: { key: sel, scroll: 0 } });
    }
    case "right":
    case "left":
      return foldKey(ui, key, ctx);
    default:
      return done(ui);
  }
}

function detailsKey(ui: UiState, key: Key, ctx: KeyContext): { ui: UiState; effects: Effect[] } {
  const d = ui.details!;
  const scroll = (by: number) => ({ ui: { ...ui, details: { ...d, scroll: Math.max(0, d.scroll + by) } }, effects: [] });
  const page = Math.max(1, ctx.bodyHeight - 2);
  if (key === "up") return scroll(-1);
  if (key === "down") return scroll(1);
  if (key === "pageUp") return scroll(-page);
  if (key === "pageDown" || (typeof key === "object" && key.char === " ")) return scroll(page);
  if (key === "home") return scroll(-d.scroll);
  if (key === "escape" || key === "enter" || key === "left" || (typeof key === "object" && key.char === "q")) {
    return { ui: { ...ui, details: null }, effects: [] };
  }
  return { ui, effects: [] };
}

/** The map a row belongs to: the map row itself, one of its branches, or its fold line. */
export function mapOfKey(key: string | null, maps: ReadonlySet<string>): string | null {
  if (key === null) return null;
  if (maps.has(key)) return key;
  const m = /^([^#/]+)#/.exec(key);
  return m && maps.has(m[1]!) ? m[1]! : null;
}

/** → shows more of a map (folded → auto → every branch), ← shows less. */
function foldKey(ui: UiState, key: "left" | "right", ctx: KeyContext): { ui: UiState; effects: Effect[] } {
  const map = mapOfKey(ui.selected ?? ctx.selectable[0] ?? null, ctx.maps);
  if (!map) return { ui, effects: [] };
  // own/put: a map id may be __proto__ or constructor (ADR 0019, src/tui/own.ts).
  const now = own(ui.fold, map);
  const next: Fold | undefined = key === "right" ? (now === "closed" ? undefined : "open") : now === "open" ? undefined : "closed";
  const fold = { ...ui.fold };
  if (next === undefined) delete fold[map];
  else put(fold, map, next);
  // Folding hides the branch rows: keep the selection on the map's own row.
  return { ui: { ...ui, fold, selected: key === "left" ? map : ui.selected }, effects: [] };
}

/** The line shown above the keys for a question or a state the user caused. */
export function noticeFor(ui: UiState): { text: string; tone: "warn" | "bad" } | null {
  if (ui.confirm === "cancel")
    return { text: "Cancel the run? Running work is stopped and recorded as interrupted.  y yes · n no", tone: "bad" };
  if (ui.confirm === "pause")
    return { text: "Quit? Approvals wait: the run pauses (exit 4) once nothing else can run.  y yes · n no", tone: "warn" };
  if (ui.cancelRequested) return { text: "cancelling… (Ctrl-C again exits at once)", tone: "bad" };
  if (ui.pausedApprovals) return { text: "approvals left for later: the run pauses when the rest is done", tone: "warn" };
  return null;
}
