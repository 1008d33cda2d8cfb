# fish completion for rio-cli. Kept in step with `rio-cli --help` by
# tests/install/completions_test.py.

function __rio_cli_providers
    set -l token (commandline -ct)
    if string match -q -- 'script:*' $token
        # script:FILE replays a file of model steps.
        __fish_complete_path (string replace -- script: '' $token) | string replace -r -- '^' script:
    else
        printf '%s\n' anthropic openai echo script:
    end
end

# The one positional argument is the project folder.
complete -c rio-cli -f -a '(__fish_complete_directories (commandline -ct))'
complete -c rio-cli -s h -l help -d 'Print help and exit'
complete -c rio-cli -l version -d 'Print the version and the commit it was built from'
complete -c rio-cli -l project -x -a '(__fish_complete_directories (commandline -ct))' -d 'Project folder'
complete -c rio-cli -s p -l print -x -d 'Run this task headless and print the result'
complete -c rio-cli -l mode -x -a 'plan build' -d 'Start in plan or build mode'
complete -c rio-cli -l approve-plans -x -a 'review auto never' -d 'Headless: approve presented plans with this policy'
complete -c rio-cli -l approve-edits -d "Headless: apply the agent's edits"
complete -c rio-cli -l allow-commands -d "Headless: run the agent's commands"
complete -c rio-cli -l trust-project -d "Headless: trust the project: your allow-list, its .rio/allow and .mcp.json"
complete -c rio-cli -l output -x -a 'text json events' -d "Headless output in rio's shapes"
complete -c rio-cli -l output-format -x -a 'text json stream-json' -d "Headless output in Claude Code's shapes"
complete -c rio-cli -l model -x -d 'The model to use'
complete -c rio-cli -s r -l resume -x -d 'Continue the saved conversation with this id'
complete -c rio-cli -s c -l continue -d "Continue this project's most recent conversation"
complete -c rio-cli -l provider -x -a '(__rio_cli_providers)' -d 'Provider for a private core'
complete -c rio-cli -l connect -x -d 'Use a running core at unix:PATH or HOST:PORT'
complete -c rio-cli -l token -x -d "With --connect HOST:PORT: the core's token"
