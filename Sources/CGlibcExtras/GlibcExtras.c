#define _GNU_SOURCE
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

int jackwave_pipe_cloexec(int fds[2]) { return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno; }

#include <sys/stat.h>

int jackwave_birth_time(int dirfd, const char *path, long long *nanoseconds) {
    struct statx info;
    int flags = AT_SYMLINK_NOFOLLOW | (path[0] == '\0' ? AT_EMPTY_PATH : 0);
    if (statx(dirfd, path, flags, STATX_BTIME, &info) != 0) return errno;
    if (!(info.stx_mask & STATX_BTIME)) return ENOTSUP;
    *nanoseconds = (long long)info.stx_btime.tv_sec * 1000000000LL + info.stx_btime.tv_nsec;
    return 0;
}

#include <sys/xattr.h>

int jackwave_set_attribute(int fd, const char *name, const void *value, unsigned long size) {
    return fsetxattr(fd, name, value, size, 0) == 0 ? 0 : errno;
}

long jackwave_get_attribute(int fd, const char *name, void *value, unsigned long size) {
    ssize_t n = fgetxattr(fd, name, value, size);
    return n < 0 ? -(long)errno : (long)n;
}

long jackwave_get_path_attribute(const char *path, const char *name, void *value, unsigned long size) {
    ssize_t n = lgetxattr(path, name, value, size);
    return n < 0 ? -(long)errno : (long)n;
}

int jackwave_make_temporary(char *template_path) { return mkostemp(template_path, O_CLOEXEC); }

int jackwave_rename_noreplace(const char *from, const char *to) {
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0) return 0;
    if (errno != EINVAL && errno != ENOSYS) return -1;
    /* A file system without RENAME_NOREPLACE: a hard link is as exclusive (EEXIST). */
    if (link(from, to) != 0) return -1;
    return unlink(from);
}

int jackwave_spawn_close_from(void *actions, int lowest) {
    return posix_spawn_file_actions_addclosefrom_np((posix_spawn_file_actions_t *)actions, lowest);
}

int jackwave_contains_bytes(const void *haystack, unsigned long length, const void *needle, unsigned long needle_length)
{
    return memmem(haystack, length, needle, needle_length) != NULL;
}
