#!/usr/bin/env bash
# usage: cmake/help_files.sh GORDIAN OUTDIR
# Writes, from the --help texts of the gordian binary GORDIAN (`gordian
# --help`, `gordian <command> --help`) and its `gordian version`, so that
# they say what the binary says:
#   OUTDIR/gordian.1       the man page: the command list, then each
#                          command's usage text and its flags
#   OUTDIR/gordian.bash    bash completion: commands, each command's flags
#                          and its subcommands (trace dump, cache clean, ...)
#   OUTDIR/_gordian        zsh completion: the same, with descriptions
# Run at build time (cmake/install.cmake). A command's flags are the lines
# "  -name [METAVAR]  help" of its flag table and the -flags its usage lines
# name; its subcommands are the lowercase words of its usage lines outside
# brackets, or alone in them ("[clean]"), but the placeholders
# flags/package/packages.
set -euo pipefail
G=$1
out=$2
mkdir -p "$out"
version=$("$G" version | awk 'NR == 1 { print $2 }')
help=$("$G" --help)
summary=$(printf '%s\n' "$help" | sed -n '1{s/^gordian //;s/\.$//;p}')
mapfile -t commands < <(printf '%s\n' "$help" | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ { print $1 }')
[ ${#commands[@]} -gt 0 ] || { echo "help_files.sh: no commands in '$G --help'" >&2; exit 1; }

# A --help text is its description, then its flag table: the lines
# "  -name [METAVAR] help" after the last line that is not one (and an
# optional "Flags:" heading).
flag_re='^  -[A-Za-z0-9][A-Za-z0-9-]*( [A-Z][^ ]*)? +[^ ]|^  -[A-Za-z0-9][A-Za-z0-9-]*$'
# The flag table of one --help text: "NAME<US>METAVAR<US>HELP" lines (US:
# the unit separator, so that an empty METAVAR survives read).
flag_table() {
  awk -v re="$flag_re" '{ line[NR] = $0; if ($0 !~ re && $0 != "") last = NR }
       END { for (i = last + 1; i <= NR; i++) {
         if (line[i] !~ re) continue
         match(line[i], /^  -[A-Za-z0-9-]+/)
         name = substr(line[i], 4, RLENGTH - 3); rest = substr(line[i], RLENGTH + 1); meta = ""
         if (match(rest, /^ [A-Z][^ ]*/)) { meta = substr(rest, 2, RLENGTH - 1); rest = substr(rest, RLENGTH + 1) }
         sub(/^ +/, "", rest)
         printf "%s\x1f%s\x1f%s\n", name, meta, rest } }'
}
# The description of one --help text: all before its flag table, without
# the "Flags:" heading and trailing blank lines.
description() {
  awk -v re="$flag_re" '{ line[NR] = $0; if ($0 !~ re && $0 != "") last = NR }
       END { if (line[last] == "Flags:") last--
             while (last > 0 && line[last] == "") last--
             for (i = 1; i <= last; i++) print line[i] }'
}
US=$'\x1f'
# The usage lines of one --help text (usage: gordian CMD ..., and the
# indented "gordian CMD ..." lines that follow it).
usage_lines() {
  awk -v c="$1" '$1 == "usage:" && $2 == "gordian" && $3 == c { u = 1; sub(/^usage: /, ""); print; next }
                 u && $1 == "gordian" && $2 == c { sub(/^ +/, ""); print; next }
                 { u = 0 }'
}
# -flags named in usage lines, one a line.
usage_flags() {
  awk '{ for (i = 3; i <= NF; i++) { t = $i; gsub(/^\[+|\]+$|\.\.\.$|\]+$/, "", t)
         if (t ~ /^--?[A-Za-z][A-Za-z0-9-]*$/) print t } }'
}
# Subcommands named in usage lines, one a line.
usage_subcommands() {
  awk '{ depth = 0
         for (i = 3; i <= NF; i++) {
           t = $i
           if (t ~ /^\[[a-z]+\]$/) { w = substr(t, 2, length(t) - 2)
             if (depth == 0 && w != "flags" && w != "package" && w != "packages") print w
             continue }
           if (depth == 0 && t ~ /^[a-z]+$/) print t
           n = split(t, ch, ""); for (k = 1; k <= n; k++) { if (ch[k] == "[") depth++; if (ch[k] == "]") depth-- }
         } }' | awk '!seen[$0]++'
}
# roff: backslashes, and a leading . or ' that would be a request.
roff() { sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"; }
# A flag name for roff: every - as \-.
roff_flag() { printf '%s' "$1" | sed 's/-/\\-/g'; }

declare -A chelp cflags csubs
for c in "${commands[@]}"; do
  chelp[$c]=$("$G" "$c" --help)
  flags=$( { printf '%s\n' "${chelp[$c]}" | flag_table | cut -d "$US" -f1 | sed 's/^/-/'
             printf '%s\n' "${chelp[$c]}" | usage_lines "$c" | usage_flags
             echo --help; } | awk '{ k = $0; sub(/^--/, "-", k) } !seen[k]++' | tr '\n' ' ')
  cflags[$c]=${flags% }
  subs=$(printf '%s\n' "${chelp[$c]}" | usage_lines "$c" | usage_subcommands | tr '\n' ' ')
  csubs[$c]=${subs% }
done

# ---- The man page ---------------------------------------------------------
{
  echo '.\" Generated from the --help texts of gordian by cmake/help_files.sh: do not edit.'
  echo ".TH GORDIAN 1 \"\" \"gordian $version\" \"User Commands\""
  echo '.SH NAME'
  echo "gordian \\- $summary"
  echo '.SH SYNOPSIS'
  echo '.B gordian'
  echo '.I command'
  echo '.RI [ arguments ]'
  echo '.br'
  echo '.B gordian'
  echo '.I command'
  echo '.B \-\-help'
  echo '.br'
  echo '.B gordian \-\-version'
  echo '.SH DESCRIPTION'
  printf '%s\n' "$help" | sed -n '1p' | roff
  echo '.PP'
  printf '%s\n' "$help" | awk '/^Run / { f = 1 } f && !/^Exit status/' | roff
  echo '.SH COMMANDS'
  printf '%s\n' "$help" | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ {
      name = $1; sub(/^  [a-z]+ +/, ""); printf ".TP\n.B %s\n%s\n", name, $0 }' | sed '/^\.[TB]/!{s/\\/\\e/g}'
  for c in "${commands[@]}"; do
    echo ".SS \"gordian $c\""
    echo '.nf'
    printf '%s\n' "${chelp[$c]}" | description | roff
    echo '.fi'
    table=$(printf '%s\n' "${chelp[$c]}" | flag_table)
    if [ -n "$table" ]; then
      echo '.PP'
      echo 'Flags:'
      while IFS=$US read -r name meta text; do
        echo '.TP'
        if [ -n "$meta" ]; then
          echo ".BI \\-$(roff_flag "$name") \" $meta\""
        else
          echo ".B \\-$(roff_flag "$name")"
        fi
        printf '%s\n' "$text" | roff
      done <<< "$table"
    fi
  done
  echo '.SH EXIT STATUS'
  printf '%s\n' "$help" | sed -n 's/^Exit status: //p' | roff
  echo 'Each command'"'"'s section above says what its statuses mean.'
  echo '.SH ENVIRONMENT'
  echo '.TP'
  echo '.B GORDIAN_CACHE'
  echo 'the cache directory (default: $XDG_CACHE_HOME/gordian, else ~/.cache/gordian)'
  echo '.TP'
  echo '.B GORDIAN_GO'
  echo 'the go command to use (default: go on PATH)'
  echo '.SH FILES'
  echo '.TP'
  echo '.I <prefix>/share/gordian'
  echo 'the Go runtime hooks (runtime/std) and the IR generator'"'"'s sources (irgen),'
  echo 'found beside the binary; the generator is built with your Go on first use'
  echo '.SH SEE ALSO'
  echo '.BR go (1);'
  echo 'the README and docs/ in <prefix>/share/doc/gordian'
} > "$out/gordian.1"

# ---- bash completion --------------------------------------------------------
{
  echo '# bash completion for gordian: generated from its --help texts by'
  echo '# cmake/help_files.sh (do not edit). Commands, then a command'"'"'s flags and'
  echo '# subcommands; anything else completes as a file name.'
  echo '_gordian() {'
  echo '  local cur=${COMP_WORDS[COMP_CWORD]} words=""'
  echo '  if [ "$COMP_CWORD" -eq 1 ]; then'
  echo "    words=\"${commands[*]} help --help --version\""
  echo '  else'
  echo '    case ${COMP_WORDS[1]} in'
  for c in "${commands[@]}"; do
    if [ -n "${csubs[$c]}" ]; then
      echo "      $c) words=\"${cflags[$c]}\"; [ \"\$COMP_CWORD\" -eq 2 ] && words=\"${csubs[$c]} \$words\" ;;"
    else
      echo "      $c) words=\"${cflags[$c]}\" ;;"
    fi
  done
  echo "      help) [ \"\$COMP_CWORD\" -eq 2 ] && words=\"${commands[*]}\" ;;"
  echo '    esac'
  echo '  fi'
  echo '  COMPREPLY=($(compgen -W "$words" -- "$cur"))'
  echo '}'
  echo 'complete -o default -F _gordian gordian'
} > "$out/gordian.bash"

# ---- zsh completion ---------------------------------------------------------
zq() { printf '%s' "$1" | sed "s/'/'\\\\''/g"; }
{
  echo '#compdef gordian'
  echo '# zsh completion for gordian: generated from its --help texts by'
  echo '# cmake/help_files.sh (do not edit).'
  echo '_gordian() {'
  echo '  local -a items'
  echo '  if (( CURRENT == 2 )); then'
  echo '    items=('
  printf '%s\n' "$help" | awk '/^Commands:/ { f = 1; next } f && /^  [a-z]/ {
      name = $1; sub(/^  [a-z]+ +/, ""); printf "%s\t%s\n", name, $0 }' |
    while IFS=$'\t' read -r name text; do echo "      '$name:$(zq "$text")'"; done
  echo "      'help:the flags of one command'"
  echo '    )'
  echo "    _describe -t commands 'gordian command' items"
  echo '    return'
  echo '  fi'
  echo '  case $words[2] in'
  for c in "${commands[@]}"; do
    echo "    $c)"
    echo '      items=('
    table=$(printf '%s\n' "${chelp[$c]}" | flag_table)
    if [ -n "$table" ]; then
      while IFS=$US read -r name meta text; do
        echo "        '-$name:$(zq "${meta:+$meta: }$text")'"
      done <<< "$table"
    fi
    for f in ${cflags[$c]}; do
      printf '%s\n' "$table" | cut -d "$US" -f1 | grep -qxF -- "${f#-}" || echo "        '$f'"
    done
    echo '      )'
    if [ -n "${csubs[$c]}" ]; then
      echo "      (( CURRENT == 3 )) && [[ \$PREFIX != -* ]] && { compadd -- ${csubs[$c]}; return; }"
    fi
    echo '      ;;'
  done
  echo "    help) (( CURRENT == 3 )) && compadd -- ${commands[*]}; return ;;"
  echo '  esac'
  echo "  if [[ \$PREFIX == -* ]]; then _describe -t flags 'flag' items; else _files; fi"
  echo '}'
  echo '_gordian "$@"'
} > "$out/_gordian"
