#ifndef JACKWAVE_CGLIBCEXTRAS_H
#define JACKWAVE_CGLIBCEXTRAS_H

// The glibc functions jackwave needs that Swift's Glibc module does not declare: glibc
// declares them only under _GNU_SOURCE, which that module is built without. Each is
// wrapped once here and called from one Swift place.

/// `fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, length)`: reserves disk blocks for the bytes
/// [offset, offset + length) of an open file without changing its size. Returns 0, or the
/// errno value (EOPNOTSUPP where the filesystem has no such thing, ENOSPC on a full disk).
int jackwave_reserve_blocks(int fd, long long offset, long long length);

/// `pthread_setname_np(thread, name)`: names a thread of this process for `top -H`, `ps -L`,
/// perf and gdb. The kernel keeps 15 bytes; a longer name is cut there. Returns 0 or errno
/// (EINVAL for a thread id of 0, which some libjack builds return for "no thread").
int jackwave_name_thread(unsigned long thread, const char *name);

/// `pthread_self()`, as the integer `jackwave_name_thread` takes.
unsigned long jackwave_this_thread(void);

/// `pipe2(fds, O_CLOEXEC)`: a pipe whose two ends no process jackwave starts inherits unless
/// they are handed to it (a hook's stdin). Returns 0 or errno.
int jackwave_pipe_cloexec(int fds[2]);

/// `statx(dirfd, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME)`: when the file at `path` (relative
/// to `dirfd`; "" for the open file `dirfd` itself) was made, in nanoseconds since the epoch.
/// Returns 0, ENOTSUP where the filesystem keeps no birth time, or errno.
int jackwave_birth_time(int dirfd, const char *path, long long *nanoseconds);

/// `fsetxattr(fd, name, value, size, 0)`: sets an extended attribute on an open file.
/// Returns 0, ENOTSUP where the file system keeps none, or errno.
int jackwave_set_attribute(int fd, const char *name, const void *value, unsigned long size);

/// `fgetxattr(fd, name, value, size)` on an open file: the attribute's length (at most
/// `size` bytes copied; `value` NULL and `size` 0 to ask only whether it is there), or
/// -errno: -ENODATA when the file has no such attribute, -ENOTSUP where the file system
/// keeps none.
long jackwave_get_attribute(int fd, const char *name, void *value, unsigned long size);

/// `lgetxattr(path, name, value, size)`: as `jackwave_get_attribute`, for the file at
/// `path`, not following a final symbolic link.
long jackwave_get_path_attribute(const char *path, const char *name, void *value, unsigned long size);

/// `mkostemp(template_path, O_CLOEXEC)`: creates a new file from a template ending in
/// `XXXXXX` (replaced in place), with `O_EXCL`, mode 0600 and close-on-exec from the start.
/// Returns the descriptor, or -1 with errno set.
int jackwave_make_temporary(char *template_path);

/// Moves `from` to `to` only if nothing is at `to` (`renameat2` with `RENAME_NOREPLACE`, or
/// `link` then `unlink` where the file system lacks it). 0, or -1 with errno set (EEXIST:
/// something is there, and nothing was touched).
int jackwave_rename_noreplace(const char *from, const char *to);

/// `posix_spawn_file_actions_addclosefrom_np(actions, lowest)` (glibc 2.34): the spawned
/// program starts with every descriptor from `lowest` up closed, whatever was left open
/// without close-on-exec. `actions` is a `posix_spawn_file_actions_t *`. Returns 0 or errno.
int jackwave_spawn_close_from(void *actions, int lowest);

/// `memmem`: whether the `needle_length` bytes at `needle` occur in the `length` bytes at
/// `haystack`. Returns 1 or 0.
int jackwave_contains_bytes(const void *haystack, unsigned long length, const void *needle, unsigned long needle_length);

#endif
