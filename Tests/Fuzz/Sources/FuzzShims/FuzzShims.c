// The declaration in include/FuzzShims.h is all there is: libFuzzer defines the function.
#include "FuzzShims.h"
