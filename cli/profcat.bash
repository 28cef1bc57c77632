# bash completion for profcat(1).  Installed as
# $datadir/bash-completion/completions/profcat; to try it from a checkout:
#   source cli/profcat.bash
# Options and the names of formats, reports and exports come from the
# profcat being completed (its --help and --list-* output), so the
# completion always matches the program, plugins included.

_profcat_names()   # _profcat_names PROG --list-X: first column of each row
{
	"$1" "$2" 2>/dev/null | while read -r name _; do
		case $name in
		name|'') ;;   # the --list-formats heading
		*) printf '%s\n' "$name" ;;
		esac
	done
}

_profcat()
{
	local prog=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev= sub= words i
	((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	case $prog in
	*/*) [[ -x $prog ]] || prog=profcat ;;
	esac
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		diff|merge|rates) sub=${COMP_WORDS[i]}; break ;;
		-*) ;;
		*) break ;;
		esac
	done

	case $prev in
	-f|--format)
		words="auto $(_profcat_names "$prog" --list-formats)" ;;
	-r|--report)
		words=$(_profcat_names "$prog" --list-reports) ;;
	-e|--export)
		words=$(_profcat_names "$prog" --list-exports) ;;
	-F|--output-format)
		words="text csv json html" ;;
	--style)
		words="default atari ddj prohst gprof proff" ;;
	--attribution)
		words="proportional bucket-start" ;;
	--percent-of)
		words="program total" ;;
	--correction)
		words="holm bh" ;;
	--sort)
		words="self cum calls name address" ;;
	--granularity)
		words="function line file address symbol" ;;
	--callgraph-time)
		words="samples flat" ;;
	--source-path)
		COMPREPLY=($(compgen -d -- "$cur"))
		return 0 ;;
	-o|--output)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	-O|--option|--load-address|--cutoff|--interval|--intervals|--ci|\
	-s|--symbol|-n|--top|--focus|--ignore|--hide)
		return 0 ;;   # a value of the user's: nothing to offer
	esac
	if [[ -n $words ]]; then
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi
	if [[ $cur == -* ]]; then
		if [[ -n $sub ]]; then
			words=$("$prog" "$sub" --help 2>/dev/null)
		else
			words=$("$prog" --help 2>/dev/null)
		fi
		words=$(printf '%s\n' "$words" | grep -o -- '--[a-z][a-z-]*' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "diff merge rates" -- "$cur"))
	fi
	COMPREPLY+=($(compgen -f -- "$cur"))
	return 0
}
complete -o filenames -F _profcat profcat
