// A descriptor handed from one process to another over a Unix socket (SCM_RIGHTS): the child
// of a command allowed some hosts sends the proxy's listener it made in its own network
// namespace; the process runner receives it (issue 45). Bare syscalls on the stack only:
// the sending side runs between clone and exec.
#pragma once

namespace rio {

// Sends `fd` with one byte through `channel`. 0, or the errno.
int send_descriptor(int channel, int fd);

// The descriptor waiting on `channel` (close-on-exec), without blocking; -1 when none is.
int receive_descriptor(int channel);

} // namespace rio
