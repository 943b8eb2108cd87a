// A user's repository and a scripted "agent" for the worktree tests through
// dist/vouch: the command harness runs agent.sh with the prompt on stdin; the
// prompt says which file to write, and whether to edit the protected test.
// The agents of parallel branches wait for each other (a rendezvous folder
// outside every repository), so each looks at its worktree while the others
// have written theirs: what it lists is what it can see.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeRepo } from "../workspace/git-repo.ts";

export const AGENT = `#!/bin/sh
# prompt: "write NAME [tamper] [wait N] [hold]" (hold: until $RENDEZVOUS/release exists)
p=$(cat)
name=$(printf '%s' "$p" | sed -n 's/^write \\([A-Za-z0-9_-]*\\).*/\\1/p')
echo "$name" > "$name.txt"
case "$p" in *tamper*) echo 'exit 0' > test/has.sh ;; esac
touch "$RENDEZVOUS/$name"
n=$(printf '%s' "$p" | sed -n 's/.*wait \\([0-9]*\\).*/\\1/p')
if [ -n "$n" ]; then
  i=0
  while [ "$(ls "$RENDEZVOUS" | wc -l)" -lt "$n" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done
fi
case "$p" in *hold*) while [ ! -f "$RENDEZVOUS/release" ]; do sleep 0.05; done ;; esac
printf 'sees:'; ls *.txt | tr '\\n' ' '
printf 'workspace:%s cwd:%s' "$VOUCH_WORKSPACE" "$(pwd)"
`;

export interface Fixture {
  repo: string;
  agent: string;
  rendezvous: string;
  env: Record<string, string>;
}

/** A repository with a protected test (test/has.sh checks a file exists) and an uncommitted edit. */
export function fixture(dir: string): Fixture {
  const repo = makeRepo({ "test/has.sh": 'test -f "$1"\n', "README.md": "the user's project\n" }, "vouch-ws-repo-");
  const agent = join(dir, "agent.sh");
  writeFileSync(agent, AGENT);
  chmodSync(agent, 0o755);
  const rendezvous = join(dir, "rendezvous");
  mkdirSync(rendezvous);
  return { repo, agent, rendezvous, env: { VOUCH_COMMAND: agent, RENDEZVOUS: rendezvous } };
}

/** Three parallel branches in worktrees with test/** protected; the item is the file name
 *  (and "tamper" edits the test). The check runs the base's test on the branch's own file.
 *  Unsealed (sandbox: off): the rendezvous is a folder all three write, a side channel
 *  between sittings that sealing closes by design (ADR 0040); test/e2e/sealed-*.test.ts
 *  hold the sealed branches, which cannot even see each other's trees. */
export const MAP_GRAPH = `version: 1
name: worktrees
inputs:
  items: { default: ["alpha", "beta", "tamper"] }
nodes:
  each:
    kind: map
    over: inputs.items
    max_concurrency: 3
    branch:
      work:
        kind: agent
        harness: command
        env: [RENDEZVOUS]
        prompt: "write {{ item }} wait 3"
        sandbox: off
        workspace: { mode: worktree, protect: ["test/**"] }
        success:
          checks:
            - name: own-file
              run: 'f=$(tr -d "\\"" < "$VOUCH_ITEM_FILE").txt; [ "$VOUCH_WORKSPACE" = "$(pwd)" ] && sh test/has.sh "$f"'
`;
