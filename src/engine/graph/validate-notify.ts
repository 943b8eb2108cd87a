// Rules about `notify:` (ADR 0064): each notifier is exactly one of argv, url,
// url_env; its argv is static like every command (a template is refused: the
// event reaches the program on stdin, never on its command line); and a planned
// graph may not notify at all — a command of its own, or a URL that would carry
// the run's events to whoever the model chose.
import type { Rule } from "./validate-context.ts";

const STATIC_HINT =
  "a notifier's program is static: the event reaches it as JSON on stdin, never through its command line (docs/graph-language.md, notify)";

export const notifiers: Rule = (ctx) => {
  const list = ctx.graph.notify ?? [];
  if (list.length === 0) return;
  if (ctx.graph.origin === "planned") {
    ctx.report({
      path: ["notify"],
      at: "key",
      message: "notify: is refused in a planned graph (origin: planned)",
      hint: "a graph written by a model may not run a command of its own or send the run's events to a URL it chose; pass --notify to vouch run instead",
    });
    return;
  }
  list.forEach((n, i) => {
    const forms = (["argv", "url", "url_env"] as const).filter((k) => n[k] !== undefined);
    if (forms.length !== 1) {
      ctx.report({
        path: ["notify", i],
        message:
          forms.length === 0
            ? "a notifier needs one of argv: (a program), url: or url_env: (a URL to POST to)"
            : `a notifier has one of argv:, url: and url_env:, not ${forms.join(" and ")}`,
        hint: "e.g. notify: [{ argv: [notify-send, vouch] }] or notify: [{ url_env: SLACK_WEBHOOK_URL, on: [run_failed] }]",
      });
    }
    (n.argv ?? []).forEach((a, j) => {
      const at = a.indexOf("{{");
      if (at >= 0)
        ctx.report({ path: ["notify", i, "argv", j], offset: at, message: "a template in a notify argv: is refused", hint: STATIC_HINT });
    });
  });
};
