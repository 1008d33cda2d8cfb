#include "core/dispatch.hpp"

#include "protocol/json_text.hpp"
#include "protocol/params.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

namespace rio {
namespace {

// Exceptions escaping a handler become error responses naming the op.
Error from_exception(const std::string& op) {
    try {
        throw;
    } catch (const ParamError& e) {
        return make_error(ErrorCode::bad_request, op + ": " + e.what());
    } catch (const Json::exception& e) {
        return make_error(ErrorCode::bad_request, op + ": " + e.what());
    } catch (const std::exception& e) {
        return make_error(ErrorCode::internal, op + " failed unexpectedly: " + e.what());
    }
}

} // namespace

void Dispatcher::add(std::string op, Handler handler) {
    add_async(std::move(op), [handler = std::move(handler)](const Call& call, const Reply& reply) {
        reply(handler(call));
    });
}

void Dispatcher::add_async(std::string op, AsyncHandler handler) {
    if (handlers_.count(op) || text_handlers_.count(op))
        throw std::logic_error("op registered twice: " + op);
    handlers_.emplace(std::move(op), std::move(handler));
}

void Dispatcher::add_text(std::string op, TextHandler handler) {
    if (handlers_.count(op) || text_handlers_.count(op))
        throw std::logic_error("op registered twice: " + op);
    text_handlers_.emplace(std::move(op), std::move(handler));
}

std::vector<std::string> Dispatcher::ops() const {
    std::vector<std::string> names;
    for (const auto& [name, handler] : handlers_)
        names.push_back(name);
    for (const auto& [name, handler] : text_handlers_)
        names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
}

void Dispatcher::handle(std::string_view line, ClientId client, const Respond& respond) const {
    auto parsed = parse_request(line);
    if (auto* failure = std::get_if<RequestError>(&parsed)) {
        respond(format_error(failure->id, failure->error));
        return;
    }
    Request& request = std::get<Request>(parsed);
    if (auto text = text_handlers_.find(request.op); text != text_handlers_.end()) {
        std::string line = begin_result_text(request.id);
        Status status = Ok{};
        try {
            status = text->second(Call{request.params, client}, line);
        } catch (...) {
            status = from_exception(request.op);
        }
        if (!status) return respond(format_error(request.id, status.error()));
        end_result_text(line);
        return respond(std::move(line));
    }
    auto it = handlers_.find(request.op);
    if (it == handlers_.end()) {
        respond(format_error(request.id,
                             make_error(ErrorCode::unknown_op, "unknown op '" + request.op + "'")));
        return;
    }
    // Exactly one response, even if a handler replies and then throws.
    auto replied = std::make_shared<bool>(false);
    Reply reply = [id = request.id, respond, replied](Result<Json> outcome) {
        if (std::exchange(*replied, true)) return;
        respond(outcome ? format_result(id, *outcome) : format_error(id, outcome.error()));
    };
    try {
        it->second(Call{request.params, client}, reply);
    } catch (...) {
        reply(from_exception(request.op));
    }
}

std::string Dispatcher::refuse_oversize(std::size_t length, std::size_t limit) const {
    return format_error(nullptr, make_error(ErrorCode::bad_request,
                                            "line of " + std::to_string(length) +
                                                " bytes exceeds the limit of " +
                                                std::to_string(limit) + " bytes; it was dropped"));
}

} // namespace rio
