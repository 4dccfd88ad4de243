/**
 * The Claude Code tools whose `command` is a shell command the guard checks (R-CON-3): Bash, and
 * PowerShell, through which Claude Code on Windows routes shell commands wherever that tool is on,
 * and without Git Bash registers no Bash tool at all (hooks reference, PreToolUse: PowerShell).
 * A module of its own: the guard's bundle loads it, and install-hooks writes its matcher from it.
 */
export const GUARDED_TOOLS: readonly string[] = ['Bash', 'PowerShell']
