// How vouch answers an ACP agent's `session/request_permission` (ADR 0051): by
// the node's permission_mode, in vouch's own words, since vouch is the client
// the agent asks. Never "allow all" unless the graph says so (`allow-all`, which
// a planned graph may not), and never an "always" option: each request is
// answered on its own. Pure.

/** vouch's modes for an ACP sitting; `deny` when the node names none. */
export const ACP_PERMISSION_MODES = ["deny", "accept-edits", "allow-all"] as const;
export type AcpPermissionMode = (typeof ACP_PERMISSION_MODES)[number];
export const DEFAULT_ACP_PERMISSION_MODE: AcpPermissionMode = "deny";

/** Tool kinds that change files (ACP ToolKind): what accept-edits allows. */
const EDIT_KINDS = new Set(["edit", "delete", "move"]);

export interface PermissionOption {
  optionId: string;
  kind: string;
}

export type PermissionAnswer = { outcome: { outcome: "selected"; optionId: string } } | { outcome: { outcome: "cancelled" } };

/** The answer to one request: an allow_once option when the mode allows the tool's kind, else a reject option;
 *  `cancelled` when the agent offers no option of the kind needed (the agent then does not run the tool). */
export function answerPermission(
  mode: AcpPermissionMode,
  toolKind: string | undefined,
  options: readonly PermissionOption[],
): PermissionAnswer {
  const allow = mode === "allow-all" || (mode === "accept-edits" && toolKind !== undefined && EDIT_KINDS.has(toolKind));
  const pick = (kinds: string[]) => kinds.map((k) => options.find((o) => o.kind === k)).find((o) => o !== undefined);
  const option = allow ? pick(["allow_once"]) : pick(["reject_once", "reject_always"]);
  return option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } };
}

/** Whether the answer let the tool run (the sitting counts the denials). */
export function allowed(answer: PermissionAnswer, options: readonly PermissionOption[]): boolean {
  if (answer.outcome.outcome !== "selected") return false;
  const id = answer.outcome.optionId;
  return options.some((o) => o.optionId === id && o.kind.startsWith("allow"));
}
