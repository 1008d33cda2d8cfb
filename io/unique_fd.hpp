// A file descriptor closed when its owner goes out of scope, unless released.
#pragma once

#include <unistd.h>
#include <utility>

namespace rio {

struct UniqueFd {
    int fd = -1;
    explicit UniqueFd(int f) : fd(f) {}
    UniqueFd(UniqueFd&& other) noexcept : fd(other.release()) {}
    UniqueFd& operator=(UniqueFd&& other) noexcept {
        if (this != &other) {
            reset();
            fd = other.release();
        }
        return *this;
    }
    UniqueFd(const UniqueFd&) = delete;
    UniqueFd& operator=(const UniqueFd&) = delete;
    ~UniqueFd() { reset(); }
    int release() { return std::exchange(fd, -1); }
    void reset() {
        if (fd >= 0) ::close(std::exchange(fd, -1));
    }
};

} // namespace rio
