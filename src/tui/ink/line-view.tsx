// Paints one screen line. Colours only when asked: NO_COLOR and `color: false` get plain text.
import { Text } from "ink";
import type { Line, Tone } from "../lines.ts";

const COLOR: Record<Tone, string> = {
  ok: "green",
  bad: "red",
  warn: "yellow",
  info: "cyan",
  muted: "gray",
  accent: "magenta",
};

export function LineView({ line, color }: { line: Line; color: boolean }) {
  const text = line.segments.map((s) => s.text).join("");
  if (!color) return <Text wrap="truncate-end">{text.length ? text : " "}</Text>;
  return (
    <Text wrap="truncate-end" bold={line.selected === true}>
      {line.segments.map((s, i) =>
        s.tone || s.bold ? (
          <Text key={i} {...(s.tone ? { color: COLOR[s.tone] } : {})} bold={s.bold === true || line.selected === true}>
            {s.text}
          </Text>
        ) : (
          s.text
        ),
      )}
      {text.length ? "" : " "}
    </Text>
  );
}
