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

_profcat_okeys()   # _profcat_okeys PROG: KEY=VALUES lines of -O keys
{
	# --list-formats -v: "    -O endian=little|le|big|be (default little)"
	"$1" --list-formats -v 2>/dev/null |
		sed -n 's/^ *-O \([a-z][a-z0-9-]*=[^ ]*\).*/\1/p' | sort -u
}

_profcat_ovalues()   # _profcat_ovalues PROG KEY: the values KEY takes
{
	local line values
	_profcat_okeys "$1" | while IFS= read -r line; do
		values=${line#*=}
		[[ ${line%%=*} == "$2" && $values != \<* ]] &&
			printf '%s\n' ${values//|/ }
	done | sort -u
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

	# -O KEY=VALUE: the keys of the loaders, reports and exports (KEY=, no
	# space after it; --list-formats -v lists them all), then the
	# values a key lists; bash splits the word at '=' (COMP_WORDBREAKS)
	local p2= p3=
	((COMP_CWORD > 1)) && p2=${COMP_WORDS[COMP_CWORD - 2]}
	((COMP_CWORD > 2)) && p3=${COMP_WORDS[COMP_CWORD - 3]}
	if [[ $prev == = && ($p3 == -O || $p3 == --option) ]]; then
		COMPREPLY=($(compgen -W "$(_profcat_ovalues "$prog" "$p2")" -- "$cur"))
		return 0
	elif [[ $cur == = && ($p2 == -O || $p2 == --option) ]]; then
		COMPREPLY=($(_profcat_ovalues "$prog" "$prev"))
		return 0
	elif [[ $prev == -O || $prev == --option ]]; then
		if [[ $cur == *=* ]]; then
			words=$(_profcat_ovalues "$prog" "${cur%%=*}" | sed "s/^/${cur%%=*}=/")
		else
			words=$(_profcat_okeys "$prog" | sed 's/=.*/=/' | sort -u)
			compopt -o nospace 2>/dev/null
		fi
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return 0
	fi

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
	-o|--output|--trace-dialect)
		COMPREPLY=($(compgen -f -- "$cur"))
		return 0 ;;
	--load-address|--cutoff|--interval|--intervals|--ci|\
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
