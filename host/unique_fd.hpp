// A file descriptor closed when its owner goes out of scope, unless released.
#pragma once

#include <unistd.h>
#include <utility>

namespace rio {

struct UniqueFd {
    int fd = -1;
    explicit UniqueFd(int f) : fd(f) {}
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() {
        if (fd >= 0) ::close(fd);
    }
    int release() { return std::exchange(fd, -1); }
};

} // namespace rio
