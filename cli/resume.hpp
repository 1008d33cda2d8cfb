// --resume ID and --continue (DESIGN §14), for headless runs and the interactive session
// alike: continue a saved session by id, or "" for this project's most recent one.
#pragma once

#include "client/core_link.hpp"

#include <functional>
#include <string>

namespace rio {

void resume_session(client::CoreLink& link, const std::string& id,
                    std::function<void(const Result<SessionResumeResult>&)> done);

} // namespace rio
