/**
 * The process-wide stop signal: aborted when the launcher is asked to stop (SIGINT/SIGTERM).
 * Long-running commands (serve, mcp) listen to it to close cleanly.
 */
export const stopSignal: AbortController = new AbortController();
