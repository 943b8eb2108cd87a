// Help texts: `vouch --help` and `vouch COMMAND --help`. What they say of the
// harnesses (their names, the CLIs doctor checks, where transcripts are) comes
// from the registry, so src/cli.ts loads this module only to print help.
import { DOCTOR_CLIS } from "../spawn/harness/doctor-probes.ts";
import { HARNESSES } from "../spawn/harness/registry.ts";
import { TRANSCRIPT_STORES } from "../spawn/harness/transcript.ts";

const HARNESS_LIST = HARNESSES.map((h) => h.name).join(", ");
const width = Math.max(...TRANSCRIPT_STORES.map((s) => s.harness.length));
const TRANSCRIPT_FOLDERS = TRANSCRIPT_STORES.map((s) => `  ${s.harness.padEnd(width)}  ${s.where}`).join("\n");

export const MAIN_HELP = `vouch — run graphs of coding-agent work; verdicts come from evidence the engine gathered itself.

Usage:
  vouch init [--yes] [--dry-run]   write vouch.checks.yaml and a starter graph from this project's own test commands
  vouch run GRAPH [options]        run a graph (live UI on a terminal, plain lines in a pipe, NDJSON with --json)
  vouch validate GRAPH...          report every problem in graph files as file:line:col: message
  vouch schema                     print the JSON Schema of graph files (for editors)
  vouch graph GRAPH [--format F]   draw a graph: text (default), mermaid or dot
  vouch checks [FILE] [--json]     list a check library: a graph's, or a checks file's
  vouch checks [NAME] --history    each check's recent outcomes: pass, fail, flaky, could not run, flake rate
  vouch plan GOAL --checks FILE    ask a model to plan a graph for GOAL, show it, write it, run it
  vouch runs [--json]              list recorded runs, newest first
  vouch show RUN [--json|--tui]    what happened in a run: nodes, checks, overruns, cost, worktrees, sessions
  vouch watch RUN [--json]         follow a run another process is recording, live, until it ends
  vouch cancel RUN                 stop a running run from anywhere that can open its ledger (resumable)
  vouch approve RUN NODE           decide an approval a run waits on, from another terminal
  vouch reject RUN NODE            reject an approval a run waits on, from another terminal
  vouch report RUN [--format F]    a run as HTML, JUnit, Markdown, GitHub annotations, SARIF, Code Quality
  vouch stats [--since WHEN]       how often models' claims held against the evidence; what retries bought
  vouch resume RUN [options]       re-run what did not pass; decide a paused approval; go on after a usage limit
  vouch harnesses [--json]         the harness adapters, their guarantees, which version is installed
  vouch doctor [GRAPH] [--json]    check that each installed agent CLI accepts the arguments vouch sends
  vouch clean [RUN] [--branches]   remove the git worktrees a run made (and its branches with --branches)
  vouch worker redis://HOST:PORT   run map branches dispatched with --executor (docs/scale-out.md)
  vouch workers redis://HOST:PORT  live workers and the jobs waiting and running
  vouch export k8s --executor URL --image IMAGE   print a Kubernetes Deployment of workers
  vouch export otlp RUN            send a recorded run's spans to an OpenTelemetry collector
  vouch completion bash|zsh|fish   print a shell completion script (commands, options, graphs, nodes, runs)
  vouch mcp serve [--root DIR]     an MCP server on stdio: agents validate, run and read graphs (docs/mcp.md)

  vouch COMMAND --help             help for one command
  vouch --version                  print the version

Exit codes: 0 passed, 1 failed, 2 usage or invalid graph, 3 error (no verdict reached),
            4 paused (at an approval, or at a usage or rate limit), 130 interrupted.
Environment: VOUCH_HOME moves the ledger (default ./.vouch); NO_COLOR turns colour off;
             VOUCH_MAX_GRAPH_BYTES (default 4MiB) and VOUCH_MAX_INPUT_BYTES (default 64MiB)
             raise the size limits on graph files and on -i NAME=@FILE inputs;
             OTEL_EXPORTER_OTLP_ENDPOINT sends a run's OpenTelemetry spans there (docs/ci.md).
Docs: README.md, docs/graph-language.md, docs/events.md`;

