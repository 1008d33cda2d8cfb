# bash completion for rio-cli (loaded by bash-completion)          -*- shell-script -*-
# Kept in step with `rio-cli --help` by tests/install/completions_test.py.

_rio_cli() {
    local cur prev words cword
    _init_completion -n = -n : || return

    case $prev in
        --mode)
            COMPREPLY=($(compgen -W 'plan build' -- "$cur"))
            return ;;
        --approve-plans)
            COMPREPLY=($(compgen -W 'review auto never' -- "$cur"))
            return ;;
        --output)
            COMPREPLY=($(compgen -W 'text json events' -- "$cur"))
            return ;;
        --output-format)
            COMPREPLY=($(compgen -W 'text json stream-json' -- "$cur"))
            return ;;
        --provider)
            if [[ $cur == script:* ]]; then
                # script:FILE replays a file of model steps.
                local file=${cur#script:}
                COMPREPLY=($(compgen -f -- "$file"))
                COMPREPLY=("${COMPREPLY[@]/#/script:}")
                compopt -o filenames 2>/dev/null
            else
                COMPREPLY=($(compgen -W 'anthropic openai echo script:' -- "$cur"))
                [[ ${COMPREPLY[*]} == script: ]] && compopt -o nospace 2>/dev/null
            fi
            __ltrim_colon_completions "$cur"
            return ;;
        --project)
            _filedir -d
            return ;;
        -p | --print | --connect | --token | --model | -r | --resume)
            return ;; # free text: a task, an address, a token, a model, a session id
    esac

    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '-h --help --version --project -p --print --mode
            --approve-plans --approve-edits --allow-commands --trust-project --output
            --output-format --model -r --resume -c --continue --provider --connect
            --token' -- "$cur"))
        return
    fi
    _filedir -d # the project folder
}
complete -F _rio_cli rio-cli
