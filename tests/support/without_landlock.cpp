// Runs a program on a kernel that, as far as it and its children can tell, has no Landlock:
// every landlock_* syscall fails with ENOSYS, as on a kernel built without it. The sandbox's
// fallback is tested against a real rio-core this way (DESIGN §19).
//   rio_without_landlock PROGRAM ARG...
#include <cerrno>
#include <cstdio>
#include <initializer_list>
#include <seccomp.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: rio_without_landlock PROGRAM ARG...\n");
        return 2;
    }
    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
    for (const char* name :
         {"landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self"}) {
        int nr = seccomp_syscall_resolve_name(name);
        if (nr == __NR_SCMP_ERROR) nr = 444 + (name[9] == 'a' ? 1 : name[9] == 'r' ? 2 : 0);
        if (seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) != 0) return 3;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || seccomp_load(ctx) != 0) {
        std::perror("rio_without_landlock: seccomp");
        return 3;
    }
    seccomp_release(ctx);
    execv(argv[1], argv + 1);
    std::perror("rio_without_landlock: exec");
    return 127;
}
