// A real rio-core process for end-to-end tests: stdio is a LineClient, stderr goes to a
// file the test can read; the process is killed and reaped when the test ends.
#pragma once

#include "tests/support/line_client.hpp"
#include "tests/support/temp_dir.hpp"

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rio::test {

// The rio-core binary under test (set by the build; RIO_TEST_CORE names another).
std::string core_binary();

// The mode a rio-core a test starts is in. The suites were written for a core in build mode;
// a new core starts in the user's default_mode (plan unless configured), so they say so here,
// once: `build` adds `--mode build` unless the arguments name a mode. `configured` passes
// none, for the tests of default_mode itself.
enum class CoreMode { build, configured };

class CoreProcess {
public:
    // `env` entries are added to (and override) the test's environment. `program` is
    // rio-core unless a test needs another real process (the fake LLM server).
    explicit CoreProcess(const std::vector<std::string>& args,
                         const std::vector<std::string>& env = {},
                         const std::string& program = core_binary(),
                         CoreMode mode = CoreMode::build);
    ~CoreProcess();
    CoreProcess(const CoreProcess&) = delete;
    CoreProcess& operator=(const CoreProcess&) = delete;

    LineClient& stdio() { return stdio_; }
    pid_t pid() const { return pid_; }

    std::string stderr_text() const;
    // Waits until stderr contains `needle`; returns the whole stderr or throws on timeout.
    std::string wait_for_stderr(std::string_view needle,
                                std::chrono::milliseconds deadline = default_deadline);

    // The exit status (or 128+signal), or nullopt if it is still running after `deadline`.
    std::optional<int> wait_exit(std::chrono::milliseconds deadline = default_deadline);

private:
    TempDir scratch_;
    pid_t pid_ = -1;
    std::optional<int> status_;
    LineClient stdio_;
};

} // namespace rio::test
