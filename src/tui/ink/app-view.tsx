// The live screen: subscribes to the store's snapshots (throttled), keeps the
// UI state (selection, folds, details, questions) and maps keypresses to
// handleKey(). Everything drawn comes from selectFrame(); nothing here decides.
import { Box, useInput, useWindowSize, type Key as InkKey } from "ink";
import { useMemo, useRef, useState, useSyncExternalStore } from "react";
import { handleKey, initialUi, noticeFor, type Effect, type Key, type UiState } from "../keys.ts";
import type { TuiStore } from "../tui-store.ts";
import { currentApproval, selectFrame } from "../view-rows.ts";
import { LineView } from "./line-view.tsx";

export interface AppViewProps {
  store: TuiStore;
  color: boolean;
  replay: boolean;
  /** `vouch watch`: q and Ctrl-C leave; the run goes on in its own process. */
  watching?: boolean;
  onEffect(effect: Effect): void;
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  size?: { columns: number; rows: number };
}

export function toKey(input: string, key: InkKey): Key | null {
  // Ctrl-\ too: in the raw terminal it is a key (0x1c), not SIGQUIT, and it
  // means what SIGQUIT means outside the live UI: stop the run (run-session.ts).
  if (key.ctrl && (input === "c" || input === "\\")) return "ctrlC";
  if (key.upArrow) return "up";
  if (key.downArrow) return "down";
  if (key.leftArrow) return "left";
  if (key.rightArrow) return "right";
  if (key.pageUp) return "pageUp";
  if (key.pageDown) return "pageDown";
  if (key.home) return "home";
  if (key.end) return "end";
  if (key.return) return "enter";
  if (key.escape) return "escape";
  if (input === "k") return "up";
  if (input === "j") return "down";
  return input.length === 1 && !key.ctrl && !key.meta ? { char: input } : null;
}

export function AppView({ store, color, replay, watching, onEffect, size }: AppViewProps) {
  const snap = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const terminal = useWindowSize();
  const columns = size?.columns ?? terminal.columns;
  const rows = size?.rows ?? terminal.rows;
  const [ui, setUi] = useState<UiState>(initialUi);
  const uiRef = useRef(ui);
  uiRef.current = ui;

  const frame = useMemo(
    () =>
      selectFrame(snap.state, {
        width: columns,
        height: rows,
        now: snap.now,
        selected: ui.selected,
        scrollTop: ui.scrollTop,
        fold: ui.fold,
        approvals: ui.pausedApprovals ? [] : snap.approvals,
        notice: noticeFor(ui),
        details: ui.details,
        replay,
      }),
    [snap, ui, columns, rows, replay],
  );
  const frameRef = useRef(frame);
  frameRef.current = frame;

  useInput((input, inkKey) => {
    const key = toKey(input, inkKey);
    if (key === null) return;
    const f = frameRef.current;
    const s = store.getSnapshot();
    // Start from what is on screen: the resolved selection and scroll position.
    const base: UiState = { ...uiRef.current, selected: f.selected, scrollTop: f.scrollTop };
    if (base.details) base.details = { ...base.details, scroll: f.detailsScroll };
    const approvals = uiRef.current.pausedApprovals ? [] : s.approvals;
    const approval = replay ? undefined : currentApproval(approvals, f.selected);
    const { ui: next, effects } = handleKey(base, key, {
      selectable: f.selectable,
      bodyHeight: f.bodyHeight,
      live: !replay && s.state.end === null,
      replay,
      ...(watching ? { watching } : {}),
      ...(approval ? { approval } : {}),
      pendingApprovals: approvals.length,
      maps: new Set(Object.keys(s.state.maps)),
    });
    uiRef.current = next;
    setUi(next);
    for (const e of effects) onEffect(e);
  });

  return (
    <Box flexDirection="column" width={columns}>
      {frame.lines.map((l, i) => (
        <LineView key={i} line={l} color={color} />
      ))}
    </Box>
  );
}
