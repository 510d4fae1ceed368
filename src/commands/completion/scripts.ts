/**
 * The shell scripts `kactl completion <shell>` prints. Each asks kactl itself for the candidates
 * (`kactl __complete -- <words so far> <current word>`, as gh and stripe do), with stdin closed
 * and CI set so nothing can prompt, and stderr dropped so nothing can garble the prompt line.
 *
 * Candidates may come from the server (subscription names): each is inserted quoted, so
 * `$(…)`, spaces or `*` in one stay text. zsh's compadd and fish quote what they insert; bash
 * inserts COMPREPLY as it is, so its script quotes each word with `printf %q`, and reads them
 * line by line rather than through an unquoted `$(…)` (which would expand `*` to file names).
 */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const BASH = `# kactl completion for bash. Load it with:  source <(kactl completion bash)
_kactl_complete() {
  local word quoted
  COMPREPLY=()
  while IFS= read -r word; do
    printf -v quoted '%q' "$word"
    COMPREPLY+=("$quoted")
  done < <(CI=1 kactl __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" </dev/null 2>/dev/null)
}
complete -o default -F _kactl_complete kactl
`;

const ZSH = `#compdef kactl
# kactl completion for zsh. Load it with:  source <(kactl completion zsh)
# (after compinit), or save it as _kactl in a folder of your fpath.
_kactl() {
  local -a candidates
  candidates=("\${(@f)$(CI=1 kactl __complete -- "\${(@)words[2,CURRENT]}" </dev/null 2>/dev/null)}")
  candidates=(\${candidates:#})
  compadd -- "\${candidates[@]}"
}
if (( $+functions[compdef] )); then compdef _kactl kactl; fi
`;

const FISH = `# kactl completion for fish. Load it with:  kactl completion fish | source
function __kactl_complete
    set -l words (commandline -opc) (commandline -ct)
    env CI=1 kactl __complete -- $words[2..-1] </dev/null 2>/dev/null
end
complete -c kactl -f -a '(__kactl_complete)'
`;

export const COMPLETION_SCRIPTS: Readonly<Record<Shell, string>> = { bash: BASH, zsh: ZSH, fish: FISH };
