// Whether a name is one git takes for a new branch and cannot read as an option
// (the rules of git check-ref-format, in short). Pure: the validator checks a
// literal `into`, the merge node the rendered one.

/** Why git would refuse `name` as a branch, or null. */
export function branchNameProblem(name: string): string | null {
  if (name.startsWith("-")) return 'starts with "-": git would read it as an option';
  if (!/^[A-Za-z0-9._/@{}+-]+$/.test(name))
    return "holds a character git refuses in a branch name (a space, ~ ^ : ? * [ \\ or a control character)";
  if (/(^|\/)\.|\.\.|\/\/|@\{|\.lock(\/|$)|[/.]$|^\/|^@$/.test(name)) return "is not a name git accepts for a branch";
  return null;
}
