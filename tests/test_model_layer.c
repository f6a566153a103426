#include "tests.h"
Suite *suite_model_layer(void) { Suite *s = suite_create("model_layer"); return s; }
