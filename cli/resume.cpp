#include "cli/resume.hpp"

#include "client/remote_address.hpp"

namespace rio {

void resume_session(client::CoreLink& link, const std::string& id,
                    std::function<void(const Result<SessionResumeResult>&)> done) {
    auto resume = [&link, done](const std::string& which) {
        link.call(SessionResumeParams{which}, [done](const client::Typed<SessionResumeParams>& r) {
            if (!r) return done(r.error());
            done(*r);
        });
    };
    if (!id.empty()) return resume(id);
    link.call(SessionsListParams{}, [resume, done](const client::Typed<SessionsListParams>& l) {
        if (!l) return done(l.error());
        if (l->sessions.empty())
            return done(make_error(ErrorCode::not_found,
                                   "--continue: no earlier conversation in this project"));
        resume(l->sessions.front().id);
    });
}

std::string saved_session_hint(const std::string& session, const std::string& project) {
    return "the conversation so far is saved in session " + session +
           "; pick it up with: rio-cli --resume " + client::shell_quote(session) +
           (project.empty() ? "" : " " + client::shell_quote(project));
}

} // namespace rio
