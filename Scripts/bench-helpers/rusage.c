// Runs a command and reports what that one process cost: wall time from start to exit, user
// and system CPU time and peak resident memory, from wait4's rusage (the figures
// /usr/bin/time -v prints; ru_maxrss is in KiB on Linux). A small C program on purpose: the
// kernel carries the forking process's peak RSS over into the child's ru_maxrss, so a wrapper
// in Python would put its own 10+ MiB under every figure.
//
// Usage: rusage OUT.json [--stderr FILE] [--env NAME=VALUE]... -- COMMAND [ARGS...]
//   COMMAND's stdout goes to /dev/null, its stderr to FILE when given; --env sets a variable
//   for COMMAND only (e.g. LD_PRELOAD of the allocation counter). The JSON object
//   {"wall_seconds", "user_seconds", "system_seconds", "cpu_seconds", "max_rss_bytes", "status"}
//   is written to OUT.json ("-" for stdout; otherwise to OUT.json.tmp renamed into place);
//   exits with COMMAND's status (128 + signal when it was killed).
// Build: cc -O2 -o rusage rusage.c
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

int main(int argc, char **argv) {
    const char *out = NULL, *errPath = NULL;
    char *environment[32];
    int environmentCount = 0;
    int i = 1;
    if (i < argc) out = argv[i++];
    for (;;) {
        if (i + 1 < argc && strcmp(argv[i], "--stderr") == 0) { errPath = argv[i + 1]; i += 2; }
        else if (i + 1 < argc && strcmp(argv[i], "--env") == 0 && environmentCount < 32
                 && strchr(argv[i + 1], '=')) { environment[environmentCount++] = argv[i + 1]; i += 2; }
        else break;
    }
    if (!out || i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc) {
        fprintf(stderr, "usage: rusage OUT.json [--stderr FILE] [--env NAME=VALUE]... -- COMMAND [ARGS...]\n");
        return 64;
    }
    char **command = argv + i + 1;
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = fork();
    if (pid < 0) { perror("rusage: fork"); return 71; }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        if (null < 0 || dup2(null, STDOUT_FILENO) < 0) { perror("rusage: /dev/null"); _exit(71); }
        if (errPath) {
            int err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (err < 0 || dup2(err, STDERR_FILENO) < 0) { perror(errPath); _exit(73); }
        }
        for (int k = 0; k < environmentCount; k++) putenv(environment[k]);
        execvp(command[0], command);
        fprintf(stderr, "rusage: %s: %s\n", command[0], strerror(errno));
        _exit(127);
    }
    int status;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) { perror("rusage: wait4"); return 71; }
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    double user = seconds(usage.ru_utime), system = seconds(usage.ru_stime);
    char tmp[4096];
    FILE *f = stdout;
    if (strcmp(out, "-") != 0) {
        snprintf(tmp, sizeof tmp, "%s.tmp", out);
        f = fopen(tmp, "w");
        if (!f) { perror(tmp); return 73; }
    }
    fprintf(f, "{\"wall_seconds\": %.6f, \"user_seconds\": %.6f, \"system_seconds\": %.6f, "
               "\"cpu_seconds\": %.6f, \"max_rss_bytes\": %ld, \"status\": %d}\n",
            (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9, user, system,
            user + system, usage.ru_maxrss * 1024L, code);
    if (f != stdout) {
        if (fclose(f) != 0 || rename(tmp, out) != 0) { perror(out); return 73; }
    }
    return code;
}
