#include "core/dispatch.hpp"

#include "core/params.hpp"

#include <stdexcept>

namespace rio {

void Dispatcher::add(std::string op, Handler handler) {
    if (handlers_.count(op)) throw std::logic_error("op registered twice: " + op);
    handlers_.emplace(std::move(op), std::move(handler));
}

std::vector<std::string> Dispatcher::ops() const {
    std::vector<std::string> names;
    for (const auto& [name, handler] : handlers_)
        names.push_back(name);
    return names;
}

std::string Dispatcher::handle(std::string_view line, ClientId client) const {
    auto parsed = parse_request(line);
    if (auto* failure = std::get_if<RequestError>(&parsed))
        return format_error(failure->id, failure->error);
    const Request& request = std::get<Request>(parsed);
    Result<Json> outcome = run(request, client);
    return outcome ? format_result(request.id, *outcome)
                   : format_error(request.id, outcome.error());
}

std::string Dispatcher::refuse_oversize(std::size_t length, std::size_t limit) const {
    return format_error(nullptr, make_error(ErrorCode::bad_request,
                                            "line of " + std::to_string(length) +
                                                " bytes exceeds the limit of " +
                                                std::to_string(limit) + " bytes; it was dropped"));
}

Result<Json> Dispatcher::run(const Request& request, ClientId client) const {
    auto it = handlers_.find(request.op);
    if (it == handlers_.end())
        return make_error(ErrorCode::unknown_op, "unknown op '" + request.op + "'");
    try {
        return it->second(Call{request.params, client});
    } catch (const ParamError& e) {
        return make_error(ErrorCode::bad_request, request.op + ": " + e.what());
    } catch (const Json::exception& e) {
        return make_error(ErrorCode::bad_request, request.op + ": " + e.what());
    } catch (const std::exception& e) {
        return make_error(ErrorCode::internal, request.op + " failed unexpectedly: " + e.what());
    }
}

} // namespace rio
