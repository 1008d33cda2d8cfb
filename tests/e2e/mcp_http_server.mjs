// A Streamable HTTP MCP server made with the real @modelcontextprotocol/sdk, for rio's MCP
// client test: one read-only tool, "echo", behind a bearer token. Prints
// "listening on PORT" to stderr once it accepts connections on 127.0.0.1.
//   node mcp_http_server.mjs TOKEN
import http from "node:http";
import crypto from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

// Node 18 has no global crypto in module code, which the SDK's transport calls.
globalThis.crypto ??= crypto.webcrypto;

const token = process.argv[2];
const sessions = new Map();

function makeServer() {
  const server = new McpServer({ name: "echo-http", version: "0.0.1" });
  server.registerTool(
    "echo",
    {
      description: "Says the text back",
      inputSchema: { text: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: "text", text: "echo: " + text }] }),
  );
  return server;
}

const httpServer = http.createServer(async (req, res) => {
  if (req.headers.authorization !== "Bearer " + token) {
    res.writeHead(401, { "content-type": "text/plain" }).end("wrong token");
    return;
  }
  let body = "";
  for await (const chunk of req) body += chunk;
  const id = req.headers["mcp-session-id"];
  let transport = id ? sessions.get(id) : undefined;
  if (id && !transport) {
    res.writeHead(404).end("no such session");
    return;
  }
  if (!transport) {
    transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (sid) => sessions.set(sid, transport),
    });
    await makeServer().connect(transport);
  }
  await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
});
httpServer.listen(0, "127.0.0.1", () => {
  process.stderr.write("listening on " + httpServer.address().port + "\n");
});
