// Whether a provider's refusal means "the conversation does not fit the model's window"
// (DESIGN §18): that is no bug in how rio built the request but a state the loop recovers
// from by compacting, so it gets its own code, context_full.
#pragma once

#include <string_view>

namespace rio {

// `status` is the HTTP status (0 for an error event inside a stream); `text` is the error
// body or the event's JSON. The wordings are the ones each server family sends:
//   Anthropic    400 invalid_request_error "prompt is too long: 213462 tokens > 200000 maximum"
//   OpenAI       400 code "context_length_exceeded" ("This model's maximum context length is …")
//   llama.cpp    400 type "exceed_context_size_error" ("request (4476 tokens) exceeds the
//                available context size (4096 tokens)"; older: "the request exceeds the
//                available context size, try increasing it")
//   vLLM         400 "This model's maximum context length is 4096 tokens. However, you
//                requested 5000 tokens …" / "… and your request has 2778 input tokens"
//   Ollama       400 "the input length exceeds the context length"
bool is_context_overflow(int status, std::string_view text);

} // namespace rio
