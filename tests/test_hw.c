#include "tests.h"
Suite *suite_hw(void) { Suite *s = suite_create("hw"); return s; }
