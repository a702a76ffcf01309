# bash completion for port-check. Subcommands, options and option values are read from the
# installed binary's own --help (`port-check [SUBCOMMAND...] --help`), so they always match it.

# Prints the section TITLE ("Subcommands", "Options", "Positionals") of a --help text.
_port_check_section() {
  awk -v title="$2:" '$0 == title { s = 1; next } /^[^ ]/ || /^$/ { s = 0 } s' <<<"$1"
}

# Prints "NAME<TAB>LINE" for each name of each option line (-o,--output TEXT -> -o and --output).
_port_check_options() {
  awk '{ n = split($1, names, ","); for (i = 1; i <= n; i++) { sub(/\{.*/, "", names[i]); print names[i] "\t" $0 } }' <<<"$1"
}

_port_check() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local cmd=("${COMP_WORDS[0]}") help subs i
  help=$("${cmd[@]}" --help 2>/dev/null) || return
  # Walk the subcommands typed so far (port-check skills install ...).
  for ((i = 1; i < COMP_CWORD; i++)); do
    subs=$(_port_check_section "$help" Subcommands | awk '{ print $1 }')
    if grep -qxF -- "${COMP_WORDS[i]}" <<<"$subs"; then
      cmd+=("${COMP_WORDS[i]}")
      help=$("${cmd[@]}" --help 2>/dev/null) || return
    fi
  done
  local options
  options=$(_port_check_section "$help" Options)
  COMPREPLY=()
  # The value of an option: its choices (TEXT:{a,b}), else files (complete -o default).
  if [[ $prev == -* ]]; then
    local line
    line=$(_port_check_options "$options" | awk -F '\t' -v opt="$prev" '$1 == opt { print $2 }')
    if [[ $line =~ :\{([^}]*)\} ]]; then
      COMPREPLY=($(compgen -W "${BASH_REMATCH[1]//,/ }" -- "$cur"))
      return
    fi
    [[ $line =~ ^\ +[^\ ]+\ +[A-Z]+([\ :]|$) ]] && return
  fi
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$(_port_check_options "$options" | cut -f1)" -- "$cur"))
    return
  fi
  # `rules ID`: the rule IDs of the binary's own catalogue (the first word of each `port-check rules` line).
  if [[ ${cmd[-1]} == rules && ${#cmd[@]} -ge 2 ]]; then
    COMPREPLY=($(compgen -W "$("${cmd[@]}" 2>/dev/null | awk '$1 ~ /^[A-Z]+[0-9]+$/ { print $1 }')" -- "$cur"))
    return
  fi
  # Subcommands, and positional words listed as "a | b | c" (hook install | uninstall | run).
  local words
  words=$(_port_check_section "$help" Subcommands | awk '{ print $1 }')
  words+=" "$(_port_check_section "$help" Positionals |
    sed -nE 's/^ +[^ ]+ [A-Z ."]+ +([a-z-]+( \| [a-z-]+)+) *$/\1/p' | tr -d '|')
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _port_check port-check
