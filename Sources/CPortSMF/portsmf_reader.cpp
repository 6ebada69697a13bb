#include "portsmf_reader.h"
