/**
 * The MCP SDK's client side, for tests and the benchmark only (the server never loads it). Same
 * `@ts-types` fix as mcp_deps.ts. Loading client/stdio.js reads the environment (cross-spawn →
 * which reads OSTYPE), so a caller that needs HTTP only should not import StdioClientTransport
 * under a narrow env grant.
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/index"
export { Client } from "npm:@modelcontextprotocol/sdk@1.32.2/client/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp"
export { StreamableHTTPClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/streamableHttp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/client/stdio"
export { StdioClientTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/client/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/inMemory"
export { InMemoryTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/inMemory.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export { McpError } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
