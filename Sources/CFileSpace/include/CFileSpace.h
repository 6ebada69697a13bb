#ifndef JACKWAVE_CFILESPACE_H
#define JACKWAVE_CFILESPACE_H

/// `fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, length)`: reserves disk blocks for the bytes
/// [offset, offset + length) of an open file without changing its size. Returns 0, or the
/// errno value (EOPNOTSUPP where the filesystem has no such thing, ENOSPC on a full disk).
///
/// In C because glibc declares `fallocate` only under _GNU_SOURCE, which Swift's Glibc
/// module is built without.
int jackwave_reserve_blocks(int fd, long long offset, long long length);

#endif
