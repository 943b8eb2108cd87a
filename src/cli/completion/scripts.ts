// The completion scripts `vouch completion bash|zsh|fish` prints. Each is a thin
// adapter: it passes the words before the cursor to `vouch __complete` (the
// vouch the line names, so ./dist/vouch completes with its own commands) and
// turns the answer into the shell's candidates. The answer's first line is its
// kind: words (then one `value<TAB>description` per line), yaml (graph files),
// files, dirs, or none. What fits where lives in TypeScript (complete.ts), once.

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

const BASH = `# bash completion for vouch (printed by: vouch completion bash).
# Load it with: source <(vouch completion bash)
# or save it as ~/.local/share/bash-completion/completions/vouch
# It asks vouch itself what fits (vouch __complete only reads graph files and the ledger).
_vouch() {
    local cur=\${COMP_WORDS[COMP_CWORD]} line
    local -a lines
    COMPREPLY=()
    mapfile -t lines < <(command "\${COMP_WORDS[0]/#\\~/$HOME}" __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
    case \${lines[0]} in
        words)
            for line in "\${lines[@]:1}"; do COMPREPLY+=("\${line%%$'\\t'*}"); done ;;
        yaml)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.yaml' -- "$cur"; compgen -f -X '!*.yml' -- "$cur") ;;
        files)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
        dirs)
            compopt -o filenames 2>/dev/null
            mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
    esac
    return 0
}
complete -F _vouch vouch
`;

const ZSH = `#compdef vouch
# zsh completion for vouch (printed by: vouch completion zsh).
# Load it with: source <(vouch completion zsh)   (after compinit)
# or save it as _vouch in a folder of $fpath.
# It asks vouch itself what fits (vouch __complete only reads graph files and the ledger).
_vouch() {
  local -a lines values displays
  local line
  lines=("\${(@f)$(command \${~words[1]} __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  case \${lines[1]} in
    words)
      for line in "\${(@)lines[2,-1]}"; do
        [[ -n $line ]] || continue
        values+=("\${line%%$'\\t'*}")
        if [[ $line == *$'\\t'* ]]; then displays+=("\${line%%$'\\t'*}  -- \${line#*$'\\t'}"); else displays+=("$line"); fi
      done
      (( \${#values} )) && compadd -l -d displays -a values ;;
    yaml) _files -g '*.(yaml|yml)' ;;
    files) _files ;;
    dirs) _files -/ ;;
  esac
  return 0
}
if [[ \${funcstack[1]} == _vouch ]]; then
  _vouch "$@"
elif (( $+functions[compdef] )); then
  compdef _vouch vouch
fi
`;

const FISH = `# fish completion for vouch (printed by: vouch completion fish).
# Save it as ~/.config/fish/completions/vouch.fish, or: vouch completion fish | source
# It asks vouch itself what fits (vouch __complete only reads graph files and the ledger).
function __vouch_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l lines (command $tokens[1] __complete $tokens[2..-1] "$current" 2>/dev/null)
    switch "$lines[1]"
        case words
            printf '%s\\n' $lines[2..-1]
        case yaml
            for f in "$current"*
                if test -d "$f"
                    printf '%s/\n' "$f"
                else if string match -qr '\.ya?ml$' -- "$f"
                    printf '%s\n' "$f"
                end
            end
        case files
            __fish_complete_path "$current"
        case dirs
            __fish_complete_directories "$current"
    end
end
complete -c vouch -f -a '(__vouch_complete)'
`;

export const SCRIPTS: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH };
