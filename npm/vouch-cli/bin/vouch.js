#!/usr/bin/env node
// vouch's npm launcher (ADR 0027): the wrapper package's `bin`. It finds the
// platform package npm installed from the wrapper's optionalDependencies (npm
// skips the others by their os/cpu/libc fields), then runs the compiled binary
// inside it with the same arguments, terminal and exit code. It runs under the
// Node that npm came with; it needs no Bun, no build and no install script.
"use strict";
const { spawn } = require("node:child_process");
const { existsSync } = require("node:fs");
const { constants } = require("node:os");
const { dirname, join } = require("node:path");

/** vouch's exit code for "could not run" (README, "Exit codes"). */
const EXIT_ERROR = 3;

/** The platform package for `platform`-`arch`, from the wrapper's manifest. Pure. */
function choosePackage(manifest, platform, arch) {
  const key = `${platform}-${arch}`;
  const deps = manifest.optionalDependencies || {};
  const names = Object.keys(deps);
  // A platform package is <scope>/<key>: the key is what follows the scope's slash.
  const supported = names.map((n) => n.slice(n.lastIndexOf("/") + 1));
  const index = supported.indexOf(key);
  if (index === -1) return { ok: false, key, supported };
  const name = names[index];
  return { ok: true, key, name, version: deps[name], supported };
}

/** What a person reads when no binary can start: the problem, then what to do. Pure. */
function problemMessage(p) {
  const lines = [`vouch: ${p.what}`];
  for (const h of p.hints) lines.push(`hint: ${h}`);
  return lines.join("\n") + "\n";
}

function unsupported(choice, wrapper) {
  return {
    what: `no vouch binary is published for this platform (${choice.key})`,
    hints: [
      `${wrapper} has binaries for ${choice.supported.join(", ")}`,
      'on another platform, build vouch from source: see the README\'s "Install" section',
    ],
  };
}

/** The platform package's folder, or undefined when npm did not install it. */
function resolvePackage(name, from) {
  try {
    return dirname(require.resolve(`${name}/package.json`, { paths: [from] }));
  } catch {
    return undefined;
  }
}

function isMusl() {
  if (process.platform !== "linux") return false;
  const header = process.report && process.report.getReport().header;
  return Boolean(header) && !header.glibcVersionRuntime;
}

function notInstalled(choice, manifest, from) {
  const hints = [];
  if (isMusl())
    hints.push("this Linux uses musl libc (Alpine?): the packages are built for glibc, so npm skipped it; build vouch from source instead");
  const other = Object.keys(manifest.optionalDependencies).find((n) => n !== choice.name && resolvePackage(n, from));
  if (other)
    hints.push(`${other} is installed instead: this node_modules was installed on another platform; install again on this machine`);
  hints.push(
    `it is an optional dependency of ${manifest.name}: install without --omit=optional or --no-optional (npm i -g ${manifest.name}@${manifest.version}), or add it: npm i -g ${choice.name}@${choice.version}`,
  );
  return { what: `the package ${choice.name}, vouch's binary for ${choice.key}, is not installed`, hints };
}

/** Finds the binary to run, or the problem to report. */
function locate(manifest, from, platform = process.platform, arch = process.arch) {
  const choice = choosePackage(manifest, platform, arch);
  if (!choice.ok) return { problem: unsupported(choice, manifest.name) };
  const dir = resolvePackage(choice.name, from);
  if (!dir) return { problem: notInstalled(choice, manifest, from) };
  const installed = require(join(dir, "package.json")).version;
  const reinstall = `reinstall: npm i -g ${manifest.name}@${manifest.version}`;
  if (installed !== manifest.version) {
    return {
      problem: {
        what: `${manifest.name} ${manifest.version} found ${choice.name} ${installed} (${dir}): the versions must be the same`,
        hints: [reinstall],
      },
    };
  }
  const binary = join(dir, "bin", "vouch");
  if (!existsSync(binary))
    return { problem: { what: `${choice.name} has no binary at ${binary}: the package is damaged`, hints: [reinstall] } };
  return { binary };
}

function startFailure(error, binary) {
  if (error.code === "EACCES")
    return { what: `${binary} is not executable (permission denied)`, hints: [`chmod +x ${binary}, or reinstall the package`] };
  // The file is there (locate checked), so ENOENT means its program loader is missing.
  if (error.code === "ENOENT")
    return {
      what: `${binary} could not start: its program loader is missing`,
      hints: ["the Linux binaries need glibc (not musl, as on Alpine); build vouch from source there"],
    };
  return { what: `${binary} could not start: ${error.message}`, hints: ["reinstall the package, or build vouch from source"] };
}

/** Runs the binary in the same terminal and process group and ends as it ended. */
function run(binary, args) {
  const child = spawn(binary, args, { stdio: "inherit" });
  // Ctrl-C, Ctrl-\ and a closed terminal signal the whole foreground process
  // group, vouch included: passing them on would count twice (vouch's second
  // signal stops at once). SIGTERM usually names one process (kill PID, a
  // supervisor), so it is passed on. Each handler also keeps this process alive
  // until vouch has finished stopping.
  const passOn = (signal) => child.kill(signal);
  const keep = () => {};
  const handlers = { SIGINT: keep, SIGQUIT: keep, SIGHUP: keep, SIGTERM: passOn };
  for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
  child.on("error", (error) => {
    process.stderr.write(problemMessage(startFailure(error, binary)));
    process.exit(EXIT_ERROR);
  });
  child.on("exit", (code, signal) => {
    if (signal === null) process.exit(code === null ? EXIT_ERROR : code);
    // Killed by a signal: die of the same one, so the caller sees what vouch's caller would.
    for (const [s, handler] of Object.entries(handlers)) process.off(s, handler);
    process.kill(process.pid, signal);
    process.exit(128 + (constants.signals[signal] || 0));
  });
}

function main() {
  const manifest = require("../package.json");
  const found = locate(manifest, __dirname);
  if (found.problem) {
    process.stderr.write(problemMessage(found.problem));
    process.exit(EXIT_ERROR);
  }
  run(found.binary, process.argv.slice(2));
}

module.exports = { choosePackage, problemMessage, locate };
if (require.main === module) main();
