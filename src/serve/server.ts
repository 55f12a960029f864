/**
 * The MCP protocol layer: the SDK's low-level `Server`, answering tools/list with the contract's
 * tool list verbatim and tools/call through the tool set. One `Server` per connection (stdio) or
 * per session (HTTP); all of them share one tool set, hence one Recaller.
 */
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  Server,
  type Tool,
} from "./mcp_deps.ts";
import { type ToolSet, UnknownToolError } from "./tools.ts";
import { checkSchema, validate } from "./validate.ts";

/**
 * A JSON-RPC error for the protocol layer to send as it is: the SDK's McpError would prefix its
 * message with "MCP error <code>: ", and clients prefix it again.
 */
export class RpcError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = "RpcError";
    this.code = code;
  }
}

export interface ServerIdentity {
  readonly version: string;
}

/**
 * A JSON Schema validator for the SDK (it validates elicitation answers, which this server never
 * asks for). Ours, shared: the SDK's default builds an Ajv instance for every Server.
 */
const schemaValidator = {
  getValidator<T>(schema: unknown) {
    const problems = checkSchema(schema);
    return (input: unknown) => {
      const found = problems.length > 0 ? problems : validate(schema as Record<string, unknown>, input);
      return found.length === 0
        ? { valid: true as const, data: input as T, errorMessage: undefined }
        : { valid: false as const, data: undefined, errorMessage: found.join("; ") };
    };
  },
};

/** A protocol server for one connection or session, serving `tools`. */
export function createMcpServer(tools: ToolSet, identity: ServerIdentity): Server {
  const server = new Server(
    { name: tools.contract.server.name, version: identity.version },
    {
      capabilities: { tools: { listChanged: false } },
      instructions: tools.contract.server.instructions,
      jsonSchemaValidator: schemaValidator,
    },
  );
  // The contract's objects are served as they are: tools/list is the file's list, verbatim.
  const list = { tools: tools.tools as unknown as Tool[] };
  server.setRequestHandler(ListToolsRequestSchema, () => list);
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    try {
      const result = await tools.call(request.params.name, request.params.arguments);
      return {
        content: [{ type: "text", text: result.text }],
        ...(result.isError ? { isError: true } : {}),
      };
    } catch (err) {
      if (err instanceof UnknownToolError) throw new RpcError(ErrorCode.InvalidParams, err.message);
      throw err;
    }
  });
  return server;
}
