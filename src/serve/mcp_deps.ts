/**
 * The one place the server side of the MCP SDK is imported. Deno applies the SDK's
 * `"./*": {"types": "./dist/esm/*.d.ts"}` export pattern literally, so each `.js` subpath would
 * lose its types (modelcontextprotocol/typescript-sdk#2701); the `@ts-types` line above each
 * re-export points the type checker at the real declaration file. Only src/serve imports this,
 * and only the mcp/serve commands load src/serve (lazily), so `hint` never pays for the SDK.
 */

// @ts-types="@modelcontextprotocol/sdk/server/index"
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
// @ts-types="@modelcontextprotocol/sdk/server/stdio"
export { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
// @ts-types="@modelcontextprotocol/sdk/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListToolsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/types"
export type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
// @ts-types="@modelcontextprotocol/sdk/shared/transport"
export type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
