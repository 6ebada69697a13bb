#ifndef CBUILDINFO_H
#define CBUILDINFO_H

/// The git commit this binary was built from (`git describe --always --dirty`), written by
/// scripts/build-info into BuildCommit.h before a build; "unknown" in a build without it.
const char *jackwave_build_commit(void);

#endif
