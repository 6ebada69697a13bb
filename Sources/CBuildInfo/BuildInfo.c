#include "CBuildInfo.h"

// BuildCommit.h is generated (and git-ignored): scripts/build-info writes it, and touches
// this file when it first appears, since the compiler only tracks headers it has seen.
// A clean clone built with plain `swift build` has none and says "unknown".
#if __has_include("BuildCommit.h")
#include "BuildCommit.h"
#endif
#ifndef JACKWAVE_BUILD_COMMIT
#define JACKWAVE_BUILD_COMMIT "unknown"
#endif

const char *jackwave_build_commit(void) {
    return JACKWAVE_BUILD_COMMIT;
}
