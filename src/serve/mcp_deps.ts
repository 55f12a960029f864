/**
 * The one place the server side of the MCP SDK is imported. Deno applies the SDK's
 * `"./*": {"types": "./dist/esm/*.d.ts"}` export pattern literally, so each `.js` subpath would
 * lose its types (modelcontextprotocol/typescript-sdk#2701); the `@ts-types` line above each
 * re-export points the type checker at the real declaration file. Only src/serve imports this,
 * and only the mcp/serve commands load src/serve (lazily), so `hint` never pays for the SDK.
 */

// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/index"
export { Server } from "npm:@modelcontextprotocol/sdk@1.32.2/server/index.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/stdio"
export { StdioServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/stdio.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp"
export { WebStandardStreamableHTTPServerTransport } from "npm:@modelcontextprotocol/sdk@1.32.2/server/webStandardStreamableHttp.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export {
  CallToolRequestSchema,
  ErrorCode,
  isInitializeRequest,
  ListToolsRequestSchema,
} from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/types"
export type { CallToolResult, Tool } from "npm:@modelcontextprotocol/sdk@1.32.2/types.js";
// @ts-types="npm:@modelcontextprotocol/sdk@1.32.2/shared/transport"
export type { Transport } from "npm:@modelcontextprotocol/sdk@1.32.2/shared/transport.js";
