#include "tests.h"
Suite *suite_report(void) { Suite *s = suite_create("report"); return s; }
