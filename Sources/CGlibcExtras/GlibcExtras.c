#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>

#include "CGlibcExtras.h"

int jackwave_reserve_blocks(int fd, long long offset, long long length) {
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length) == 0 ? 0 : errno;
}

int jackwave_name_thread(unsigned long thread, const char *name) {
    if (thread == 0) return EINVAL;
    char cut[16];
    strncpy(cut, name, sizeof cut - 1);
    cut[sizeof cut - 1] = '\0';
    return pthread_setname_np((pthread_t)thread, cut);
}

unsigned long jackwave_this_thread(void) { return (unsigned long)pthread_self(); }

int jackwave_make_temporary(char *template_path) { return mkostemp(template_path, O_CLOEXEC); }

int jackwave_spawn_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}
