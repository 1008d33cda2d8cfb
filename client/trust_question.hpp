// The trust question every frontend asks (DESIGN §12; decisions 0047, 0048), in one place:
// whether there is anything to ask, what to say, and the answer that names exactly what the
// person was shown, so that the core trusts nothing else.
#pragma once

#include "protocol/messages.hpp"

#include <string>
#include <vector>

namespace rio::client {

// An untrusted project in which trusting would change something: it has power-granting
// files, the user has allow rules that apply only in trusted projects, or language or MCP
// servers wait for trust to start.
bool trust_matters(const ProjectTrustState& trust);

// The question's sentences, the project's own words (paths, rules, server commands) as they
// came: a painter makes them safe for its medium.
std::vector<std::string> trust_reasons(const ProjectTrustState& trust);

// project.trust.set {trust: true, files} for the files as shown.
ProjectTrustSetParams trust_answer(const ProjectTrustState& shown);

} // namespace rio::client
