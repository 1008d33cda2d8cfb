// Runs a program where, as far as it and its children can tell, no namespace can be made:
// unshare(2) fails with EPERM, as where user namespaces are restricted (Ubuntu's AppArmor
// rule, kernel.unprivileged_userns_clone = 0) and the program is not root. The sandbox's
// split of the project's top level (decision 0080) is tested against a real rio-core so.
//   rio_without_namespaces PROGRAM ARG...
#include <cerrno>
#include <cstdio>
#include <seccomp.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: rio_without_namespaces PROGRAM ARG...\n");
        return 2;
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(unshare), 0) != 0) return 3;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || seccomp_load(ctx) != 0) {
        std::perror("rio_without_namespaces: seccomp");
        return 3;
    }
    seccomp_release(ctx);
    execv(argv[1], argv + 1);
    std::perror("rio_without_namespaces: exec");
    return 127;
}
