/* The machine's physical limit under a map of `true` scripts (issue 29): N
 * fork+exec of `/bin/sh -c true`, P at once, each reaped with waitpid — no
 * pipes, no runtime, nothing but the kernel's process start. bench/lib/fork-pool.ts
 * compiles it with `cc` into a temporary folder at bench time.
 *   fork-pool N P */
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

static int start(void) {
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(3);
  }
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c", "true", (char *)NULL);
    _exit(127);
  }
  return 1;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 500;
  long p = argc > 2 ? atol(argv[2]) : 8;
  if (n < 0 || p < 1) {
    fprintf(stderr, "usage: fork-pool N P\n");
    return 2;
  }
  long started = 0, running = 0;
  int failed = 0;
  while (started < n || running > 0) {
    while (running < p && started < n) running += start(), started++;
    int status;
    if (waitpid(-1, &status, 0) < 0) {
      perror("waitpid");
      return 3;
    }
    running--;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) failed = 1;
  }
  return failed;
}
