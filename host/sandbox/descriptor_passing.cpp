#include "host/sandbox/descriptor_passing.hpp"

#include <cerrno>
#include <cstring>
#include <sys/socket.h>

namespace rio {
namespace {

// One byte and room for one descriptor: the message either way.
struct OneDescriptor {
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
    char byte = 'D';
    iovec data{&byte, 1};
    msghdr message{};

    OneDescriptor() {
        message.msg_iov = &data;
        message.msg_iovlen = 1;
        message.msg_control = control;
        message.msg_controllen = sizeof control;
    }
    OneDescriptor(const OneDescriptor&) = delete;
    OneDescriptor& operator=(const OneDescriptor&) = delete;
};

} // namespace

int send_descriptor(int channel, int fd) {
    OneDescriptor one;
    cmsghdr* rights = CMSG_FIRSTHDR(&one.message);
    rights->cmsg_level = SOL_SOCKET;
    rights->cmsg_type = SCM_RIGHTS;
    rights->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(rights), &fd, sizeof fd);
    if (::sendmsg(channel, &one.message, MSG_NOSIGNAL) == 1) return 0;
    return errno ? errno : EIO;
}

int receive_descriptor(int channel) {
    OneDescriptor one;
    if (::recvmsg(channel, &one.message, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1) return -1;
    cmsghdr* rights = CMSG_FIRSTHDR(&one.message);
    if (!rights || rights->cmsg_level != SOL_SOCKET || rights->cmsg_type != SCM_RIGHTS ||
        rights->cmsg_len != CMSG_LEN(sizeof(int)))
        return -1;
    int fd = -1;
    std::memcpy(&fd, CMSG_DATA(rights), sizeof fd);
    return fd;
}

} // namespace rio
