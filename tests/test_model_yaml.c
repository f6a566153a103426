#include "tests.h"
Suite *suite_model_yaml(void) { Suite *s = suite_create("model_yaml"); return s; }
