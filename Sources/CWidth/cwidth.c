#include "cwidth.h"
#include <locale.h>

int chatmail_use_utf8_ctype(void) {
    // Only LC_CTYPE: number and date formatting stay untouched.
    return setlocale(LC_CTYPE, "C.UTF-8") != NULL;
}
