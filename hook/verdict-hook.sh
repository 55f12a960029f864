#!/bin/sh
# verdict hook shim: runs "$VERDICT_BIN" (else `verdict` found on PATH) with the given hook
# sub-command, passing stdin through:
#
#   verdict-hook.sh user-prompt      # UserPromptSubmit
#   verdict-hook.sh pre-compact      # PreCompact
#   verdict-hook.sh session-start    # SessionStart, matcher "compact"
#
# When neither is there it exits 0 and prints nothing, so a broken install never blocks or
# marks a prompt. Otherwise verdict's own exit status is passed on (the hooks exit 0, except a
# PreCompact hook blocking a manual /compact, when configured to).
if [ -n "${VERDICT_BIN:-}" ]; then
  bin=$VERDICT_BIN
else
  bin=$(command -v verdict 2>/dev/null) || exit 0
fi
[ -x "$bin" ] || exit 0
exec "$bin" hook "$@"
