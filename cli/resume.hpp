// --resume ID and --continue (DESIGN §14), for headless runs and the interactive session
// alike: continue a saved session by id, or "" for this project's most recent one.
#pragma once

#include "client/core_link.hpp"

#include <functional>
#include <string>

namespace rio {

void resume_session(client::CoreLink& link, const std::string& id,
                    std::function<void(const Result<SessionResumeResult>&)> done);

// How to go on with a saved session after its core went away: `rio-cli --resume ID
// PROJECT` (a session resumes only in its own project). Beside the far one's
// (client::far_resume_hint).
std::string saved_session_hint(const std::string& session, const std::string& project);

} // namespace rio
