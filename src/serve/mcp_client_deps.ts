/**
 * The MCP SDK's client side, for tests and the benchmark only (the server never loads it). Same
 * `@ts-types` fix as mcp_deps.ts. Loading client/stdio.js reads the environment (cross-spawn →
 * which reads OSTYPE), so a caller that needs HTTP only should not import StdioClientTransport
 * under a narrow env grant.
 */

// @ts-types="@modelcontextprotocol/sdk/client/index"
export { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
export { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
export { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
export { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export { McpError } from "@modelcontextprotocol/sdk/types.js";
