#include "tests.h"
Suite *suite_core(void) { Suite *s = suite_create("core"); return s; }
