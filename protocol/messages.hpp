// The protocol's shapes (docs/protocol.md), one struct per op's params and result and per
// event, each with its JSON mapping (protocol/fields.hpp), one header per domain in
// protocol/messages/. A params struct names its op and its result type, an event its name,
// so a request or an event is sent and read typed. Free-form parts (a tool's input, an MCP
// call's arguments) stay JSON.
#pragma once

#include "protocol/messages/agent_events.hpp"
#include "protocol/messages/agent_ops.hpp"
#include "protocol/messages/agent_reports.hpp"
#include "protocol/messages/editor.hpp"
#include "protocol/messages/files.hpp"
#include "protocol/messages/git.hpp"
#include "protocol/messages/lsp.hpp"
#include "protocol/messages/mcp.hpp"
#include "protocol/messages/plans.hpp"
#include "protocol/messages/session.hpp"
#include "protocol/messages/terminals.hpp"