export const COMMAND_HELP: Record<string, string> = {
  init: `Usage: vouch init [--yes] [--harness NAME] [--dry-run] [--no-run-checks]

Writes two files into the current folder (which must be in a git repository with a commit),
from the evidence commands the project already has: package.json scripts (test, lint,
typecheck, a format check, build; run with the package manager of its lock file), a
Makefile's targets test, check and lint, pytest/ruff/mypy of a Python project, go.mod
(go test, go vet, gofmt -l), Cargo.toml (cargo test, clippy, fmt), deno.json, or, when
none of these is found, the run steps of .github/workflows.
  vouch.checks.yaml   the checks: named commands with timeouts (a check library, docs/graph-language.md)
  vouch.graph.yaml    a starter graph: an agent in a git worktree of its own with the tests
                      protected, the checks as its success, a retry that quotes the failures,
                      and a merge node that puts the work on a branch vouch/<run>/merged
Both are loaded by vouch's own validator before they are written, and every line has a
comment. Then each check is run once on the current tree, to say which already pass.

Options:
  --yes, -y        replace vouch.checks.yaml or vouch.graph.yaml if they exist, without asking
                   (without --yes vouch init asks on a terminal, and refuses without one: exit 2)
  --harness NAME   the agent node's harness (default claude): claude, codex, gemini, acp, replay, command
  --dry-run        print both files; write nothing and run nothing
  --no-run-checks  write the files but do not run the checks

Exit codes: 0 written (whatever the checks said), or nothing written after a no; 2 usage,
a file that exists and was not to be replaced, no git repository; 3 error; 130 interrupted.`,
  completion: `Usage: vouch completion bash|zsh|fish

Prints a completion script for the shell: commands, their options, graph files (*.yaml,
*.yml), node ids for --approve, --reject, --diff and --transcript (of the run named on the
line), and recent run ids. The script asks the vouch it runs (vouch __complete, which only
reads the graph files and the ledger) what fits where the cursor is.
  bash   source <(vouch completion bash)     or save it as ~/.local/share/bash-completion/completions/vouch
  zsh    source <(vouch completion zsh)      after compinit; or save it as _vouch in a folder of $fpath
  fish   vouch completion fish > ~/.config/fish/completions/vouch.fish`,
  worker: `Usage: vouch worker redis://HOST:PORT[/DB] [--concurrency N] [--name NAME] [--workdir DIR]
                    [--fleet-key-file FILE] [--health-file FILE]
       vouch worker --probe live|ready --health-file FILE

Takes map branches from the queue that \`vouch run --executor\` fills and runs each with
the engine's own branch code, streaming its events back to the coordinator. Commands it
runs see VOUCH_WORKER=NAME (default hostname:pid); --pass-env names reach them with this
machine's values. --workdir: where branch commands run (default: the coordinator's folder);
branches with worktrees need it: the worker's clone of the repository is kept there.
A job runs only when it verifies with the fleet key the coordinator holds (VOUCH_FLEET_KEY,
or a file: VOUCH_FLEET_KEY_FILE, --fleet-key-file) and comes from this vouch's version; others
end error. The Redis password comes from VOUCH_REDIS_PASSWORD or VOUCH_REDIS_PASSWORD_FILE,
never the URL. A kill -9 of the worker takes its branches' processes with it.
SIGTERM takes nothing new, kills what runs and hands those jobs back to the queue.
VOUCH_WORKER_LOCK_MS (default 30000): how long a silent worker keeps its jobs.
--health-file FILE: rewritten every 2 s; --probe live|ready answers a container's probe from it
(live: the worker's loop runs; ready: also connected): exit 0 healthy, 1 not.

Exit codes: 0 stopped by a signal, 2 usage, no fleet key, or Redis unreachable.`,
  workers: `Usage: vouch workers redis://HOST:PORT[/DB] [--json]

The live workers (from their heartbeats: name, pid, jobs running of concurrency) and the
jobs waiting and running on the queue.

Exit codes: 0, 2 usage or Redis unreachable.`,
  export: `Usage: vouch export k8s|otlp [RUN] [options]

vouch export k8s --executor redis://HOST:PORT[/DB] --image IMAGE prints a Kubernetes
Deployment of \`vouch worker\`s as YAML: resources per worker, a termination grace period
longer than the longest wall cap (--wall, default 30m), and the environment taken from
Secrets by name (nothing secret is printed). The pod passes the "restricted" Pod Security
Standard (user --uid, default 10001), mounts no service-account token and is probed through
the worker's health file; its work volume is limited to --work-size (default 20Gi). The
fleet key and the Redis password come from the Secret --fleet-secret (default vouch-fleet;
keys fleet-key and redis-password).

vouch export otlp RUN sends a recorded run's spans to an OpenTelemetry collector over
OTLP/HTTP (JSON): the spans, ids and times a live export of the run sends (docs/ci.md).
The collector is --endpoint, else OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or
OTEL_EXPORTER_OTLP_ENDPOINT. Prints the trace id. RUN is a run id, a unique prefix of one,
or last.

Options:
  --executor redis://HOST:PORT[/DB]   k8s: the Redis the workers take jobs from
  --image IMAGE        k8s: a container image with vouch and the agent CLIs
  --replicas N         k8s: workers (default 1)
  --concurrency N      k8s: branches per worker (default 4)
  --secret NAME        k8s: a Secret whose keys become the workers' environment (repeatable)
  --wall DURATION      k8s: the longest wall cap a branch has (default 30m)
  --name NAME          k8s: the Deployment's name (default vouch-worker)
  --fleet-secret NAME  k8s: the Secret with fleet-key and redis-password (default vouch-fleet)
  --work-size SIZE     k8s: the work volume's size limit (default 20Gi)
  --uid N              k8s: the user the pod runs as (default 10001)
  --endpoint URL       otlp: the collector's traces URL, as http://HOST:4318/v1/traces

Exit codes: 0, 2 usage, 3 (otlp) the collector did not take every span.`,
  run: `Usage: vouch run GRAPH [options]

Runs GRAPH and decides each node's verdict from evidence: exit status, the output
contract, and the checks the engine runs itself. A model saying PASS is never enough.

Options:
  --input, -i NAME=VALUE   set an input (repeatable); NAME=@FILE reads the value from FILE
                           (a regular file of at most 64 MiB; VOUCH_MAX_INPUT_BYTES raises it)
  --json                   NDJSON events on stdout, nothing else (docs/events.md)
  --plain                  plain progress lines, even on a terminal
  --harness NAME           use this harness for every agent node (${HARNESS_LIST})
  --replay-dir DIR         fixtures for the replay harness (default: GRAPH's <name>.replay/ folder)
  --replay-delay DURATION  pause between replayed lines, so the live view has time to show them (e.g. 120ms)
  --concurrency N          processes at once for the whole run (default: the graph's, else 4)
  --budget USD             run-wide budget cap in US dollars
  --wall DURATION          run-wide wall-clock cap, e.g. 30m
  --pass-env NAME          pass this environment variable to child processes (repeatable)
  --dry-run                load, validate and check caps against the harnesses; start nothing
  --report FORMAT:FILE     write a report when the run ends, however it ends (repeatable;
                           FORMAT html, junit, markdown, github, sarif or codequality),
                           e.g. --report junit:junit.xml;
                           an unwritable FILE is refused first (exit 2); one that fails
                           at the end turns exit 0 into 3 (docs/ci.md)
  --wait-limits            when a harness hits a usage or rate limit and nothing else can run,
                           wait in this process until it resets (a live countdown), then go on;
                           without it the run pauses (exit 4) and vouch resume RUN goes on later
  --max-wait DURATION      the most --wait-limits waits in total (default 6h); a reset further
                           off pauses the run; an unknown reset waits 1m, 2m, 4m ... (at most 30m each)
  --executor URL           run every map branch as a job for \`vouch worker\`s: redis://HOST:PORT[/DB]
                           (or \`executor:\` in the graph); unreachable at start: exit 2 (docs/scale-out.md)
  --wait-approvals         headless (plain lines, --json): wait at an approval for vouch approve /
                           vouch reject from another terminal instead of pausing (exit 4); --wall still applies
  --notify TARGET          tell TARGET when an approval waits, a usage limit pauses the run, and when it
                           ends: an https:// URL gets the event POSTed as JSON, a program path gets it on
                           stdin (repeatable; as the graph's notify:, docs/graph-language.md)
  --notify-on EVENTS       which events --notify sends, comma-separated (default: approval_waiting,
                           limit_paused, run_finished; also run_failed, run_errored)
  --fleet-key-file FILE    the fleet key jobs are sealed with (else VOUCH_FLEET_KEY or
                           VOUCH_FLEET_KEY_FILE); a fleet run without one: exit 2
  --sandbox MODE           auto (default), required or off: seal the sittings of nodes whose graph
                           says nothing (their tree writable, nothing else; no process outlives
                           them); required refuses to start where sealing does not work (vouch doctor)

On a terminal the live UI shows the run; after it ends the final frame stays until
you press q (q during the run asks to cancel it). In a pipe, plain lines; --json, NDJSON.

Exit codes: 0 passed, 1 failed, 2 usage or invalid graph, 3 error, 4 paused, 130 interrupted.`,
  validate: `Usage: vouch validate GRAPH... [--json]

Loads each graph file and reports every problem at once, as file:line:col: message
(with a hint where one helps) on stdout, and a summary line on stderr. GRAPH may be
a directory: its *.yaml and *.yml files. Exit 0 when all are valid, 2 otherwise.

Options:
  --json   print the problems as a JSON array of {file, line, col, message, hint}`,
  schema: `Usage: vouch schema

Prints the JSON Schema of graph files. Save it and point your editor at it:
  vouch schema > vouch.schema.json
  # yaml-language-server: $schema=./vouch.schema.json`,
  graph: `Usage: vouch graph GRAPH [--format text|mermaid|dot]

Draws the graph's nodes and edges (needs, routes, fallbacks, feedback loops, map branches).`,
  clean: `Usage: vouch clean [RUN] [--branches]

Removes the git worktrees vouch made for nodes with workspace mode worktree, in the
repository holding the current folder (<repo>/.vouch/worktrees/RUN/...). RUN is a run
id or a unique prefix of one; without RUN, every run's worktrees. A live run is left
alone. The branches (vouch/RUN/...) stay, since they hold the work, unless --branches.
Nothing else is touched: not your checkout, not other runs, not other branches.

Options:
  --branches   also delete the run's branches, the kept earlier tries (…@1) included`,
  checks: `Usage: vouch checks [FILE] [--json]
       vouch checks [NAME] --history [--json]

Lists the check library FILE gives: each check's name, description, command,
timeout and where it is defined (file:line:col). FILE is a graph (its own checks:
plus the checks files its checks_from names) or a checks file (NAME.checks.yaml,
holding only a checks: mapping). Without FILE, ./vouch.checks.yaml.

--history reads the ledger instead: for each check (or NAME), over its last 20 runs,
how often it passed, failed, was flaky (failed, then passed on the same tree) or could
not run, its flake rate, and the trees it both passed and failed on. A changed command
is a new history. A check flaky in more than 20% of its recent runs is marked FLAKY.

Options:
  --history   the checks' recorded outcomes, not a library
  --json      print the list as a JSON array

Exit codes: 0 listed; 2 the file is missing or invalid (every problem as file:line:col).`,
  stats: `Usage: vouch stats [--since WHEN] [--by harness|model|graph|node] [--json]

Over the recorded runs: what each agent sitting claimed of its own work (the value at its
node's claim: path, else done or not done by its result_matches, else done when it
completed; (no claim) when it did not) beside what vouch's evidence found: verified (a
check passed), unchecked (it passed on its word or exit alone), failed, no verdict. Each
cell has its sittings, its share of that claim, cost and turns. Then, per cause, the
retries it caused, what they cost, and how many ended in a verified pass.

Options:
  --since WHEN   only sittings judged since WHEN: a date (2026-11-01), a time, or an age (12h, 7d)
  --by GROUP     one table per harness, model (as the node asked for it), graph or node
  --json         print {since, by, runs, sittings, claims, retries} as JSON

Exit codes: 0; 2 usage.`,
  plan: `Usage: vouch plan GOAL --checks FILE [options]

Asks a model (through a harness, with read-only tools) to write a graph for GOAL
that proves its work with the checks in FILE, a checks file you own. vouch makes
the answer a planned graph (origin: planned; checks_from naming FILE relative to
the plan), validates it, quotes the problems back for another attempt, then shows
the graph, every agent's tools, mode and folder, the dry run and the total budget,
and writes it. The planner is graphs/plan.yaml: a run recorded in the ledger.

Options:
  --checks FILE            the check library the plan may use (required): a checks file,
                           or a graph, whose checks_from files are then used
  --input, -i NAME=VALUE   an input of the plan (repeatable; shown to the model, passed to --run)
  --output, -o PLAN        where to write the plan (default plan.yaml, never replaced unless named)
  --attempts N             sittings at most, each told the last one's problems (default 2)
  --run                    run the plan after asking "Run this plan now? [y/N]"
  --yes                    with --run: run without asking (needed without a terminal)
  --harness NAME           the harness for the planner and for --run (default claude)
  --pass-env NAME          pass this environment variable to child processes (repeatable)
  --budget USD             budget cap of each run (the planner's, the plan's)
  --wall DURATION          wall-clock cap of each run
  --replay-dir DIR         replay fixtures (the planner's node is "plan")
  --check-answer FILE      the planner's own check: is FILE a valid planned graph? (with --checks, -o)

Exit codes: 0 written (and, with --run, passed), 1 the plan ran and failed, 2 usage, an
invalid library, a plan still invalid after --attempts or refused by the dry run,
3 error, 4 paused, 130 interrupted. Docs: docs/plan.md`,
  runs: `Usage: vouch runs [--json]

Lists recorded runs, newest first: id, graph, status, started, wall time, cost.`,
  watch: `Usage: vouch watch RUN [--json | --plain]

Follows a run another vouch process is recording (on this machine or on a fleet: the
coordinator records its workers' events), read from the ledger as it grows: the live UI
on a terminal, plain lines in a pipe, NDJSON with --json (the lines the run's own
--json prints). Reads only; never slows the run. On a terminal q or Ctrl-C leaves (the
run goes on), and a and r decide an approval the run waits on (as vouch approve does).
It ends when the run ends, with the run's exit code: 3 when the run's process died
without finishing it, 130 when you left first. vouch show RUN --follow is the same.

Options:
  --json    NDJSON events on stdout, from the run's first event
  --plain   plain progress lines, even on a terminal`,
  cancel: `Usage: vouch cancel RUN [--wait DURATION]

Stops a running run from anywhere that can open its ledger, as Ctrl-C in its terminal
would: its children are stopped, its fleet jobs cancelled, the run recorded as
interrupted (exit 130 for its own process) and resumable with vouch resume RUN. The
request is recorded with who asked (user, host) and when; vouch show lists it.
Exit 0 once the run has ended, 2 when it is not running, 3 when it did not stop in time.

Options:
  --wait DURATION   how long to wait for the run to end (default 60s; 0: do not wait)`,
  approve: `Usage: vouch approve RUN NODE [--note TEXT] [--wait DURATION]

Approves the approval NODE a run waits on, from another terminal. A live run takes the
decision within a moment (its own live UI, or a headless run started with
--wait-approvals); a paused run takes it when resumed (vouch resume RUN). Decisions are
final: the first one recorded for an approval stands, and who decided is recorded.
NODE is the node as vouch show prints it: an id, or map[index].id in a map branch.

Options:
  --note TEXT       a note kept with the decision (shown by vouch show)
  --wait DURATION   how long to wait for a live run to take it (default 30s; 0: do not wait)`,
  reject: `Usage: vouch reject RUN NODE [--note TEXT] [--wait DURATION]

Rejects the approval NODE a run waits on, from another terminal: the node fails
(cause rejected) and the run goes on as the graph says. As vouch approve otherwise.

Options:
  --note TEXT       a note kept with the decision (shown by vouch show)
  --wait DURATION   how long to wait for a live run to take it (default 30s; 0: do not wait)`,
  mcp: `Usage: vouch mcp serve [--root DIR] [--checks FILE] [--pass-env NAME]...

A Model Context Protocol server on stdin/stdout, so an agent (Claude Code, Codex,
Gemini, any MCP client) can validate a graph, start a run of a graph file under DIR (in
the background), follow it, wait for it, cancel it, show it and read its Markdown
report, list runs and the check library. A graph the client passes as text is a planned
graph (origin: planned, its checks only from --checks); no client decides an approval.
Paths outside DIR are refused, symbolic links included. Configuration: docs/mcp.md.

Options:
  --root DIR        the folder graphs may be run from (default: the current folder)
  --checks FILE     the check library a graph passed as text may use (default: DIR/vouch.checks.yaml)
  --pass-env NAME   pass this environment variable to the runs it starts (repeatable)`,
  show: `Usage: vouch show RUN [--json | --tui | --diff NODE | --transcript NODE | --follow]

Shows one run from the ledger: each node's status and qualifier, stop reason, cost,
turns, wall time; map branches; failed checks with their output tails; cap overruns;
an approval the run waits for; each agent attempt's session id, and where its
transcript is, found under:
${TRANSCRIPT_FOLDERS}
RUN is a run id, a unique prefix of one, or "last".

Options:
  --json              the same facts as one JSON object
  --tui               replay the run's recorded events in the live view (needs a terminal; q leaves)
  --diff NODE         print the patch of NODE's git worktree (base..its last commit)
  --transcript NODE   print only the transcript path of NODE's last sitting (one per map
                      branch); exit 3 when none is found
  --follow            follow the run live until it ends (vouch watch RUN)
NODE is a node as show prints it: an id, or map[index].id in a map branch.`,
  resume: `Usage: vouch resume RUN [--approve NODE | --reject NODE] [--force] [--json] [--plain]
                        [--replay-dir DIR] [--replay-delay DURATION] [--report FORMAT:FILE]
                        [--wait-limits [--max-wait DURATION]] [--executor URL] [--fleet-key-file FILE]
                        [--wait-approvals] [--notify TARGET]... [--notify-on EVENTS] [--sandbox MODE]

Re-runs only what did not pass (failed, error, cancelled or never started), keeping
the outputs of what passed. Refuses (exit 2) when the graph file changed since the
run started, unless --force. --approve/--reject decide a paused approval.
--report FORMAT:FILE writes a report of the whole run when the session ends (as for run).
A run paused at a usage or rate limit goes on with the nodes the limit held; --wait-limits
and --max-wait wait for a limit in this process, as for run. A run whose branches ran on
workers reconnects to the executor it recorded (or --executor URL), with the fleet key as
for run; a first SIGTERM or Ctrl-C ends it even when a job's worker is gone. --sandbox
is as for run; without it the session keeps the run's. A decision recorded with vouch
approve or vouch reject while the run was paused is taken; --wait-approvals waits for
one, and --notify / --notify-on add notifiers, as for run.`,
  report: `Usage: vouch report RUN [--format html|junit|markdown|github|sarif|codequality] [-o FILE] [--root DIR]

Writes one recorded run as a report, from the ledger (the facts vouch show --json prints):
  html         one self-contained page (default): the work (each worktree's branch, commit,
               diff stat and patch, read from git now; each merge's result, what it left out
               and why); the graph drawn by Graphviz, coloured by status; every node's checks
               with their output tails; map branches as a filterable table; a timeline of
               sittings and checks with a legend; cost by node. Opens from disk, loads nothing
               from the network.
  junit        JUnit XML for CI test reporters: a testcase per node (map branches as
               map[i].node), failure/error/skipped from the verdicts.
  markdown     a summary for $GITHUB_STEP_SUMMARY or a pull-request comment.
  github       GitHub annotations (workflow commands, printed in a step): each failed or
               error node, each failed check (at path:line when its output names a file in
               the repository), each verified review finding; the worst 10 of each level.
  sarif        SARIF 2.1.0 for github/codeql-action/upload-sarif: failed checks and review
               findings (VERIFIED at their severity, UNVERIFIABLE as notes).
  codequality  a GitLab Code Quality report (artifacts: reports: codequality).
RUN is a run id, a unique prefix of one, or "last". docs/ci.md has the mappings.

Options:
  --format, -f F   html (default), junit, markdown, github, sarif or codequality
  -o, --output FILE  write to FILE instead of stdout
  --root DIR       the repository root locations are relative to (default: GITHUB_WORKSPACE
                   or CI_PROJECT_DIR, else the git checkout the run started in)

Exit codes: 0 written; 2 unknown run or format, or FILE cannot be written; 3 the ledger
could not be read.`,
  harnesses: `Usage: vouch harnesses [--json]

Lists the harness adapters, how each keeps every cap (native, supervised, observed
or not at all), whether its program is found on PATH, the installed version of
each agent CLI and whether vouch was tested with that version. Starts no process
for an npm-installed CLI (its package.json says the version); otherwise asks
PROGRAM --version.
The command harness runs the program named by VOUCH_COMMAND (a path, or a JSON
array of argv); the prompt goes to its stdin and its stdout is the result.

Options:
  --json   print the list as a JSON array`,
  doctor: `Usage: vouch doctor [GRAPH] [--json]

For each agent CLI on PATH (${DOCTOR_CLIS.join(", ")}): its version, whether vouch was
tested with it, and whether its own argument parser accepts every command line vouch
would send it (one with every flag vouch may pass, one per permission mode). No model
is called: each probe runs with an empty prompt, a throwaway HOME without credentials
and the provider base URLs on a closed local port, so the CLI stops right after
parsing its arguments. A rejected flag is printed with the CLI's own message.
Then whether sealing works here (sandbox: bubblewrap runs a sealed \`true\`), and when
not, why (no bubblewrap, user namespaces switched off, another platform) and what to do;
this changes no exit code.
With a GRAPH, each ACP agent it names (the acp.command of each acp agent node, sub-graphs
and map branches included) is started as a sitting starts it — so doctor runs those
commands, unsealed, four at a time — and asked ACP's initialize, in the same throwaway
HOME; no session is opened and no prompt sent. It reports who the agent says it is, its
protocol version, whether vouch was tested with it and whether it can load a session.
A path in acp.command is taken from the current folder, a name from PATH.

Options:
  --json   print the reports as a JSON array (the CLIs', then one with "check": "sandbox",
           then one with "check": "acp" per agent of the graph)

Exit codes: 0 every installed CLI accepts vouch's arguments (or none is installed) and
            every ACP agent of the graph answered initialize in ACP version 1,
            1 a CLI rejected an argument, or an agent of the graph is not installed,
            never answered or speaks another version, 2 usage or a graph that is not
            valid, 3 a probe could not tell (no answer within 30 s).`,
};
