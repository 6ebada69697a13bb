#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "CFileSpace.h"

int jackwave_reserve_blocks(int fd, long long offset, long long length) {
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length) == 0 ? 0 : errno;
}
