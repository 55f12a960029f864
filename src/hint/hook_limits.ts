/**
 * The hook's stdin limit, in a module of its own: the warm helper's client (src/warm/client.ts)
 * reads stdin with it before anything else is loaded, the launcher reads a hook's stdin with it,
 * and run.ts re-exports it.
 */

/** Largest stdin accepted (hook JSON carries the prompt; Claude Code sends far less). */
export const HINT_MAX_STDIN = 4 * 1024 * 1024;
