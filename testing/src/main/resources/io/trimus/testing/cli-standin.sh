#!/bin/sh
# Trimus test stand-in for the `claude` and `codex` CLIs (installed under both names; the name picks the flavour).
# Prints what it was started with, runs the @directives found in the prompt (the argument after `--`), then ends
# with a JSON line as the CLI's last (one without an answer or usage, so the run's output stays this printout;
# `@result JSON` prints JSON instead). POSIX sh: runs under dash and busybox sh.
name=${0##*/}
nl='
'
code=0
fg=
result=

# Backslash-n for every newline, so that each argv value stays on one output line.
oneline() {
    rest=$1 out=
    while :; do
        case $rest in
            *"$nl"*) out="$out${rest%%"$nl"*}\\n"; rest=${rest#*"$nl"} ;;
            *) printf '%s\n' "$out$rest"; return ;;
        esac
    done
}

# Foreground work runs as a background job plus wait, because a shell (PID 1 in a container above all) runs a
# trap only once its foreground command has finished; `wait` is interrupted by the signal instead.
run_fg() {
    "$@" &
    fg=$!
    wait "$fg"
    rc=$?
    fg=
    return $rc
}

on_signal() {
    [ -n "$fg" ] && kill "$fg" 2>/dev/null
    echo "signal=$1"
    exit "$2"
}
trap 'on_signal TERM 143' TERM
trap 'on_signal INT 130' INT

lookup() {
    if command -v nslookup >/dev/null 2>&1; then
        answer=$(nslookup "$1" 2>&1)
    else
        answer=$(busybox nslookup "$1" 2>&1)
    fi
    # The server's own "Address:" line comes before the first "Name:" line.
    ip=$(printf '%s\n' "$answer" | awk '/^Name:/ { seen = 1 }
        seen && /^Address/ { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+\.[0-9]+\.[0-9]+$/) { print $i; exit } }')
    if [ -n "$ip" ]; then
        echo "lookup $1 -> $ip"
    elif printf '%s\n' "$answer" | grep -q NXDOMAIN; then
        echo "lookup $1 -> NXDOMAIN"
    else
        why=$(printf '%s\n' "$answer" | grep -i -E "can't find|timed out|unreachable|refused|error|fail" | head -n 1)
        [ -n "$why" ] || why=$(printf '%s\n' "$answer" | grep -v '^[[:space:]]*$' | tail -n 1)
        case $why in
            *"an't find"*) why=${why##*: } ;;
            *) why=$(printf '%s' "$why" | sed 's/^[*; ]*//') ;;
        esac
        echo "lookup $1 -> ERROR $why"
    fi
}

echo "standin=$name"
echo "cwd=$(pwd)"
echo "uid=$(id -u)"
echo "argc=$#"
i=0
prompt=
after_dashes=
for arg in "$@"; do
    printf 'argv[%d]=' "$i"
    oneline "$arg"
    if [ "$after_dashes" = 1 ]; then
        prompt=$arg
        after_dashes=2
    elif [ -z "$after_dashes" ] && [ "$arg" = -- ]; then
        after_dashes=1
    fi
    i=$((i + 1))
done
env | LC_ALL=C sort | sed 's/^/env:/'

set -f
IFS=$nl
for line in $prompt; do
    unset IFS
    case $line in
        @*) ;;
        *) IFS=$nl; continue ;;
    esac
    directive=${line%% *}
    value=${line#"$directive"}
    value=${value# }
    case $directive in
        @sh)
            run_fg sh -c "$value"
            echo "sh-exit=$?"
            ;;
        @lookup) lookup "$value" ;;
        @sleep)
            run_fg sleep "$value"
            echo "slept $value"
            ;;
        @spawn-sleeper)
            # Left running on purpose (stdout and stderr inherited): tests check that the whole tree is killed.
            sleep "$value" </dev/null &
            echo "sleeper-pid=$!"
            ;;
        @print-env)
            case $value in
                '' | [0-9]* | *[!A-Za-z0-9_]*) echo "bad-env-name=$value" ;;
                *) eval "echo \"\$value=\${$value-}\"" ;;
            esac
            ;;
        @result)
            # the CLI's JSON line, printed last instead of the stand-in's own (which carries no answer)
            result=$value
            ;;
        @exit)
            case $value in
                '' | *[!0-9]*) code=2 ;;
                *) code=$value ;;
            esac
            break
            ;;
        *) echo "unknown-directive=$line" ;;
    esac
    IFS=$nl
done
unset IFS

if [ -n "$result" ]; then
    printf '%s\n' "$result"
elif [ "$name" = codex ]; then
    if [ "$code" = 0 ]; then echo '{"type":"turn.completed"}'; else echo '{"type":"turn.failed"}'; fi
elif [ "$code" = 0 ]; then
    echo '{"type":"result","subtype":"success","is_error":false}'
else
    echo '{"type":"result","subtype":"error_during_execution","is_error":true,"result":"stand-in done"}'
fi
exit "$code"
