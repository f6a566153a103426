/*
 * banned.h -- functions the code base does not use, made compile errors.
 *
 * Each has a safer form that checks bounds or errors: snprintf for
 * sprintf, strtol/strtod with an end pointer for atoi/atof, the _r forms
 * for gmtime/localtime (git banned.h, curl CODE_STYLE).  Include it last.
 */
#ifndef DLSIM_CORE_BANNED_H
#define DLSIM_CORE_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef atof
#define atof(x) BANNED(atof)
#undef gmtime
#define gmtime(x) BANNED(gmtime)
#undef localtime
#define localtime(x) BANNED(localtime)

#endif /* DLSIM_CORE_BANNED_H */
